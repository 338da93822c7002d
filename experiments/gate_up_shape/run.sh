#!/usr/bin/env bash
# The fused gate/up + down at other workgroup shapes against its default, on the GPU machine from
# the repository root (experiments/gate_up_shape/README.md):
#   experiments/gate_up_shape/run.sh DIR
# alternates, three times, `decode` at S = 1024 of the refract in REFRACT_DIR with the build DIR
# (refract built here with env_config.patch applied, Dawn beside it) run with
# REFRACT_EXP_GATE_UP=wg,tpr,rows,batch for each shape below, then Llama-3.2-1B each once. Every
# run is verified against the CPU model before it is timed, as any decode row is.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
variant_dir=$1
# wg,tpr,rows,batch: invocations a workgroup, lanes a row, rows a row group, K blocks a trip.
# Qwen2.5-0.5B (9,728 gate/up rows, 28 K blocks): the default 76 workgroups of 512; 76 of 1024;
# 152 of 512, of 256, of 1024; 76 of 256 in two trips; 38 of 1024.
shapes=(512,8,2,4 1024,16,2,2 512,16,2,2 256,8,2,4 1024,32,2,1 256,4,2,4 1024,8,2,4)

for round in 1 2 3; do
  decode_at_1024 "main-$round" qwen2.5-0.5b "$refract"
  for shape in "${shapes[@]}"; do
    decode_at_1024 "shape-${shape//,/-}-$round" qwen2.5-0.5b env REFRACT_EXP_GATE_UP="$shape" \
      "$variant_dir/refract"
  done
done
decode_at_1024 llama-main llama-3.2-1b "$refract"
for shape in "${shapes[@]}"; do
  decode_at_1024 "llama-shape-${shape//,/-}" llama-3.2-1b env REFRACT_EXP_GATE_UP="$shape" \
    "$variant_dir/refract"
done
