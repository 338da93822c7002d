#!/usr/bin/env bash
# Attention's merge by head prefetching the fused gate/up GEMV's weights into the L2
# (experiments/l2_prefetch/README.md), on the GPU machine from the repository root, with refract-x
# (refract built with prefetch.patch) in REFRACT_DIR: experiments/l2_prefetch/run.sh prefetch|partial|gate-up.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
x=${REFRACT_DIR:-build/release}/refract-x

run() {
  local name=$1
  shift
  step "$name" env "$@" "$x" decode --model qwen2.5-0.5b --context 1024 --seed 1 --no-live \
    --json "$out/$name.json"
}

for what in "$@"; do
  case $what in
    prefetch)  # the step without and with the prefetch, alternated three times
      for i in 1 2 3; do
        run "base-$i" REFRACT_X_NONE=1
        run "pf-$i" REFRACT_X_PREFETCH=100
      done
      ;;
    partial)  # a fraction of gate/up's weights, or the down GEMV's, alternated with none, three times
      for i in 1 2 3; do
        run "base-$i" REFRACT_X_NONE=1
        run "pf25-$i" REFRACT_X_PREFETCH=25
        run "pf50-$i" REFRACT_X_PREFETCH=50
        run "pf100-$i" REFRACT_X_PREFETCH=100
        run "down-$i" REFRACT_X_PREFETCH=100 REFRACT_X_PREFETCH_DOWN=1
      done
      ;;
    gate-up)  # refract-x of gate_up_carries.patch: the gate/up GEMV's extra workgroups bring the
      # down GEMV's weight codes into the L2 (P %, L loads an invocation), alternated with none
      for i in 1 2 3; do
        run "base-$i" REFRACT_X_NONE=1
        run "gu100l2-$i" REFRACT_X_GU_PREFETCH=100 REFRACT_X_LOADS=2
        run "gu100l4-$i" REFRACT_X_GU_PREFETCH=100 REFRACT_X_LOADS=4
        run "gu100l8-$i" REFRACT_X_GU_PREFETCH=100 REFRACT_X_LOADS=8
        run "gu50l4-$i" REFRACT_X_GU_PREFETCH=50 REFRACT_X_LOADS=4
      done
      ;;
    *) echo "unknown step $what" >&2; exit 2 ;;
  esac
done
