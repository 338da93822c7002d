#!/usr/bin/env bash
# The decode step's dispatches as reads alone (experiments/null_step/README.md), on the GPU
# machine from the repository root: experiments/null_step/run.sh cold|warm.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
here=experiments/null_step

stream() {
  local name=$1
  shift
  step "$name" "$refract" tune "$here/cold_stream.wgsl" --spec "$here/cold_stream.json" \
    --no-live --timeout-s 30 --journal "$out/$name.journal" --json "$out/$name.json" "$@"
}

for what in "$@"; do
  case $what in
    cold) stream cold_stream ;;  # inputs rotated past the L2, as the kernels suite's rows
    # One copy of each input, left in the L2 by the dispatch before (the LM head's 86 MB cannot
    # be), on the quick grid.
    warm) stream warm_stream --cold-mib 1 --quick --filter 'tune:cold-stream/[!l]*' ;;
    *) echo "unknown step $what" >&2; exit 2 ;;
  esac
done
