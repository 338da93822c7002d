#!/usr/bin/env bash
# The profile library as another project uses it: `cmake --install` of this build into a
# scratch prefix, examples/profile_lookup configured out of tree with find_package(refract),
# built, and run on the shared test vectors' store (its answers as the vectors say).
#   find_package_test.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR [EXTRA_CXX_FLAGS]
set -euo pipefail
build=$1 source=$2 scratch=$3 flags=${4:-}
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
test -f "$scratch/prefix/include/refract/profile.h"
cmake -S "$source/examples/profile_lookup" -B "$scratch/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$scratch/build" >/dev/null
node -e '
  const v = require(process.argv[1]);
  require("fs").writeFileSync(process.argv[2], JSON.stringify(v.stores["two-adapters"]));
' "$source/tests/data/profile_vectors.json" "$scratch/store.json"
key=$(node -e 'console.log(require(process.argv[1]).stores["two-adapters"].profiles[0].adapter.key)' \
  "$source/tests/data/profile_vectors.json")
out=$("$scratch/build/profile_lookup" "$scratch/store.json" "$key" 1024 1024)
echo "$out"
grep -q "^nearest: nearest swept shape: qwen2.5-0.5b/q+o/m1/tuned-q8" <<<"$out"
grep -q "^  wg = 256$" <<<"$out"
out=$("$scratch/build/profile_lookup" "$scratch/store.json" "$key" 896 896 bun-webgpu-linux-x64@9)
grep -q "^built-in default: every entry of matmul-q4 tuned-q8 is stale" <<<"$out"
if "$scratch/build/profile_lookup" "$source/README.md" "$key" 1 1 2>/dev/null; then
  echo "a file that is no store was read" >&2
  exit 1
fi
echo "find_package(refract) example: ok"
