#!/usr/bin/env bash
# The decode step with its weights in the L2 against the step as it is, on the GPU machine from
# the repository root (experiments/shared_weights/README.md):
#   experiments/shared_weights/run.sh DIR
# alternates, three times, `decode` at S = 1024 of the refract in REFRACT_DIR with the build DIR
# (refract built here with shared_weights.patch applied, Dawn beside it) run with
# REFRACT_EXPERIMENT_HOT=all (every layer the weights of layer 0) and =mlp (its gate/up and down
# only); then the kernels suite's rows of the step's kinds, their inputs rotated past the L2 and
# kept in it (--cold-mib 1).
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
variant_dir=$1

for round in 1 2 3; do
  decode_at_1024 "main-$round" qwen2.5-0.5b "$refract"
  decode_at_1024 "hot-all-$round" qwen2.5-0.5b env REFRACT_EXPERIMENT_HOT=all \
    "$variant_dir/refract"
  decode_at_1024 "hot-mlp-$round" qwen2.5-0.5b env REFRACT_EXPERIMENT_HOT=mlp \
    "$variant_dir/refract"
done
rows='gate-up-silu/*/tuned,qkv-rope/*/tuned,merge-o-heads/*/tuned'
rows+=',matmul-q4/*/down/m1/tuned-q8,matmul-q4/*/gate+up/m1/tuned-q8'
step kernels-cold "$refract" kernels --phase decode --preset quick --filter "$rows" --seed 1 \
  --no-live --json "$out/kernels-cold.json"
step kernels-hot "$refract" kernels --phase decode --preset quick --filter "$rows" --seed 1 \
  --cold-mib 1 --no-live --json "$out/kernels-hot.json"
