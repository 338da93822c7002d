// refract's profiles as a web engine reads them: the same strict reading and the same lookup
// as the C++ library (include/refract/profile.h), with no dependencies. The layout:
// docs/profile.schema.json; the rules: docs/PROFILES.md. Both readers pass the same test
// vectors (tests/data/profile_vectors.json).

export const FORMAT = "refract-profile-store";
/** The schema this reader knows up to; it reads every schema from 1 (which has no `grid`). */
export const SCHEMA_VERSION = 2;

/** A store that cannot be read; the message names the field and what is wrong with it. */
export class ProfileError extends Error {
  constructor(message) {
    super(message);
    this.name = "ProfileError";
  }
}

function fail(path, what) {
  throw new ProfileError(`${path}: ${what}`);
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function field(object, path, name) {
  if (!Object.prototype.hasOwnProperty.call(object, name)) fail(path, `missing field '${name}'`);
  return object[name];
}

function objectAt(value, path) {
  if (!isObject(value)) fail(path, "not an object");
  return value;
}

function arrayAt(value, path) {
  if (!Array.isArray(value)) fail(path, "not an array");
  return value;
}

function stringOf(object, path, name) {
  const value = field(object, path, name);
  if (typeof value !== "string") fail(`${path}.${name}`, "not a string");
  return value;
}

function nonEmptyStringOf(object, path, name) {
  const text = stringOf(object, path, name);
  if (text === "") fail(`${path}.${name}`, "empty");
  return text;
}

function wholeOf(value, path) {
  if (typeof value !== "number") fail(path, "not a whole number");
  if (!Number.isFinite(value)) fail(path, "not finite");
  if (!Number.isInteger(value)) fail(path, "not a whole number");
  if (value < 0) fail(path, "negative");
  if (value > 4294967295) fail(path, "above 4294967295");
  return value;
}

function numberOf(value, path) {
  if (typeof value !== "number") fail(path, "not a number");
  if (!Number.isFinite(value)) fail(path, "not finite");
  return value;
}

function positiveOf(object, path, name) {
  const number = numberOf(field(object, path, name), `${path}.${name}`);
  if (number <= 0) fail(`${path}.${name}`, "not > 0");
  return number;
}

function optionalRatioOf(object, path, name, zeroAllowed) {
  const value = field(object, path, name);
  if (value === null) return null;
  const number = numberOf(value, `${path}.${name}`);
  if (number < 0 || (!zeroAllowed && number === 0)) {
    fail(`${path}.${name}`, zeroAllowed ? "negative" : "not > 0");
  }
  return number;
}

function namesOf(object, path, name) {
  const where = `${path}.${name}`;
  return arrayAt(field(object, path, name), where).map((item) => {
    if (typeof item !== "string" || item === "") fail(where, "not a list of names");
    return item;
  });
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A UTC time to the second, exactly as "2026-12-01T17:07:14Z", and a real one. */
function utcTimeOf(object, path, name) {
  const text = stringOf(object, path, name);
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/.exec(text);
  const [year, month, day, hour, minute, second] = match ? match.slice(1).map(Number) : [];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const valid = match !== null && month >= 1 && month <= 12 && day >= 1 &&
    day <= DAYS[month - 1] + (month === 2 && leap ? 1 : 0) && hour <= 23 && minute <= 59 &&
    second <= 59;
  if (!valid) fail(`${path}.${name}`, "not a UTC time written as 2026-12-01T17:07:14Z");
  return text;
}

function adapterOf(value, path) {
  objectAt(value, path);
  const whole = (name) => wholeOf(field(value, path, name), `${path}.${name}`);
  return {
    key: nonEmptyStringOf(value, path, "key"),
    vendor: stringOf(value, path, "vendor"),
    architecture: stringOf(value, path, "architecture"),
    device: stringOf(value, path, "device"),
    vendor_id: whole("vendor_id"),
    device_id: whole("device_id"),
    driver: stringOf(value, path, "driver"),
    backend: stringOf(value, path, "backend"),
    subgroup_min_size: whole("subgroup_min_size"),
    subgroup_max_size: whole("subgroup_max_size"),
  };
}

function choiceOf(value, path) {
  objectAt(value, path);
  const paramsPath = `${path}.params`;
  const params = {};
  for (const [name, setting] of Object.entries(objectAt(field(value, path, "params"), paramsPath))) {
    params[name] = wholeOf(setting, `${paramsPath}.${name}`);
  }
  const choice = {
    params,
    row: nonEmptyStringOf(value, path, "row"),
    median_ms: positiveOf(value, path, "median_ms"),
    p10_ms: positiveOf(value, path, "p10_ms"),
    p90_ms: positiveOf(value, path, "p90_ms"),
  };
  if (!(choice.p10_ms <= choice.median_ms && choice.median_ms <= choice.p90_ms)) {
    fail(path, "p10_ms <= median_ms <= p90_ms does not hold");
  }
  choice.runner_up_margin = optionalRatioOf(value, path, "runner_up_margin", true);
  choice.over_default = optionalRatioOf(value, path, "over_default", false);
  choice.over_seed = optionalRatioOf(value, path, "over_seed", false);
  return choice;
}

function stampOf(value, path) {
  objectAt(value, path);
  return {
    refract_version: nonEmptyStringOf(value, path, "refract_version"),
    dawn_package: nonEmptyStringOf(value, path, "dawn_package"),
    kernels: namesOf(value, path, "kernels"),
    kernel_hash: nonEmptyStringOf(value, path, "kernel_hash"),
    axes: namesOf(value, path, "axes"),
    axes_hash: nonEmptyStringOf(value, path, "axes_hash"),
    measured_at: utcTimeOf(value, path, "measured_at"),
  };
}

/**
 * -1, 0 or 1 as `a` sorts before, with or after `b` by their UTF-8 bytes, as C++ compares
 * std::string (JavaScript's own < compares UTF-16 code units, which differs past U+FFFF).
 */
function compareUtf8(a, b) {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return Math.sign(x.length - y.length);
}

/** An entry of a store of schema `schema` (the grid from schema 2 on). */
function entryOf(value, path, schema) {
  objectAt(value, path);
  const entry = {
    sweep: nonEmptyStringOf(value, path, "sweep"),
    kernel: nonEmptyStringOf(value, path, "kernel"),
    variant: nonEmptyStringOf(value, path, "variant"),
    problem: nonEmptyStringOf(value, path, "problem"),
    shape: {},
  };
  const shapePath = `${path}.shape`;
  for (const [name, size] of Object.entries(objectAt(field(value, path, "shape"), shapePath))) {
    entry.shape[name] = numberOf(size, `${shapePath}.${name}`);
  }
  entry.winner = choiceOf(field(value, path, "winner"), `${path}.winner`);
  const within = field(value, path, "winner_default_limits");
  entry.winner_default_limits =
    within === null ? null : choiceOf(within, `${path}.winner_default_limits`);
  const cliffsPath = `${path}.cliffs`;
  entry.cliffs = arrayAt(field(value, path, "cliffs"), cliffsPath).map((cliff, index) => {
    const where = `${cliffsPath}[${index}]`;
    objectAt(cliff, where);
    return {
      axis: nonEmptyStringOf(cliff, where, "axis"),
      at: numberOf(field(cliff, where, "at"), `${where}.at`),
      reason: stringOf(cliff, where, "reason"),
    };
  });
  entry.stamp = stampOf(field(value, path, "stamp"), `${path}.stamp`);
  entry.grid = null;
  if (schema >= 2 && field(value, path, "grid") !== null) {
    const grid = namesOf(value, path, "grid");
    if (grid.length === 0) fail(`${path}.grid`, "empty: a winner is chosen from one configuration or more");
    for (let i = 1; i < grid.length; i += 1) {
      if (compareUtf8(grid[i - 1], grid[i]) >= 0) fail(`${path}.grid`, "not in name order, each once");
    }
    entry.grid = grid;
  }
  return entry;
}

/** The largest store a reader takes [bytes of UTF-8]: 64 MiB, as the C++ reader. */
export const MAX_BYTES = 64 * 1024 * 1024;

/**
 * The JSON text of a store given as a string or as bytes, by the rules both readers hold
 * (docs/PROFILES.md, "The text of a store"): at most MAX_BYTES of UTF-8, valid UTF-8, no NUL
 * character, one leading byte order mark ignored.
 */
function documentText(input) {
  let bytes;
  if (typeof input === "string") {
    if (!input.isWellFormed()) fail("store", "not valid UTF-8 (a lone surrogate)");
    bytes = new TextEncoder().encode(input);
  } else if (input instanceof Uint8Array) {
    bytes = input;
  } else if (input instanceof ArrayBuffer) {
    bytes = new Uint8Array(input);
  } else {
    throw new ProfileError("store: give the text as a string, a Uint8Array or an ArrayBuffer");
  }
  if (bytes.length > MAX_BYTES) throw new ProfileError("larger than 64 MiB: no refract document");
  const nul = bytes.indexOf(0);
  let text;
  try {
    // fatal: invalid UTF-8 throws; the default ignoreBOM (false) drops one leading mark.
    text = new TextDecoder("utf-8", { fatal: true }).decode(nul < 0 ? bytes : bytes.subarray(0, nul));
  } catch {
    throw new ProfileError("not valid UTF-8");
  }
  if (nul >= 0) throw new ProfileError(`a NUL character at byte ${nul}: not a JSON text`);
  return text;
}

/**
 * The store in `input` (its JSON text as a string, or its bytes as a Uint8Array or an
 * ArrayBuffer, as `fetch` and `fs.readFileSync` give them); throws ProfileError naming the first
 * problem.
 */
export function parseStore(input) {
  const text = documentText(input);
  let document;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(`not JSON: ${error.message}`);
  }
  const top = "store";
  objectAt(document, top);
  const format = field(document, top, "format");
  if (format !== FORMAT) {
    fail(`${top}.format`, `not a refract profile store (format is not '${FORMAT}')`);
  }
  const schema = wholeOf(field(document, top, "schema_version"), `${top}.schema_version`);
  if (schema > SCHEMA_VERSION) {
    fail(
      `${top}.schema_version`,
      `schema ${schema} is newer than ${SCHEMA_VERSION}, the newest this reader knows: update the reader`,
    );
  }
  if (schema < 1) fail(`${top}.schema_version`, "0 is no schema");
  const adapters = new Set();
  const profiles = arrayAt(field(document, top, "profiles"), `${top}.profiles`).map((p, index) => {
    const path = `${top}.profiles[${index}]`;
    objectAt(p, path);
    const adapter = adapterOf(field(p, path, "adapter"), `${path}.adapter`);
    if (adapters.has(adapter.key)) fail(`${path}.adapter.key`, `a second profile of '${adapter.key}'`);
    adapters.add(adapter.key);
    const keys = new Set();
    const entries = arrayAt(field(p, path, "entries"), `${path}.entries`).map((e, i) => {
      const where = `${path}.entries[${i}]`;
      const entry = entryOf(e, where, schema);
      const key = JSON.stringify([entry.kernel, entry.variant, entry.problem]);
      if (keys.has(key)) {
        fail(where, `a second entry of ${entry.kernel} ${entry.variant} at ${entry.problem}`);
      }
      keys.add(key);
      return entry;
    });
    return { adapter, entries };
  });
  return { profiles };
}

const short = (hash) => hash.slice(0, 12);

/** Why `entry` is stale for `query`'s expectations, or null when it is fresh. */
export function staleReason(entry, query) {
  const stamp = entry.stamp;
  if (query.dawn_package && stamp.dawn_package !== query.dawn_package) {
    return `measured with Dawn ${stamp.dawn_package}, this is ${query.dawn_package}`;
  }
  if (query.kernel_hash && stamp.kernel_hash !== query.kernel_hash) {
    return `the kernel source changed (hash ${short(stamp.kernel_hash)}… then, ${short(query.kernel_hash)}… now)`;
  }
  if (query.axes_hash && stamp.axes_hash !== query.axes_hash) {
    return "the op's axes changed (a renamed axis, a new meaning or allowed values)";
  }
  return null;
}

function shapeDistance(a, b) {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return null;
  let distance = 0;
  for (const name of names) {
    if (!Object.prototype.hasOwnProperty.call(b, name)) return null;
    const x = a[name];
    const y = b[name];
    if (x === y) continue;
    if (x <= 0 || y <= 0) return Infinity;
    distance += Math.abs(Math.log(x / y));
  }
  return distance;
}

function shapeText(shape) {
  const names = Object.keys(shape).sort();
  if (names.length === 0) return "no dimensions";
  return names.map((name) => `${name} ${formatG(shape[name])}`).join(", ");
}

/** C's %g: 6 significant digits, trailing zeros dropped. */
function formatG(x) {
  if (x === 0) return "0";
  const exponent = Math.floor(Math.log10(Math.abs(x)));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa, power] = x.toExponential(5).split("e");
    const trimmed = mantissa.includes(".") ? mantissa.replace(/\.?0+$/, "") : mantissa;
    const sign = power[0] === "-" ? "-" : "+";
    const digits = power.replace(/^[+-]/, "").padStart(2, "0");
    return `${trimmed}e${sign}${digits}`;
  }
  const fixed = x.toFixed(Math.max(0, 5 - exponent));
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/**
 * Answers `query` ({adapter_key, kernel, variant?, problem?, shape?, default_limits?,
 * dawn_package?, kernel_hash?, axes_hash?}) from `store`, as the C++ Lookup does.
 */
export function lookup(store, query) {
  const answer = { choice: null, entry: null, exact: false, note: "", stale: [] };
  let profile = null;
  for (const candidate of store.profiles) {
    if (candidate.adapter.key === query.adapter_key) profile = candidate;
  }
  if (profile === null) {
    const n = store.profiles.length;
    answer.note = `no profile of this adapter (${n} other adapter${n === 1 ? "" : "s"} in the store)`;
    return answer;
  }
  const variant = query.variant ?? "";
  const problem = query.problem ?? "";
  const shape = query.shape ?? {};
  let best = null;
  let bestDistance = Infinity;
  let ofKernel = 0;
  for (const entry of profile.entries) {
    if (entry.kernel !== query.kernel || (variant !== "" && entry.variant !== variant)) continue;
    ofKernel += 1;
    const reason = staleReason(entry, query);
    if (reason !== null) {
      answer.stale.push({ problem: entry.problem, reason });
      continue;
    }
    if (problem !== "" && entry.problem === problem) {
      best = entry;
      bestDistance = 0;
      break;
    }
    const distance = shapeDistance(entry.shape, shape);
    if (distance !== null && distance < bestDistance) {
      best = entry;
      bestDistance = distance;
    }
  }
  const what = query.kernel + (variant === "" ? "" : ` ${variant}`);
  if (best === null) {
    if (ofKernel === 0) answer.note = `no entry of ${what} in this adapter's profile`;
    else if (answer.stale.length === ofKernel) answer.note = `every entry of ${what} is stale`;
    else answer.note = `no entry of ${what} with the dimensions ${shapeText(shape)}`;
    return answer;
  }
  answer.entry = best;
  answer.exact = bestDistance === 0;
  if (query.default_limits && best.winner_default_limits === null) {
    answer.note = `no configuration within WebGPU's default limits was measured at ${best.problem}`;
    return answer;
  }
  answer.choice = query.default_limits ? best.winner_default_limits : best.winner;
  answer.note = answer.exact
    ? `swept at ${best.problem}`
    : `nearest swept shape: ${best.problem} (${shapeText(best.shape)})`;
  return answer;
}

/**
 * The key of the adapter the other fields of `adapter` describe (its own `key` is not read),
 * as the C++ AdapterKeyOf: what an engine computes from its GPUAdapterInfo (vendor,
 * architecture, device, description as `driver`) with the ids, backend and subgroup sizes.
 */
export function adapterKeyOf(adapter) {
  const hex4 = (value) => `0x${value.toString(16).padStart(4, "0")}`;
  const name = adapter.architecture ? `${adapter.vendor} ${adapter.architecture}` : adapter.vendor;
  return `${name} / ${adapter.device} (${hex4(adapter.vendor_id)}:${hex4(adapter.device_id)}) / ` +
    `${adapter.driver} / ${adapter.backend} / subgroups ${adapter.subgroup_min_size}-${adapter.subgroup_max_size}`;
}

/**
 * The stamp of the kernels a configuration compiled, as the C++ KernelHash: the SHA-256 (64
 * lowercase hex digits) of each `{name, text}` written as "<name>\n<UTF-8 bytes>\n<text>",
 * concatenated in name order. An engine that tuned its own kernel with `refract tune` passes
 * kernelHash([{name: "<kernel file without .wgsl>", text}, {name: "<spec file without .json>.spec",
 * text}]) as the query's `kernel_hash`, so an edit of either file makes the entry stale. Async:
 * it uses Web Crypto (browsers, Node 20).
 */
export async function kernelHash(kernels) {
  const encoder = new TextEncoder();
  const sorted = [...kernels].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const parts = sorted.map((kernel) => {
    const text = encoder.encode(kernel.text);
    return [encoder.encode(`${kernel.name}\n${text.length}\n`), text];
  }).flat();
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Why `newer` may not replace `older` (entries of one adapter, kernel, variant and problem), or
 * null when it may, as the C++ ReplacementProblem: when their Dawn, kernel source or axes
 * differ it may; otherwise only when its grid holds every configuration `older`'s was chosen
 * from (never when `older` records none).
 */
export function replacementProblem(older, newer) {
  const a = older.stamp;
  const b = newer.stamp;
  if (a.dawn_package !== b.dawn_package || a.kernel_hash !== b.kernel_hash || a.axes_hash !== b.axes_hash) {
    return null;
  }
  if (older.grid === null) {
    return "its winner's grid is not recorded (a schema-1 store): it may have been chosen from more configurations";
  }
  const had = new Set(newer.grid ?? []);
  const missing = older.grid.filter((name) => !had.has(name));
  if (missing.length === 0) return null;
  return `its winner was chosen from ${older.grid.length} configurations, ${missing.length} of which ` +
    `the newer run did not time (${missing[0]}${missing.length > 1 ? ", …" : ""})`;
}

/**
 * `base` with `incoming` merged in, as the C++ Merge: an entry measured later replaces the one
 * it meets when replacementProblem allows it.
 */
export function merge(base, incoming, notes = null) {
  const say = (line) => notes?.push(line);
  const merged = structuredClone(base);
  for (const profile of incoming.profiles) {
    const into = merged.profiles.find((p) => p.adapter.key === profile.adapter.key);
    if (!into) {
      merged.profiles.push(structuredClone(profile));
      say(`added the profile of ${profile.adapter.key} (${profile.entries.length} entries)`);
      continue;
    }
    for (const entry of profile.entries) {
      const index = into.entries.findIndex(
        (e) => e.kernel === entry.kernel && e.variant === entry.variant && e.problem === entry.problem,
      );
      const what = `${entry.kernel} ${entry.variant} at ${entry.problem} on ${profile.adapter.key}`;
      if (index < 0) {
        into.entries.push(structuredClone(entry));
        say(`added ${what}`);
        continue;
      }
      const same = into.entries[index];
      if (entry.stamp.measured_at > same.stamp.measured_at) {
        const problem = replacementProblem(same, entry);
        if (problem !== null) {
          say(`kept ${what}: the newer entry (${entry.stamp.measured_at}) may not replace it: ${problem}`);
          continue;
        }
        say(`replaced ${what}: measured ${entry.stamp.measured_at}, newer than ${same.stamp.measured_at}`);
        into.entries[index] = structuredClone(entry);
      } else {
        say(`kept ${what}: measured ${same.stamp.measured_at}, not older than ${entry.stamp.measured_at}`);
      }
    }
  }
  return merged;
}
