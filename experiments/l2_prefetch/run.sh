#!/usr/bin/env bash
# Attention's merge by head prefetching the fused gate/up GEMV's weights into the L2
# (experiments/l2_prefetch/README.md), on the GPU machine from the repository root, with refract-x
# (refract built with prefetch.patch) in REFRACT_DIR: experiments/l2_prefetch/run.sh prefetch.
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
    *) echo "unknown step $what" >&2; exit 2 ;;
  esac
done
