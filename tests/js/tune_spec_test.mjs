// The tuning spec's published JSON Schema (docs/tune-spec.schema.json, validated by Ajv): both
// examples pass, and every bad spec of the table refract's reader also refuses
// (tests/data/tune_spec_mutations.json; tests/unit/tune_spec_test.cpp) fails. Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const readJson = (path) => JSON.parse(readFileSync(join(root, path), "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(
  readJson("docs/tune-spec.schema.json"),
);
const table = readJson("tests/data/tune_spec_mutations.json");

/** `spec` with the mutation applied: `value` set at the JSON pointer `path`, or removed. */
function mutated(spec, mutation) {
  const copy = structuredClone(spec);
  const keys = mutation.path.split("/").slice(1);
  const last = keys.pop();
  let parent = copy;
  for (const key of keys) parent = parent[key];
  if ("value" in mutation) {
    parent[last] = mutation.value;
  } else if (Array.isArray(parent)) {
    parent.splice(Number(last), 1);
  } else {
    delete parent[last];
  }
  return copy;
}

test("both examples are valid specs", () => {
  for (const path of ["examples/tune/matmul_f32/matmul_tiled.json", "examples/tune/q4_gemv/q4_gemv.json"]) {
    assert.ok(validate(readJson(path)), `${path}: ${JSON.stringify(validate.errors)}`);
  }
});

test("every bad spec of the shared table is refused", () => {
  const base = readJson(table.base);
  assert.ok(table.mutations.length >= 20);
  for (const mutation of table.mutations) {
    assert.equal(validate(mutated(base, mutation)), false, `accepted: ${mutation.name}`);
  }
});
