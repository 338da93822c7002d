#!/usr/bin/env bash
# The installed package as another project uses it: `cmake --install` of this build into a
# scratch prefix, then, configured out of tree with find_package(refract) and built,
#  - examples/profile_lookup on the shared test vectors' store (its answers as the vectors say);
#  - examples/q4_gemv on lavapipe with a store `refract sweep` writes for this adapter: the
#    profile's winner runs and is verified (exact shape, and a nearest one with K not a multiple
#    of 32); a planted wrong kernel makes the entry stale and is caught (exit 1); a file that is
#    no store, a size that is no number or too large are refused (exit 2).
#   find_package_test.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR REFRACT_BINARY [EXTRA_CXX_FLAGS]
set -euo pipefail
build=$1 source=$2 scratch=$3 refract=$4 flags=${5:-}
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
test -f "$scratch/prefix/include/refract/profile.h"
for example in profile_lookup q4_gemv; do
  cmake -S "$source/examples/$example" -B "$scratch/$example" -G Ninja \
    -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
  cmake --build "$scratch/$example" >/dev/null
done

# profile_lookup: no GPU, the shared vectors' answers.
lookup=$scratch/profile_lookup/profile_lookup
node -e '
  const v = require(process.argv[1]);
  require("fs").writeFileSync(process.argv[2], JSON.stringify(v.stores["two-adapters"]));
' "$source/tests/data/profile_vectors.json" "$scratch/vectors.json"
key=$(node -e 'console.log(require(process.argv[1]).stores["two-adapters"].profiles[0].adapter.key)' \
  "$source/tests/data/profile_vectors.json")
out=$("$lookup" "$scratch/vectors.json" "$key" 1024 1024)
echo "$out"
grep -q "^nearest: nearest swept shape: qwen2.5-0.5b/q+o/m1/tuned-q8" <<<"$out"
grep -q "^  wg = 256$" <<<"$out"
out=$("$lookup" "$scratch/vectors.json" "$key" 896 896 bun-webgpu-linux-x64@9)
grep -q "^built-in default: every entry of matmul-q4 tuned-q8 is stale" <<<"$out"
# Files that are no store, or no file: each refused (exit 2, a ProfileError), none hangs (a named
# pipe is never opened) nor aborts (a number past a double is a ProfileError too); sizes that
# are no positive numbers refused.
mkfifo "$scratch/pipe"
mkdir "$scratch/folder"
node -e '
  const fs = require("fs");
  const text = JSON.stringify(require(process.argv[1]).stores["two-adapters"]);
  fs.writeFileSync(process.argv[2], text.replace("\"median_ms\":0.0032,", "\"median_ms\":1e400,"));
' "$source/tests/data/profile_vectors.json" "$scratch/huge.json"
grep -q '1e400' "$scratch/huge.json"
for args in "$source/README.md any 1 1" "$scratch/pipe any 1 1" "$scratch/folder any 1 1" \
            "/dev/zero any 1 1" "$scratch/huge.json any 1 1" "$scratch/vectors.json any x 1" \
            "$scratch/vectors.json any 1 -5" "$scratch/vectors.json any 1 nan"; do
  status=0
  # shellcheck disable=SC2086  # the words are the arguments
  timeout 60 "$lookup" $args 2>/dev/null || status=$?
  test "$status" -eq 2 || { echo "profile_lookup $args: exit $status, not 2" >&2; exit 1; }
done

# q4_gemv: a store of this adapter's q+o problem (a short sweep: its timings need not be good,
# only real), then the kernel run through Dawn with the entry's configuration. The Vulkan
# driver's allocations outlive the example, so LeakSanitizer is off for it alone.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
gemv=$scratch/q4_gemv/q4_gemv
store=$scratch/store.json
"$refract" sweep --sweep q4-gemv --quick --filter 'q4-gemv/qwen2.5-0.5b/q+o/m1/tuned-q8/*' \
  --samples 3 --warmup-ms 0 --pass-ms 0.5 --profile "$store" --journal "$scratch/sweep.journal" \
  >/dev/null
winner=$(node -e '
  const e = require(process.argv[1]).profiles[0].entries[0].winner.params;
  console.log(`  wg ${e.wg}, tpr ${e.tpr}, rows ${e.rows}, subgroups ${e.subgroups}`);
' "$store")
out=$("$gemv" "$store" 896 896)
echo "$out"
grep -q "^configuration: profile, exact: swept at qwen2.5-0.5b/q+o/m1/tuned-q8" <<<"$out"
grep -qxF "$winner" <<<"$out"
grep -q "^quantizer: ok" <<<"$out"
grep -q "^gemv: ok (896 rows" <<<"$out"
out=$("$gemv" "$store" 1000 1001)
grep -q "^configuration: profile, nearest: nearest swept shape: qwen2.5-0.5b/q+o/m1/tuned-q8" <<<"$out"
grep -qxF "$winner" <<<"$out"
grep -q "^gemv: ok (1000 rows" <<<"$out"

# A planted wrong kernel (the zero point's term dropped): the entry no longer matches the files,
# the built-in default runs on them, and the check catches the wrong answer.
cp -r "$scratch/prefix/share/refract/kernels" "$scratch/wrong_kernels"
sed -i 's/ - 8i \* i32(ds.y)//' "$scratch/wrong_kernels/llm_matmul_q4_tuned_gemv_q8.wgsl"
! grep -q "ds.y" "$scratch/wrong_kernels/llm_matmul_q4_tuned_gemv_q8.wgsl"
status=0
out=$("$gemv" "$store" 896 896 "$scratch/wrong_kernels") || status=$?
echo "$out"
test "$status" -eq 1
grep -q "^configuration: built-in default: qwen2.5-0.5b/q+o/m1/tuned-q8 is stale here: the kernel source changed" <<<"$out"
grep -q "^gemv: WRONG: row" <<<"$out"
for args in "$source/README.md 896 896" "$store 12x 5" "$store 1048576 65536"; do
  status=0
  # shellcheck disable=SC2086  # the words are the arguments
  "$gemv" $args 2>/dev/null || status=$?
  test "$status" -eq 2 || { echo "q4_gemv $args: exit $status, not 2" >&2; exit 1; }
done
echo "find_package(refract) examples: ok"
