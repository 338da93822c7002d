// The test plan as ctest holds it, against what tests/CMakeLists.txt means it to be: the GPU
// tests that judge times run alone (RUN_SERIAL), every GPU and end-to-end test has its 600 s
// limit, and no test carries a property that is not one (what a list-valued LABELS given to
// gtest_discover_tests once did: "e2e;gpu" was split and RUN_SERIAL TRUE TIMEOUT 600 lost).
// Usage: node test_plan_check.mjs <ctest> <build dir>; exit 0 when the plan holds.
import { spawnSync } from "node:child_process";
import { basename } from "node:path";

const [ctest, buildDir] = process.argv.slice(2);
const listed = spawnSync(ctest, ["--show-only=json-v1", "--test-dir", buildDir], {
  encoding: "utf8",
  maxBuffer: 64 << 20,
});
if (listed.status !== 0) {
  console.error(`ctest --show-only failed: ${listed.stderr}`);
  process.exit(1);
}

const knownProperties = new Set([
  "LABELS", "RUN_SERIAL", "TIMEOUT", "WORKING_DIRECTORY", "SKIP_REGULAR_EXPRESSION",
]);
// What each gtest executable's tests must carry.
const rules = {
  refract_gpu_tests: { RUN_SERIAL: true, TIMEOUT: 600 },
  refract_gpu_verify_tests: { TIMEOUT: 600 },
  refract_e2e_tests: { TIMEOUT: 600 },
};
const seen = Object.fromEntries(Object.keys(rules).map((name) => [name, 0]));
const problems = [];
for (const test of JSON.parse(listed.stdout).tests) {
  const properties = Object.fromEntries((test.properties ?? []).map((p) => [p.name, p.value]));
  for (const name of Object.keys(properties)) {
    if (!knownProperties.has(name)) problems.push(`${test.name}: unexpected property ${name}`);
  }
  const executable = basename(test.command?.[0] ?? "");
  const rule = rules[executable];
  if (rule === undefined) continue;
  seen[executable] += 1;
  for (const [name, value] of Object.entries(rule)) {
    if (properties[name] !== value) {
      problems.push(`${test.name}: ${name} is ${properties[name]}, not ${value}`);
    }
  }
}
for (const [executable, count] of Object.entries(seen)) {
  if (count === 0) problems.push(`no test of ${executable} is listed`);
}
if (problems.length > 0) {
  console.error(problems.slice(0, 20).join("\n"));
  process.exit(1);
}
console.log(`test plan holds: ${JSON.stringify(seen)}`);
