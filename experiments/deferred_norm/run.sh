#!/usr/bin/env bash
# The fused q8 GEMVs' input with RMSNorm's scale deferred (deferred_norm.patch) against main's,
# on the GPU machine from the repository root:
#   experiments/deferred_norm/run.sh
# Alternates, three times, `decode` at S = 1024 of the refract in REFRACT_DIR with its embedded
# kernels (main) and with the patch's kernels through REFRACT_KERNEL_DIR, Qwen2.5-0.5B and
# Llama-3.2-1B, every run verified. A patch that no longer applies to the committed kernels
# stops it, logged. Needs GNU patch.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
here=experiments/deferred_norm
dir=$(mktemp -d)
for file in decode_add_norm_part decode_norm_total_subgroup_part \
  decode_norm_total_workgroup_part decode_gemv_norm_input_part; do
  cp "src/kernels/$file.wgsl" "$dir/"
done
if ! patch -s -F0 -d "$dir" -p3 <"$here/deferred_norm.patch"; then
  echo "deferred_norm: the patch does not apply to the committed kernels" | tee -a "$log" >&2
  exit 1
fi
for round in 1 2 3; do
  for model in qwen2.5-0.5b llama-3.2-1b; do
    decode_at_1024 "$model-main-$round" "$model" "$refract"
    decode_at_1024 "$model-deferred-$round" "$model" env REFRACT_KERNEL_DIR="$dir" "$refract"
  done
done
