#!/usr/bin/env bash
# The gate/up GEMV ending in the down projection (refract decode --fusion down) against the default
# step, on the GPU machine from the repository root (experiments/fusion_down/README.md):
#   experiments/fusion_down/run.sh [NAME=DIR ...]
# alternates, three times, `decode --fusion on` and `--fusion down` of the refract in REFRACT_DIR
# with `--fusion down` of each variant build DIR (refract built here with one of this folder's
# patches applied, Dawn beside it), then Llama-3.2-1B with each once.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"

decode() {
  local name=$1 binary=$2 model=$3 fusion=$4
  step "$name" "$binary" decode --model "$model" --context 1024 --seed 1 --fusion "$fusion" \
    --no-live --json "$out/$name.json"
}

for round in 1 2 3; do
  decode "qwen-on-$round" "$refract" qwen2.5-0.5b on
  decode "qwen-down-$round" "$refract" qwen2.5-0.5b down
  for variant in "$@"; do
    decode "qwen-${variant%%=*}-$round" "${variant#*=}/refract" qwen2.5-0.5b down
  done
done
decode llama-on "$refract" llama-3.2-1b on
decode llama-down "$refract" llama-3.2-1b down
for variant in "$@"; do
  decode "llama-${variant%%=*}" "${variant#*=}/refract" llama-3.2-1b down
done
