#!/usr/bin/env bash
# What summing the o projection's shares costs the fused gate/up + down, and what adding them up
# in merge-o-heads with integer atomics would cost instead; on the GPU machine from the repository
# root (experiments/o_shares/README.md):
#   experiments/o_shares/run.sh DIR
# alternates, three times, `decode` at S = 1024 of the refract in REFRACT_DIR (main), of the build
# DIR (refract built here with probe.patch applied, Dawn beside it) as it is (probe), reading
# only share 0 (one-share) and with merge-o-heads adding every group into share 0 (atomic-o). The last two compute wrong logits: they run with REFRACT_DIAG_UNVERIFIED, and
# their times are probes, never results.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
variant_dir=$1

# merge-o-heads with its store an atomicAdd of round(value · 2^20) into share 0 (read by
# REFRACT_KERNEL_DIR); the recipe fails, logged, where the kernel no longer has a line it changes.
atomic_dir=$(mktemp -d)
sed -e 's|var<storage, read_write> out: array<f32>;|var<storage, read_write> out: array<atomic<i32>>;|' \
  -e 's|      out\[group \* N_ROWS + row\] = acc;|      atomicAdd(\&out[row], i32(round(acc * 1048576.0)));|' \
  src/kernels/decode_merge_o_heads.wgsl >"$atomic_dir/decode_merge_o_heads.wgsl"
if [[ $(grep -c 'atomic' "$atomic_dir/decode_merge_o_heads.wgsl") -ne 2 ]]; then
  echo "o_shares: decode_merge_o_heads.wgsl no longer has the lines the recipe changes" | tee -a "$log"
  exit 1
fi

for round in 1 2 3; do
  decode_at_1024 "main-$round" qwen2.5-0.5b "$refract"
  decode_at_1024 "probe-$round" qwen2.5-0.5b "$variant_dir/refract"
  decode_at_1024 "one-share-unverified-$round" qwen2.5-0.5b env REFRACT_PROBE_ONE_SHARE=1 \
    REFRACT_DIAG_UNVERIFIED=1 "$variant_dir/refract"
  decode_at_1024 "atomic-o-unverified-$round" qwen2.5-0.5b env REFRACT_PROBE_ONE_SHARE=1 \
    REFRACT_DIAG_UNVERIFIED=1 REFRACT_KERNEL_DIR="$atomic_dir" "$variant_dir/refract"
done
