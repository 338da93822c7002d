// Checks profile stores refract wrote against docs/profile.schema.json (Ajv) and the
// JavaScript reader: node tests/js/validate_profile.mjs FILE...; exit 1 naming the first
// problem. The end-to-end tests run it on every store they make refract write.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

import { parseStore } from "../../js/refract-profile.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const schema = JSON.parse(readFileSync(join(root, "docs/profile.schema.json"), "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node validate_profile.mjs FILE...");
  process.exit(2);
}
for (const file of files) {
  const text = readFileSync(file, "utf8");
  if (!validate(JSON.parse(text))) {
    console.error(`${file}: not valid against the schema: ${JSON.stringify(validate.errors)}`);
    process.exit(1);
  }
  const store = parseStore(text);
  const entries = store.profiles.reduce((n, p) => n + p.entries.length, 0);
  console.log(`${file}: valid (${store.profiles.length} adapters, ${entries} entries)`);
}
