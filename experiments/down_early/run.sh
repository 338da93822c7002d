#!/usr/bin/env bash
# The fused gate/up + down with down's weights loaded before its silu and quantizer (main since
# 9db7678) against the variants of experiments/down_early/README.md, each a patch against main's
# kernels; on the GPU machine from the repository root:
#   experiments/down_early/run.sh
# Alternates, three times, `decode` at S = 1024 of the refract in REFRACT_DIR with its embedded
# kernels (main) and with each patch's kernels through REFRACT_KERNEL_DIR, every run verified;
# then Llama-3.2-1B with each once. A patch that no longer applies to the committed kernels stops
# it, logged. Needs GNU patch.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
here=experiments/down_early
gate_up_down=decode_gate_up_down_store_part

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

declare -A dirs
for name in late_loads rewrite rewrite_use_loop probe_e2; do
  dirs[$name]=$(variant "$here/$name.patch" "$gate_up_down") || exit 1
done
dirs[qkv_early]=$(variant "$here/qkv_early.patch" llm_matmul_q4_tuned_gemv_q8 \
  decode_qkv_rope_store_part decode_head_argmax_store_part llm_gemv_q8_store_part \
  decode_gate_up_silu_store_part "$gate_up_down") || exit 1
names=(late_loads rewrite rewrite_use_loop probe_e2 qkv_early)
for round in 1 2 3; do
  decode_at_1024 "main-$round" qwen2.5-0.5b "$refract"
  for name in "${names[@]}"; do
    decode_at_1024 "$name-$round" qwen2.5-0.5b env REFRACT_KERNEL_DIR="${dirs[$name]}" "$refract"
  done
done
decode_at_1024 llama-main llama-3.2-1b "$refract"
for name in "${names[@]}"; do
  decode_at_1024 "llama-$name" llama-3.2-1b env REFRACT_KERNEL_DIR="${dirs[$name]}" "$refract"
done
