#!/usr/bin/env bash
# Down's weights loaded before the fused gate/up + down's silu and quantizer (main since
# a60b3ce) against loaded after its barrier (late_loads.patch, the kernel before), and the q/k/v
# GEMV's bias and RoPE frequencies loaded before its GEMV (qkv_early.patch); on the GPU machine
# from the repository root (experiments/down_early/README.md):
#   experiments/down_early/run.sh
# Alternates, three times, `decode` at S = 1024 of the refract in REFRACT_DIR with its embedded
# kernels (main), with the kernel of late_loads.patch and with the kernels of qkv_early.patch,
# each through REFRACT_KERNEL_DIR, every run verified; then Llama-3.2-1B with each once. A patch
# that no longer applies to the committed kernels fails, logged.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
here=experiments/down_early

# variant PATCH FILE...: the committed kernels FILE... with PATCH applied, in a fresh folder
# whose path it prints.
variant() {
  local patch=$1 dir file
  shift
  dir=$(mktemp -d)
  for file in "$@"; do cp "src/kernels/$file.wgsl" "$dir/"; done
  if ! patch -s -F0 -d "$dir" -p3 <"$patch" >&2; then
    echo "down_early: $patch does not apply to the committed kernels" | tee -a "$log" >&2
    exit 1
  fi
  echo "$dir"
}

late=$(variant "$here/late_loads.patch" decode_gate_up_down_store_part) || exit 1
qkv=$(variant "$here/qkv_early.patch" llm_matmul_q4_tuned_gemv_q8 decode_qkv_rope_store_part \
  decode_head_argmax_store_part llm_gemv_q8_store_part decode_gate_up_silu_store_part \
  decode_gate_up_down_store_part) || exit 1
for round in 1 2 3; do
  decode_at_1024 "main-$round" qwen2.5-0.5b "$refract"
  decode_at_1024 "late-$round" qwen2.5-0.5b env REFRACT_KERNEL_DIR="$late" "$refract"
  decode_at_1024 "qkv-early-$round" qwen2.5-0.5b env REFRACT_KERNEL_DIR="$qkv" "$refract"
done
decode_at_1024 llama-main llama-3.2-1b "$refract"
decode_at_1024 llama-late llama-3.2-1b env REFRACT_KERNEL_DIR="$late" "$refract"
decode_at_1024 llama-qkv-early llama-3.2-1b env REFRACT_KERNEL_DIR="$qkv" "$refract"
