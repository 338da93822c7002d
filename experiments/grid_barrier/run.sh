#!/usr/bin/env bash
# Grid barriers against dependent dispatches (experiments/grid_barrier/README.md), on the GPU
# machine from the repository root: experiments/grid_barrier/run.sh barrier|loads.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
here=experiments/grid_barrier

tune() {
  local name=$1
  step "$name" "$refract" tune "$here/$name.wgsl" --spec "$here/$name.json" --no-live \
    --timeout-s 30 --journal "$out/$name.journal" --json "$out/$name.json"
}

for what in "$@"; do
  case $what in
    barrier) tune grid_barrier ;;       # the chain alone: P steps, P - 1 barriers, G workgroups
    loads) tune grid_barrier_loads ;;   # each step also sums a cold 16 KB slice a workgroup
    *) echo "unknown step $what" >&2; exit 2 ;;
  esac
done
