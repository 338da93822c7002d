#!/usr/bin/env bash
# The harness's experiments (experiments/harness/README.md), on the GPU machine from the
# repository root: experiments/harness/run.sh STEP...
# Steps: write-variants (write-linear's kernel variants), fma-variants (the f32 FMA rows with
# longer loop trips; needs build/release/generated/kernels), ab-quick (the quick preset by
# refract-before, a binary of an earlier commit beside refract, then by refract), idle-probe
# (does a GPU left idle before a timing read slow?), sweep-phases (where a sweep configuration's
# seconds go), gemm-small-configs (the f32 GEMM's tiles at the 50-token prefill shapes).
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"

# A variant of write-linear's kernel with four stores a loop trip (the same element-to-thread
# mapping, so the same check passes).
write_unrolled() {
  local dir
  dir=$(mktemp -d)
  sed -e 's|  for (var i = gid.x; i < params.count; i += stride) {|  var i = gid.x;\n  for (; i + 3u * stride < params.count; i += 4u * stride) {\n    data[i] = value;\n    data[i + stride] = value;\n    data[i + 2u * stride] = value;\n    data[i + 3u * stride] = value;\n  }\n  for (; i < params.count; i += stride) {|' \
    src/kernels/ceil_write_linear.wgsl >"$dir/ceil_write_linear.wgsl"
  REFRACT_KERNEL_DIR=$dir "$refract" ceilings --filter write-linear --no-live --seed 1 "$@"
}

# The f32 FMA rows with T iterations a loop trip instead of 8 (less loop control a step).
fma_trips() {
  local trip=$1 dir kernel
  shift
  dir=$(mktemp -d)
  for kernel in ceil_f32_fma_wide ceil_f32_fma_scalar; do
    sed -e "s/trip + 8u >/trip + ${trip}u >/; s/u < 8u;/u < ${trip}u;/; s/trip += 8u;/trip += ${trip}u;/" \
      "build/release/generated/kernels/$kernel.wgsl" >"$dir/$kernel.wgsl"
  done
  REFRACT_KERNEL_DIR=$dir "$refract" ceilings --filter f32-fma-wide,f32-fma-scalar --no-live \
    --seed 1 "$@"
}

for what in "$@"; do
  case $what in
    write-variants)
      step write-1gib "$refract" ceilings --filter write-linear,read-linear --no-live --seed 1
      step write-4gib "$refract" ceilings --filter write-linear,read-linear --no-live --seed 1 \
        --buffer-mib 4000
      step write-unrolled write_unrolled
      ;;
    fma-variants)
      step fma-8 "$refract" ceilings --filter f32-fma-wide,f32-fma-scalar --no-live --seed 1
      step fma-16 fma_trips 16
      step fma-32 fma_trips 32
      ;;
    ab-quick)  # issue 14: the quick preset by the binary before the ops (refract-before) and now
      step quick-before "$(dirname "$refract")/refract-before" kernels --preset quick --seed 1 \
        --no-live --json "$out/kernels-quick-before.json"
      step quick-after "$refract" kernels --preset quick --seed 1 --no-live \
        --json "$out/kernels-quick-after.json"
      ;;
    idle-probe)  # does a GPU left idle before a configuration's timing read slow? The small-M
      # matmul problem's default and three grid rows, after REFRACT_INJECT_IDLE_MS of idle, with
      # the sweep's 20 ms warm-up and longer ones
      probe_filter="matmul-f32/m128-n2048-k512/default,matmul-f32/m128-n2048-k512/seed,matmul-f32/m128-n2048-k512/bk=8?bm=32?bn=32?split_k=4*,q4-gemv/qwen2.5-0.5b/q+o/m1/tuned/default"
      for idle in 0 500; do
        for warm in ${IDLE_WARMUPS:-20 100 300}; do
          step "idle $idle warm-up $warm" env REFRACT_INJECT_IDLE_MS=$idle "$refract" sweep \
            --sweep matmul-f32,q4-gemv --seed 1 --cold-mib 256 --warmup-ms "$warm" \
            --journal "$out/idle.journal" --filter "$probe_filter" \
            --json "$out/idle-$idle-warm-$warm.json"
          rm -f "$out/idle.journal"
        done
      done
      ;;
    sweep-phases)  # where a sweep's seconds go: REFRACT_TRACE_PHASES on a few configurations
      step sweep-phases env REFRACT_TRACE_PHASES=1 "$refract" sweep --sweep matmul-f32,q4-gemv \
        --seed 1 --cold-mib 256 --journal "$out/phases.journal" \
        --filter "${PHASE_FILTER:-matmul-f32/m128-n2048-k512/bk=8?bm=32?bn=32*,matmul-f32/m4096-n4096-k4096/bk=16?bm=64?bn=64*,q4-gemv/qwen2.5-0.5b/lm-head/m1/tuned-q8/rows=1?tpr=8*,q4-gemv/qwen2.5-0.5b/down/m1/tuned/rows=1?tpr=8*}" \
        --json "$out/sweep-phases.json"
      ;;
    gemm-small-configs)  # the f32 GEMM's tiles at the 50-token prefill shapes
      for config in "bm=32 bn=32 tm=4 tn=4" "bm=16 bn=64 tm=4 tn=4" "bm=64 bn=64 tm=4 tn=4"; do
        sets=()
        for pair in $config; do sets+=(--set "$pair"); done
        step "gemm $config" "$refract" kernels --kernel matmul-f32 --phase prefill \
          --variant tuned --ceilings "${CEILINGS:-docs/results/h200-ceilings-full.json}" \
          --no-live --seed 1 --max-rounds 3 --idle-gap-ms 10 "${sets[@]}"
      done
      ;;
    *) echo "unknown step $what" | tee -a "$log" ;;
  esac
done
