#!/usr/bin/env bash
# The decode step's dispatches as reads alone (experiments/null_step/README.md), on the GPU
# machine from the repository root: experiments/null_step/run.sh cold|warm|kernels.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
here=experiments/null_step

stream() {
  local name=$1
  shift
  step "$name" "$refract" tune "$here/cold_stream.wgsl" --spec "$here/cold_stream.json" \
    --no-live --timeout-s 30 --journal "$out/$name.journal" --json "$out/$name.json" "$@"
}

# The kernels suite's rows of the step's dispatches at Qwen2.5-0.5B's shapes, S = 1024.
step_rows='matmul-q4/qwen2.5-0.5b/*/m1/tuned-q8,qkv-rope/qwen2.5-0.5b/t1/tuned'
step_rows+=',gate-up-silu/qwen2.5-0.5b/t1/tuned,merge-o-heads/qwen2.5-0.5b/decode/s1024/tuned'
step_rows+=',lm-head-argmax/qwen2.5-0.5b/t1/tuned'

for what in "$@"; do
  case $what in
    cold) stream cold_stream ;;  # inputs rotated past the L2, as the kernels suite's rows
    # One copy of each input, left in the L2 by the dispatch before (the LM head's 86 MB cannot
    # be), on the quick grid.
    warm) stream warm_stream --cold-mib 1 --quick --filter 'tune:cold-stream/[!l]*' ;;
    kernels)  # the step's rows cold, then warm (one copy left in the L2), alternated twice
      for round in 1 2; do
        step "step-kernels-cold-$round" "$refract" kernels --filter "$step_rows" --no-live \
          --json "$out/step-kernels-cold-$round.json"
        step "step-kernels-warm-$round" "$refract" kernels --filter "$step_rows" --cold-mib 1 \
          --no-live --json "$out/step-kernels-warm-$round.json"
      done ;;
    *) echo "unknown step $what" >&2; exit 2 ;;
  esac
done
