// The JavaScript profile reader (js/refract-profile.mjs) on the vectors it shares with the C++
// reader (tests/data/profile_vectors.json), and every valid store against the published JSON
// Schema (docs/profile.schema.json, validated by Ajv). Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

import { adapterKeyOf, kernelHash, lookup, merge, parseStore, ProfileError } from "../../js/refract-profile.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const vectors = JSON.parse(readFileSync(join(root, "tests/data/profile_vectors.json"), "utf8"));
const storeNamed = (name) => parseStore(JSON.stringify(vectors.stores[name]));

/**
 * The input of an invalid or accepted vector: its "text" (a string), its "text_hex", or a store
 * of "stores" written compactly with "prefix_hex" and "suffix_hex" around it and spaces up to
 * "pad_to_bytes" (bytes, as a Uint8Array).
 */
function inputOf(vector) {
  if (vector.text !== undefined) return vector.text;
  if (vector.text_hex !== undefined) return Buffer.from(vector.text_hex, "hex");
  const parts = [
    Buffer.from(vector.prefix_hex ?? "", "hex"),
    Buffer.from(JSON.stringify(vectors.stores[vector.store]), "utf8"),
    Buffer.from(vector.suffix_hex ?? "", "hex"),
  ];
  let bytes = Buffer.concat(parts);
  if (vector.pad_to_bytes !== undefined) {
    const padded = Buffer.alloc(vector.pad_to_bytes, 0x20);
    bytes.copy(padded);
    bytes = padded;
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

test("every query gets the shared answer", () => {
  assert.ok(vectors.queries.length >= 10);
  for (const vector of vectors.queries) {
    const answer = lookup(storeNamed(vector.store), vector.query);
    const expect = vector.expect;
    const name = vector.name;
    assert.deepEqual(answer.choice === null ? null : answer.choice.params, expect.params, name);
    assert.equal(answer.exact, expect.exact, name);
    assert.equal(answer.entry === null ? null : answer.entry.problem, expect.problem, name);
    assert.equal(answer.note, expect.note, name);
    assert.deepEqual(answer.stale.map((s) => s.problem), expect.stale, name);
    for (const s of answer.stale) assert.ok(s.reason.length > 0, name);
  }
});

test("every invalid text is refused naming the problem", () => {
  assert.ok(vectors.invalid.length >= 10);
  for (const vector of vectors.invalid) {
    assert.throws(
      () => parseStore(inputOf(vector)),
      (error) => error instanceof ProfileError && error.message.includes(vector.error),
      vector.name,
    );
  }
});

test("every accepted text is read, as a string and as bytes", () => {
  assert.ok(vectors.accepted.length >= 3);
  for (const vector of vectors.accepted) {
    const input = inputOf(vector);
    assert.equal(parseStore(input).profiles.length, vector.adapters, vector.name);
    const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
    assert.equal(parseStore(bytes).profiles.length, vector.adapters, vector.name);
    assert.equal(parseStore(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).profiles.length, vector.adapters, vector.name);
  }
});

test("a string is held to the bytes' rules", () => {
  const store = JSON.stringify(vectors.stores["two-adapters"]);
  assert.equal(parseStore("\uFEFF" + store).profiles.length, 2);
  assert.throws(() => parseStore(store + "\u0000garbage"), /a NUL character at byte/);
  assert.throws(() => parseStore(store + "\uD800"), /not valid UTF-8/);
  assert.throws(() => parseStore(store + " ".repeat(64 * 1024 * 1024)), /larger than 64 MiB/);
  assert.throws(() => parseStore(42), ProfileError);
});

test("merges keep other adapters and the newer entry", () => {
  for (const vector of vectors.merges) {
    const notes = [];
    const merged = merge(storeNamed(vector.base), storeNamed(vector.incoming), notes);
    assert.deepEqual(merged.profiles.map((p) => p.adapter.key), vector.expect.adapters);
    for (const winner of vector.expect.winners) {
      const answer = lookup(merged, {
        adapter_key: winner.adapter,
        kernel: "matmul-q4",
        variant: winner.variant,
        problem: winner.problem,
      });
      assert.deepEqual(answer.choice.params, winner.params, winner.problem);
    }
    for (const line of vector.expect.notes) assert.ok(notes.includes(line), line);
  }
});

test("every kernel hash is computed from its files", async () => {
  assert.ok(vectors.kernel_hashes.length >= 3);
  for (const vector of vectors.kernel_hashes) {
    assert.equal(await kernelHash(vector.kernels), vector.hash, vector.name);
  }
});

test("every adapter key is made from its fields", () => {
  assert.ok(vectors.adapter_keys.length >= 3);
  for (const vector of vectors.adapter_keys) {
    assert.equal(adapterKeyOf(vector.adapter), vector.key, vector.name);
  }
  for (const name of Object.keys(vectors.stores)) {
    for (const profile of storeNamed(name).profiles) {
      assert.equal(adapterKeyOf(profile.adapter), profile.adapter.key, profile.adapter.key);
    }
  }
});

test("random edits of a valid store are an error or a store, never a crash", () => {
  const valid = JSON.stringify(vectors.stores["two-adapters"], null, 2);
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  let refused = 0;
  for (let trial = 0; trial < 300; trial += 1) {
    let text = valid;
    const at = random() % text.length;
    text = random() % 2 ? text.slice(0, at) : text.slice(0, at) + String.fromCharCode(random() % 128) + text.slice(at + 1);
    try {
      parseStore(text);
    } catch (error) {
      assert.ok(error instanceof ProfileError, String(error));
      refused += 1;
    }
  }
  assert.ok(refused > 100);
});

function schemaValidator() {
  const schema = JSON.parse(readFileSync(join(root, "docs/profile.schema.json"), "utf8"));
  return new Ajv2020({ allErrors: true, strict: true }).compile(schema);
}

test("the shared stores are valid against the published schema, broken ones are not", () => {
  const validate = schemaValidator();
  for (const [name, store] of Object.entries(vectors.stores)) {
    assert.ok(validate(store), `${name}: ${JSON.stringify(validate.errors)}`);
  }
  // The schema refuses what it can express (the readers also refuse the rest).
  const future = { ...vectors.stores["two-adapters"], schema_version: 3 };
  assert.equal(validate(future), false);
  const gridless = structuredClone(vectors.stores["two-adapters"]);
  delete gridless.profiles[0].entries[0].grid;
  assert.equal(validate(gridless), false, "a schema-2 entry needs its grid");
  const yesterday = structuredClone(vectors.stores["two-adapters"]);
  yesterday.profiles[0].entries[0].stamp.measured_at = "yesterday";
  assert.equal(validate(yesterday), false);
  const broken = structuredClone(vectors.stores["two-adapters"]);
  broken.profiles[0].entries[0].winner.params.wg = "256";
  assert.equal(validate(broken), false);
});
