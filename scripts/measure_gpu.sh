#!/usr/bin/env bash
# Runs refract's measurements on a GPU machine that has the NVIDIA driver but no Vulkan loader
# (the H200 of docs/MEASURING.md), from the repository root, with build/release and the .gl
# folder of loader packages beside it. Writes JSON results and a log to OUT_DIR (default out/).
#   scripts/measure_gpu.sh STEP...
# Steps: info, ceilings (the full catalog), kernels-qwen, kernels-gemma (every kernel row of the
# model), kernels-quick, peers (PyTorch's peers: scripts/peers_torch.py), write-variants (the
# write-linear kernel variants of docs/MEASURING.md), fma-variants (the f32 FMA rows with longer
# loop trips; needs build/release/generated/kernels), ab-quick (the quick preset by
# refract-before, a binary of an earlier commit beside refract, then by refract), decode-rows
# and decode-variants (the q4 GEMVs, decode attention and the M = 50 matmuls, then the
# configurations tried), attention-v5 (decode attention against its previous kernel), sweeps,
# sweeps-resume and sweeps-quick (refract sweep: the seven full sweeps, on from their journal,
# the quick ones; COLD_MIB, SWEEP_BUDGET_MIN, JOURNAL, PROFILE: the store the winners go into),
# kernels-quick-profile (the quick preset run with PROFILE's winners), q8-variants (the q4 GEMV on
# int8 activations: batch and axis variants against its default), breakdown (decode attention
# whole and each of its dispatches alone, softmax decode), sweep-phases (a few configurations of
# two sweeps with REFRACT_TRACE_PHASES: where a configuration's seconds go), issue16-final (the
# figures issue 16 asks for, in one run), q8-batch (the q8 GEMV's batch, tpr and wg), q8-scalar
# (the q8 GEMV with scalars for arrays, docs/results/variants/), q8-stagger (the q8 GEMV's trips
# staggered by row group), q8-uniform (its uniform trip loop, with and without the stagger), q8-axes (the committed q8 GEMV's batch, tpr and wg), q8-batch-ab
# (its batch 2 against 4, interleaved, at M = 1 and 8), q8-consecutive (a lane's blocks of a trip
# adjacent), floors (empty dispatches and the decode rows with their inputs warm in the L2),
# attention-subgroup-split (decode attention with docs/results/variants/subgroup_split's split),
# attention-register-split (decode attention with docs/results/variants/register_split's split),
# decode-diagnostics (decode attention's split and the q8 GEMV against skeletons of them: needs
# refract-diag), attention-keys (decode attention's keys a split against the rule's), q8-parts
# (the q8 GEMV at k+v and q+o against its grid alone, its reduction, one load, and shorter
# reductions: needs refract-diag), q8-one-trip (the q8 GEMV's one-trip path at k+v and q+o),
# peers-graphs (Dawn's and CUDA's kernels in chains of dependent launches: the floor, tinygemm,
# SDPA decode), vk-floor (the dependent dispatch straight in Vulkan against Dawn's and CUDA's:
# docs/results/variants/vk_floor).
# REFRACT_DIR (default build/release) holds refract and Dawn. Each step's failure is logged; the
# others still run. STEP_TIMEOUT=S interrupts a step after S seconds with SIGINT (refract then writes
# the rows it finished and marks the others skipped).
set -u
cd "$(dirname "$0")/.."
out=${OUT_DIR:-${OUT:-out}}
mkdir -p "$out"
log="$out/log.txt"

if [[ -d .gl ]] && ! ldconfig -p | grep -q libvulkan.so.1; then
  for deb in .gl/*.deb; do dpkg -x "$deb" /; done
  ldconfig
fi
if [[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
refract=${REFRACT_DIR:-build/release}/refract

step() {
  local name=$1
  shift
  echo "=== $name: $* ($(date -u +%T))" | tee -a "$log"
  local start=$SECONDS
  if [[ -n ${STEP_TIMEOUT:-} ]]; then
    timeout -s INT -k 60 "$STEP_TIMEOUT" "$@" >>"$log" 2>&1
  else
    "$@" >>"$log" 2>&1
  fi
  echo "=== $name: exit $? after $((SECONDS - start)) s" | tee -a "$log"
}

# A folder for REFRACT_KERNEL_DIR holding the committed q8 GEMV with each row group starting its
# trips at trip (its index mod trips), so that the groups in flight read different offsets of
# their rows (the stagger; its blocks a lane and their spacing from --set batch, adjacent). Fails
# (logged) where the kernel no longer has the line the change needs, so no step times the
# unchanged kernel by mistake.
q8_stagger_dir() {
  local dir kernel
  dir=$(mktemp -d)
  kernel="$dir/llm_matmul_q4_tuned_gemv_q8.wgsl"
  sed -e 's|^    let kb0 = trip \* TPR \* K_BATCH + lane_first;|    let kb0 = ((trip + row0 / ROWS) % trips) * TPR * K_BATCH + lane_first;|' \
    src/kernels/llm_matmul_q4_tuned_gemv_q8.wgsl >"$kernel"
  if ! grep -qF "((trip + row0 / ROWS) % trips) * TPR * K_BATCH" "$kernel"; then
    echo "=== the q8 GEMV has no line to make its stagger variant" | tee -a "$log" >&2
    return 1
  fi
  echo "$dir"
}

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
    info) step info "$refract" info --json "$out/info.json" ;;
    ceilings) step ceilings "$refract" ceilings --preset full --seed 1 --no-live \
                --json "$out/ceilings.json" ;;
    kernels-qwen) step kernels-qwen "$refract" kernels --model qwen2.5-0.5b --seed 1 --no-live \
                    --max-rounds 5 --idle-gap-ms 20 --json "$out/kernels-qwen.json" ;;
    kernels-gemma) step kernels-gemma "$refract" kernels --model embeddinggemma2 --seed 1 \
                     --no-live --max-rounds 5 --idle-gap-ms 20 --json "$out/kernels-gemma.json" ;;
    kernels-quick) step kernels-quick "$refract" kernels --preset quick --seed 1 --no-live \
                     --json "$out/kernels-quick.json" ;;
    peers) step peers python3 scripts/peers_torch.py "$out/peers.json" ;;
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
    q4-configs)  # the q4 GEMV's configurations at the decode shapes (ceilings from a file)
      for config in "rows=4 tpr=32" "rows=1 tpr=32" "rows=2 tpr=32" "rows=1 tpr=16" \
                    "rows=2 tpr=16" "rows=4 tpr=8" "rows=8 tpr=8" "rows=2 tpr=8 wg=128"; do
        sets=()
        for pair in $config; do sets+=(--set "$pair"); done
        step "q4 $config" "$refract" kernels --kernel matmul-q4 --phase decode --variant tuned \
          --ceilings "${CEILINGS:-docs/results/h200-ceilings-full.json}" --no-live \
          --seed 1 --max-rounds 3 --idle-gap-ms 10 "${sets[@]}"
      done
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
    ab-quick)  # issue 14: the quick preset by the binary before the ops (refract-before) and now
      step quick-before "$(dirname "$refract")/refract-before" kernels --preset quick --seed 1 \
        --no-live --json "$out/kernels-quick-before.json"
      step quick-after "$refract" kernels --preset quick --seed 1 --no-live \
        --json "$out/kernels-quick-after.json"
      ;;
    decode-rows)  # issue 16: the q4 GEMVs (f32 and int8 activations), decode attention, M = 50
      step q4-decode "$refract" kernels --kernel matmul-q4 --phase decode --seed 1 --no-live \
        --json "$out/kernels-q4-decode.json"
      step attention-decode "$refract" kernels --kernel attention --phase decode --seed 1 \
        --no-live --json "$out/kernels-attention-decode.json"
      step matmul-prefill "$refract" kernels --kernel matmul-f32,matmul-q4 --phase prefill \
        --seed 1 --no-live --max-rounds 5 --json "$out/kernels-matmul-prefill.json"
      ;;
    attention-v2)  # the decode attention of b4f3218 (one load a loop trip) from REFRACT_KERNEL_DIR
      step "decode attention v2" env REFRACT_KERNEL_DIR="$(dirname "$refract")/variants-v2" \
        "$refract" kernels --kernel attention --phase decode --variant tuned --no-live --seed 1 \
        --ceilings "${CEILINGS:-$out/kernels-q4-decode.json}" --max-rounds 3 --idle-gap-ms 10
      ;;
    attention-v5)  # issue 16: decode attention with every independent load issued first (v5)
      # against the kernel before it (v4, from REFRACT_KERNEL_DIR), interleaved twice
      step "decode attention v5" "$refract" kernels --kernel attention --phase decode \
        --variant tuned --no-live --seed 1 --max-rounds 5 --idle-gap-ms 10 \
        --json "$out/attention-v5.json"
      for round in 1 2; do
        step "decode attention v4 ($round)" env REFRACT_KERNEL_DIR="$(dirname "$refract")/variants-v4" \
          "$refract" kernels --kernel attention --phase decode --variant tuned --no-live --seed 1 \
          --ceilings "$out/attention-v5.json" --max-rounds 5 --idle-gap-ms 10 \
          --json "$out/attention-v4-$round.json"
        step "decode attention v5 ($round)" "$refract" kernels --kernel attention --phase decode \
          --variant tuned --no-live --seed 1 --ceilings "$out/attention-v5.json" --max-rounds 5 \
          --idle-gap-ms 10 --json "$out/attention-v5-$round.json"
      done
      for config in "wg=128" "wg=256" "subgroups=0"; do
        step "decode attention v5 $config" "$refract" kernels --kernel attention --phase decode \
          --variant tuned --ceilings "$out/attention-v5.json" --no-live --seed 1 --max-rounds 5 \
          --idle-gap-ms 10 --set "$config" --json "$out/attention-v5-${config/=/-}.json"
      done
      # One copy of S = 4096's inputs in 1 MiB: every call waits for the previous one (the chained
      # latency a decode step pays), inputs warm in the L2.
      step "decode attention v5 chained" "$refract" kernels --kernel attention --phase decode \
        --variant tuned --ceilings "$out/attention-v5.json" --no-live --seed 1 --max-rounds 5 \
        --idle-gap-ms 10 --cold-mib 1 --json "$out/attention-v5-chained.json"
      step "softmax decode" "$refract" kernels --kernel softmax --phase decode --variant tuned \
        --ceilings "$out/attention-v5.json" --no-live --seed 1 --max-rounds 5 --idle-gap-ms 10 \
        --json "$out/softmax-decode.json"
      ;;
    decode-variants)  # issue 16: the configurations tried, ceilings from the decode-rows run
      ceilings_file=${CEILINGS:-$out/kernels-q4-decode.json}
      for config in "rows=2" "rows=4" "rows=2 tpr=16" "tpr=32"; do
        sets=()
        for pair in $config; do sets+=(--set "$pair"); done
        step "q8 $config" "$refract" kernels --kernel matmul-q4 --phase decode --variant tuned-q8 \
          --ceilings "$ceilings_file" --no-live --seed 1 --max-rounds 3 --idle-gap-ms 10 \
          "${sets[@]}"
      done
      for config in "keys=2" "wg=32" "wg=128" "wg=256"; do
        step "decode attention $config" "$refract" kernels --kernel attention --phase decode \
          --variant tuned --ceilings "$ceilings_file" --no-live --seed 1 --max-rounds 3 \
          --idle-gap-ms 10 $(printf -- '--set %s ' $config)
      done
      for config in "split_k=1" "split_k=16"; do
        step "gemm $config" "$refract" kernels --kernel matmul-f32 --phase prefill \
          --variant tuned --ceilings "$ceilings_file" --no-live --seed 1 --max-rounds 3 \
          --idle-gap-ms 10 --set "$config"
      done
      ;;
    breakdown)  # what each dispatch of decode's multi-dispatch ops costs (--time-dispatch)
      for index in whole 0 1; do
        extra=()
        [[ $index != whole ]] && extra=(--time-dispatch "$index")
        step "attention decode $index" "$refract" kernels --kernel attention --phase decode \
          --variant tuned --no-live --seed 1 --max-rounds 5 --idle-gap-ms 10 \
          --ceilings "${CEILINGS:-docs/results/h200-ceilings-full.json}" "${extra[@]}" \
          --json "$out/breakdown-attention-$index.json"
      done
      step "softmax decode" "$refract" kernels --kernel softmax --phase decode --variant tuned \
        --ceilings "${CEILINGS:-docs/results/h200-ceilings-full.json}" --no-live --seed 1 \
        --max-rounds 5 --idle-gap-ms 10 --json "$out/breakdown-softmax.json"
      ;;
    attention-probe)  # decode attention's variants (dirs under REFRACT_DIR for
      # REFRACT_KERNEL_DIR, ATTN_DIRS) and axis settings (ATTN_SETS: NAME=VALUE, several joined
      # by '+'), each whole and dispatch by dispatch
      for variant in default ${ATTN_DIRS:-} ${ATTN_SETS:-}; do
        env_dir=() sets=()
        if [[ $variant == *=* ]]; then
          IFS=+ read -ra pairs <<< "$variant"
          for pair in "${pairs[@]}"; do sets+=(--set "$pair"); done
        elif [[ $variant != default ]]; then env_dir=(REFRACT_KERNEL_DIR="$(dirname "$refract")/$variant"); fi
        for index in whole 0 1; do
          extra=()
          [[ $index != whole ]] && extra=(--time-dispatch "$index")
          step "attention $variant $index" env "${env_dir[@]}" "$refract" kernels \
            --kernel attention --phase decode --variant tuned --no-live --seed 1 --max-rounds 5 \
            --idle-gap-ms 10 --ceilings "${CEILINGS:-docs/results/h200-ceilings-full.json}" \
            "${sets[@]}" "${extra[@]}" --json "$out/probe-${variant//[=+]/-}-$index.json"
        done
      done
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
    sweeps)  # issue 17: the seven sweeps of SWEEPS.md at their full grids, one run
      step sweeps "$refract" sweep --sweep all --seed 1 --cold-mib "${COLD_MIB:-256}" \
        --journal "${JOURNAL:-$out/sweeps.journal}" --budget "${SWEEP_BUDGET_MIN:-0}" \
        --json "$out/sweeps.json" --profile "${PROFILE:-$out/profile.json}"
      ;;
    sweeps-resume)  # the same run, on from its journal (after a cut)
      step sweeps-resume "$refract" sweep --sweep all --seed 1 --cold-mib "${COLD_MIB:-256}" \
        --journal "${JOURNAL:-$out/sweeps.journal}" --budget "${SWEEP_BUDGET_MIN:-0}" --resume \
        --json "$out/sweeps.json" --profile "${PROFILE:-$out/profile.json}"
      ;;
    kernels-quick-profile)  # issue 18: the quick preset with the sweeps' profile (PROFILE)
      step kernels-quick-profile "$refract" kernels --preset quick --seed 1 --no-live \
        --profile "${PROFILE:-$out/profile.json}" --json "$out/kernels-quick-profile.json" ;;
    q8-variants)  # issue 16: the q4 GEMV on int8 activations with batch 1 and 4 (the blocks a
      # lane loads before it computes; until 2026-12-03 a constant of the kernel) and other axis
      # values, against its default, interleaved: default, variants, default again (ceilings of
      # the first run)
      q8=(kernels --kernel matmul-q4 --variant tuned-q8 --phase decode --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      for batch in ${Q8_BATCHES:-1 4}; do
        step "q8 batch $batch" "$refract" "${q8[@]}" --set "batch=$batch" \
          --ceilings "$out/q8-default.json" --json "$out/q8-batch$batch.json"
      done
      for config in "rows=2" "tpr=16" "wg=128" "wg=512" "rows=2 tpr=16" "tpr=64 wg=512"; do
        sets=()
        for pair in $config; do sets+=(--set "$pair"); done
        step "q8 $config" "$refract" "${q8[@]}" --ceilings "$out/q8-default.json" "${sets[@]}" \
          --json "$out/q8-${config//[ =]/-}.json"
      done
      step "q8 default again" "$refract" "${q8[@]}" --ceilings "$out/q8-default.json" \
        --json "$out/q8-default-again.json"
      ;;
    uniform-free)  # issue 16: the decode rows as committed (the q8 GEMV, the V-tile split and
      # the subgroup merge with their shapes as pipeline constants, no load waiting on the
      # uniform), then the same kernels reading their shapes from the uniform (REFRACT_KERNEL_DIR),
      # the q8 GEMV with one block a loop trip, and decode attention's keys and merges
      step q4-decode "$refract" kernels --kernel matmul-q4 --phase decode --seed 1 --no-live \
        --max-rounds 5 --idle-gap-ms 10 --json "$out/q4-decode.json"
      ceilings_file="$out/q4-decode.json"
      attn=(kernels --kernel attention --phase decode --variant tuned --no-live --seed 1
            --max-rounds 5 --idle-gap-ms 10 --ceilings "$ceilings_file")
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10 --ceilings "$ceilings_file")
      step attention-decode "$refract" kernels --kernel attention --phase decode --seed 1 \
        --no-live --max-rounds 5 --idle-gap-ms 10 --ceilings "$ceilings_file" \
        --json "$out/attention-decode.json"
      uniform=$(mktemp -d)
      sed -e 's/select(params.K, K_COLS, K_COLS != 0u)/params.K/' \
        -e 's/select(params.N, N_ROWS, N_ROWS != 0u)/params.N/' \
        src/kernels/llm_matmul_q4_tuned_gemv_q8.wgsl >"$uniform/llm_matmul_q4_tuned_gemv_q8.wgsl"
      sed -e 's/if (SPLIT_KEYS == 0u) {/if (true) {/' \
        -e 's/select(params.kv_heads, SPLIT_KV_HEADS, SPLIT_KV_HEADS != 0u)/params.kv_heads/' \
        src/kernels/llm_attention_decode_tile_part.wgsl \
        >"$uniform/llm_attention_decode_tile_part.wgsl"
      sed -e 's/select(params.heads, MERGE_HEADS, MERGE_HEADS != 0u)/params.heads/' \
        -e 's/select(params.splits, MERGE_SPLITS, MERGE_SPLITS != 0u)/params.splits/' \
        src/kernels/llm_attention_decode_subgroup_merge_part.wgsl \
        >"$uniform/llm_attention_decode_subgroup_merge_part.wgsl"
      step "q8 uniform" env REFRACT_KERNEL_DIR="$uniform" "$refract" "${q8[@]}" \
        --json "$out/q8-uniform.json"
      step "attention uniform" env REFRACT_KERNEL_DIR="$uniform" "$refract" "${attn[@]}" \
        --json "$out/attention-uniform.json"
      step "q8 batch 1" "$refract" "${q8[@]}" --set batch=1 --json "$out/q8-batch1.json"
      for config in ${ATTN_CONFIGS:-merge=0 keys=8 keys=16 keys=32 merge_wg=32 merge_wg=128}; do
        step "attention $config" "$refract" "${attn[@]}" --set "$config" \
          --json "$out/attention-${config//=/-}.json"
      done
      for index in 0 1; do
        step "attention dispatch $index" "$refract" "${attn[@]}" --time-dispatch "$index" \
          --json "$out/attention-dispatch-$index.json"
      done
      step "q8 again" "$refract" "${q8[@]}" --json "$out/q8-again.json"
      ;;
    issue16-final)  # issue 16's figures in one run: every q4 decode row (baseline, tuned,
      # tuned-q8 with its quantizer figure) with read-linear, decode attention (both variants,
      # then the split and the merge dispatches alone), the M = 50 matmuls, tinygemm's rows
      step q4-decode "$refract" kernels --kernel matmul-q4 --phase decode --seed 1 --no-live \
        --max-rounds 5 --idle-gap-ms 10 --json "$out/q4-decode.json"
      attn=(kernels --kernel attention --phase decode --no-live --seed 1 --max-rounds 5
            --idle-gap-ms 10 --ceilings "$out/q4-decode.json")
      step attention-decode "$refract" "${attn[@]}" --json "$out/attention-decode.json"
      for index in 0 1; do
        step "attention dispatch $index" "$refract" "${attn[@]}" --variant tuned \
          --time-dispatch "$index" --json "$out/attention-dispatch-$index.json"
      done
      step matmul-prefill "$refract" kernels --kernel matmul-f32,matmul-q4 --phase prefill \
        --seed 1 --no-live --max-rounds 5 --idle-gap-ms 10 --ceilings "$out/q4-decode.json" \
        --json "$out/matmul-prefill.json"
      step peers-tinygemm python3 scripts/peers_torch.py "$out/peers-tinygemm.json" tinygemm
      step q4-decode-again "$refract" kernels --kernel matmul-q4 --phase decode --seed 1 \
        --no-live --max-rounds 5 --idle-gap-ms 10 --variant tuned-q8 \
        --json "$out/q4-decode-again.json"
      ;;
    q8-batch)  # the q8 GEMV's loads in flight a lane (batch 1, 4) at tpr 16 and 32, and
      # its workgroup sizes, against the default run first and last (issue 16)
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      for batch in 1 4; do
        for config in "" tpr=32 tpr=16; do
          step "q8 batch $batch $config" "$refract" "${q8[@]}" --set "batch=$batch" \
            ${config:+--set "$config"} --json "$out/q8-batch$batch${config:+-${config//=/-}}.json"
        done
      done
      for config in tpr=32 tpr=16 wg=64 wg=128 wg=512; do
        step "q8 $config" "$refract" "${q8[@]}" --set "$config" \
          --json "$out/q8-${config//=/-}.json"
      done
      step "q8 default again" "$refract" "${q8[@]}" --json "$out/q8-default-again.json"
      ;;
    q8-scalar)  # the q8 GEMV with a lane's weights, scales and sum in named scalars instead of
      # arrays indexed in loops (docs/results/variants/, 2 or 4 blocks a trip), at rows 1 and
      # tpr 16 / 32, against the default run first and last (issue 16)
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      step "q8 rows=1" "$refract" "${q8[@]}" --set rows=1 --json "$out/q8-rows-1.json"
      for batch in 2 4; do
        dir=$(mktemp -d)
        sed -e "s/^const kScalarBatch = [0-9]*u;/const kScalarBatch = ${batch}u;/" \
          docs/results/variants/llm_matmul_q4_tuned_gemv_q8_scalar.wgsl \
          >"$dir/llm_matmul_q4_tuned_gemv_q8.wgsl"
        for config in "" tpr=32 tpr=16; do
          step "q8 scalar $batch $config" env REFRACT_KERNEL_DIR="$dir" "$refract" "${q8[@]}" \
            --set rows=1 ${config:+--set "$config"} \
            --json "$out/q8-scalar$batch${config:+-${config//=/-}}.json"
        done
      done
      step "q8 default again" "$refract" "${q8[@]}" --json "$out/q8-default-again.json"
      ;;
    q8-stagger)  # the q8 GEMV with each row group starting its trips at a different one
      # (q8_stagger_dir), so that the groups in flight read different offsets of their rows,
      # interleaved with the default (issue 16)
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      dir=$(q8_stagger_dir) || continue
      for batch in 2 1; do
        for config in "" tpr=32; do
          step "q8 stagger $batch $config" env REFRACT_KERNEL_DIR="$dir" "$refract" "${q8[@]}" \
            --set "batch=$batch" ${config:+--set "$config"} \
            --json "$out/q8-stagger$batch${config:+-${config//=/-}}.json"
        done
        step "q8 default after $batch" "$refract" "${q8[@]}" --json "$out/q8-default-$batch.json"
      done
      ;;
    q8-uniform)  # the q8 GEMV's uniform trip loop (a trip count every lane runs), with and
      # without the stagger, batch 2 and 1, interleaved with the default and each run twice
      # (q8_stagger_dir, issue 16). When measured (h200-q8-uniform.txt) the default was the loop
      # before it, bounded by each lane's next block; since then the default is the uniform loop.
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      for round in 1 2; do
        for form in uniform stagger; do
          for batch in 2 1; do
            dir=""  # uniform: the committed kernel
            [[ $form == uniform ]] || dir=$(q8_stagger_dir) || continue
            step "q8 $form $batch ($round)" env ${dir:+REFRACT_KERNEL_DIR="$dir"} "$refract" \
              "${q8[@]}" --set "batch=$batch" --json "$out/q8-$form$batch-$round.json"
          done
        done
        step "q8 default ($round)" "$refract" "${q8[@]}" --json "$out/q8-default-$round.json"
      done
      ;;
    q8-axes)  # the committed q8 GEMV's loads in flight (batch 2 and 4), tpr and wg, against its
      # default run first and last (issue 16); Q8_PHASE (default decode) and Q8_FILTER choose
      # the rows
      q8=(kernels --kernel matmul-q4 --phase "${Q8_PHASE:-decode}" --variant tuned-q8 --no-live
          --seed 1 --max-rounds 5 --idle-gap-ms 10 ${Q8_FILTER:+--filter "$Q8_FILTER"})
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      # Q8_CONFIGS: the configurations, each "name=value name=value", separated by commas (one
      # repeated writes over its own JSON)
      IFS=, read -ra configs <<<"${Q8_CONFIGS:-batch=2,batch=4,batch=4 tpr=32,tpr=32,tpr=16,wg=128,wg=512}"
      for config in "${configs[@]}"; do
        sets=()
        for pair in $config; do sets+=(--set "$pair"); done
        step "q8 $config" "$refract" "${q8[@]}" "${sets[@]}" --json "$out/q8-${config//[ =]/-}.json"
      done
      step "q8 default again" "$refract" "${q8[@]}" --json "$out/q8-default-again.json"
      ;;
    q8-batch-ab)  # the q8 GEMV at batch 2 against 4 (--set: every row), three rounds
      # interleaved, at M = 1 and M = 8 (issue 16)
      q8=(kernels --kernel matmul-q4 --variant tuned-q8 --no-live --seed 1 --max-rounds 5
          --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --phase decode --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      for round in 1 2 3; do
        for batch in 4 2; do
          step "q8 batch $batch ($round)" "$refract" "${q8[@]}" --set "batch=$batch" \
            --phase decode --json "$out/q8-batch$batch-$round.json"
        done
      done
      for batch in 4 2; do
        step "q8 m8 batch $batch" "$refract" "${q8[@]}" --set "batch=$batch" --phase prefill \
          --filter '*/m8/*' --json "$out/q8-m8-batch$batch.json"
      done
      ;;
    q8-consecutive)  # the q8 GEMV with a lane's blocks of a trip adjacent (adjacent 1; when
      # measured, h200-q8-batch-axis.txt, a variant in REFRACT_KERNEL_DIR) at batch 2 and 4, two
      # rounds interleaved with the default (issue 16)
      q8=(kernels --kernel matmul-q4 --variant tuned-q8 --phase decode --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      for round in 1 2; do
        for batch in 2 4; do
          step "q8 consecutive $batch ($round)" "$refract" "${q8[@]}" --set adjacent=1 \
            --set "batch=$batch" --json "$out/q8-consecutive$batch-$round.json"
        done
        step "q8 default ($round)" "$refract" "${q8[@]}" --json "$out/q8-default-$round.json"
      done
      ;;
    floors)  # what the small decode rows stand on: the smoke kernel's dependent dispatch at 1, 32
      # and 112 workgroups (k+v's and q+o's grids), the q8 GEMV and decode attention with their
      # inputs warm in the L2 (--cold-mib 1) and cold (issue 16)
      for elements in 256 8192 28672; do
        step "smoke $elements" "$refract" smoke --elements "$elements" --no-live --seed 1 \
          --json "$out/smoke-$elements.json"
      done
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 cold" "$refract" "${q8[@]}" --json "$out/q8-cold.json"
      step "q8 warm" "$refract" "${q8[@]}" --cold-mib 1 --ceilings "$out/q8-cold.json" \
        --json "$out/q8-warm.json"
      attn=(kernels --kernel attention --phase decode --variant tuned --no-live --seed 1
            --max-rounds 5 --idle-gap-ms 10 --ceilings "$out/q8-cold.json")
      step "attention warm" "$refract" "${attn[@]}" --cold-mib 1 --json "$out/attention-warm.json"
      for index in 0 1; do
        step "attention warm dispatch $index" "$refract" "${attn[@]}" --cold-mib 1 \
          --time-dispatch "$index" --json "$out/attention-warm-dispatch-$index.json"
      done
      ;;
    peers-graphs)  # what the device takes a kernel in a chain of dependent launches, Dawn's
      # and CUDA's: the smoke kernel's dependent dispatch, the q4 decode rows and decode
      # attention, then PyTorch's peers in CUDA graphs (scripts/peers_torch.py graph_: a tiny
      # kernel, tinygemm at the decode shapes, SDPA decode with GQA by backend) (issue 16)
      for elements in 256 8192; do
        step "smoke $elements" "$refract" smoke --elements "$elements" --no-live --seed 1 \
          --json "$out/smoke-$elements.json"
      done
      step q4-decode "$refract" kernels --kernel matmul-q4 --phase decode --filter "*/tuned*" \
        --seed 1 --no-live --max-rounds 5 --idle-gap-ms 10 --json "$out/q4-decode.json"
      step attention-decode "$refract" kernels --kernel attention --phase decode --variant tuned \
        --filter '*qwen*' --seed 1 --no-live --max-rounds 5 --idle-gap-ms 10 \
        --ceilings "$out/q4-decode.json" --json "$out/attention-decode.json"
      step peers-graphs python3 scripts/peers_torch.py "$out/peers-graphs.json" graph_
      ;;
    vk-floor)  # the dependent dispatch without Dawn: docs/results/variants/vk_floor's probe (the
      # smoke kernel straight in Vulkan, each kind of barrier and Dawn's own, at 1, 32 and 112
      # workgroups; built by its build.sh into VK_FLOOR_DIR, default build/vk_floor) between
      # refract's smoke kernel on the same grids and CUDA's dependent launch
      # (scripts/peers_torch.py graph_floor), then Dawn's recorded commands and its compiled smoke
      # kernel timed by vk_floor (issue 16)
      vk_floor_dir=${VK_FLOOR_DIR:-build/vk_floor}
      step "vk floor" "$vk_floor_dir/vk_floor" "$vk_floor_dir/floor.spv" 15
      for elements in 256 8192 28672; do
        step "smoke $elements" "$refract" smoke --elements "$elements" --no-live --seed 1 \
          --json "$out/smoke-$elements.json"
      done
      step peers-graph-floor python3 scripts/peers_torch.py "$out/peers-graph-floor.json" graph_floor
      step "vk floor again" "$vk_floor_dir/vk_floor" "$vk_floor_dir/floor.spv" 15
      # what Dawn records on this device (its vk_trace layer): the smoke chain and decode attention
      trace=(env VK_LAYER_PATH="$vk_floor_dir" VK_INSTANCE_LAYERS=VK_LAYER_REFRACT_trace
             VK_TRACE_LINES=2000000)
      mkdir -p "$out/spirv"
      step "trace smoke" "${trace[@]}" VK_TRACE_FILE="$out/trace-smoke.txt" \
        VK_TRACE_SPIRV_DIR="$out/spirv" "$refract" smoke --elements 256 --no-live --seed 1 \
        --max-rounds 3
      # Dawn's own smoke kernel without Dawn: of the modules kept, the one whose output checks
      for module in "$out"/spirv/shader-*.spv; do
        step "vk floor $(basename "$module")" "$vk_floor_dir/vk_floor" "$module" 15 dawn
      done
      step "trace attention" "${trace[@]}" VK_TRACE_FILE="$out/trace-attention.txt" "$refract" \
        kernels --kernel attention --phase decode --variant tuned --filter '*qwen2.5*s1024*' \
        --no-live --seed 1 --max-rounds 3
      gzip -f "$out/trace-smoke.txt" "$out/trace-attention.txt"
      ;;
    attention-subgroup-split)  # decode attention with the split of
      # docs/results/variants/subgroup_split (a subgroup a query head; keys 32, wg 256) against the
      # committed split, whole and the split alone, the variant run twice (issue 16)
      attn=(kernels --kernel attention --phase decode --variant tuned --filter '*qwen*' --no-live
            --seed 1 --max-rounds 5 --idle-gap-ms 10)
      variant=(env REFRACT_KERNEL_DIR=docs/results/variants/subgroup_split "$refract" "${attn[@]}"
               --set keys=32 --set wg=256)
      step "attention default" "$refract" "${attn[@]}" --json "$out/attention-default.json"
      attn+=(--ceilings "$out/attention-default.json")
      variant+=(--ceilings "$out/attention-default.json")
      step "attention subgroup split" "${variant[@]}" --json "$out/attention-sgsplit.json"
      step "attention keys 32" "$refract" "${attn[@]}" --set keys=32 --json "$out/attention-keys32.json"
      step "attention split alone" "$refract" "${attn[@]}" --time-dispatch 0 \
        --json "$out/attention-default-split.json"
      step "attention subgroup split alone" "${variant[@]}" --time-dispatch 0 \
        --json "$out/attention-sgsplit-split.json"
      step "attention subgroup split again" "${variant[@]}" --json "$out/attention-sgsplit-again.json"
      step "attention default again" "$refract" "${attn[@]}" \
        --json "$out/attention-default-again.json"
      ;;
    attention-register-split)  # decode attention with the split of
      # docs/results/variants/register_split (a subgroup a split of 16 keys, its values in
      # registers; wg 32) against the committed split, whole and the split alone, twice (issue 16)
      attn=(kernels --kernel attention --phase decode --variant tuned --filter '*qwen*' --no-live
            --seed 1 --max-rounds 5 --idle-gap-ms 10)
      variant=(env REFRACT_KERNEL_DIR=docs/results/variants/register_split "$refract" "${attn[@]}"
               --set keys=16 --set wg=32)
      step "attention default" "$refract" "${attn[@]}" --json "$out/attention-default.json"
      attn+=(--ceilings "$out/attention-default.json")
      variant+=(--ceilings "$out/attention-default.json")
      step "attention register split" "${variant[@]}" --json "$out/attention-register.json"
      step "attention split alone" "$refract" "${attn[@]}" --time-dispatch 0 \
        --json "$out/attention-default-split.json"
      step "attention register split alone" "${variant[@]}" --time-dispatch 0 \
        --json "$out/attention-register-split.json"
      step "attention register merge alone" "${variant[@]}" --time-dispatch 1 \
        --json "$out/attention-register-merge.json"
      step "attention keys 16" "$refract" "${attn[@]}" --set keys=16 \
        --json "$out/attention-keys16.json"
      step "attention register split again" "${variant[@]}" \
        --json "$out/attention-register-again.json"
      step "attention default again" "$refract" "${attn[@]}" \
        --json "$out/attention-default-again.json"
      ;;
    decode-diagnostics)  # where decode attention's split and the q8 GEMV spend their time:
      # each against skeletons of it (docs/results/variants/diagnostics: the split's entry points,
      # appended with their shared loads to the committed split's file, with its loads and stores
      # only, in the split-minor and split-major layouts, and with its queries, workgroup-memory
      # tiles and barrier; the GEMV's loads, row reduction and stores with an xor for its math,
      # written by q8_parts.py), cold and warm, and the smoke kernel on more workgroups. The
      # skeletons compute nothing, so they run on refract-diag (refract built with unverified_timing.patch,
      # beside refract) with REFRACT_DIAG_UNVERIFIED=1: diagnostic times, never rows (issue 16)
      attn=(kernels --kernel attention --phase decode --variant tuned --filter '*qwen*' --no-live
            --seed 1 --max-rounds 5 --idle-gap-ms 10 --time-dispatch 0)
      diag=(env REFRACT_DIAG_UNVERIFIED=1 "$refract-diag" "${attn[@]}")
      step "split alone" "$refract" "${attn[@]}" --json "$out/split.json"
      diag+=(--ceilings "$out/split.json")
      attn+=(--ceilings "$out/split.json")
      for form in memory memory_major memory_tiles; do
        # The committed split's file, its entry point renamed, with the skeletons' shared loads
        # and the skeleton's entry point appended.
        skeleton="$out/diag_$form"
        mkdir -p "$skeleton"
        { sed 's/^fn split_tile(/fn split_tile_full(/' \
            src/kernels/llm_attention_decode_tile_part.wgsl
          cat docs/results/variants/diagnostics/split_skeleton_loads.wgsl \
            "docs/results/variants/diagnostics/split_skeleton_$form.wgsl"
        } >"$skeleton/llm_attention_decode_tile_part.wgsl"
        step "skeleton $form" env REFRACT_KERNEL_DIR="$skeleton" "${diag[@]}" \
          --json "$out/skeleton-$form.json"
        step "skeleton $form warm" env REFRACT_KERNEL_DIR="$skeleton" "${diag[@]}" --cold-mib 1 \
          --json "$out/skeleton-$form-warm.json"
      done
      step "split alone warm" "$refract" "${attn[@]}" --cold-mib 1 --json "$out/split-warm.json"
      for elements in 8192 16384 65536 1048576; do
        step "smoke $elements" "$refract" smoke --elements "$elements" --no-live --seed 1 \
          --json "$out/smoke-$elements.json"
      done
      step "split alone again" "$refract" "${attn[@]}" --json "$out/split-again.json"
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --filter '*qwen*' --no-live
          --seed 1 --max-rounds 5 --idle-gap-ms 10 --ceilings "$out/split.json")
      python3 docs/results/variants/diagnostics/q8_parts.py loads "$out/diag_q8_loads"
      q8diag=(env REFRACT_DIAG_UNVERIFIED=1 REFRACT_KERNEL_DIR="$out/diag_q8_loads" "$refract-diag"
              "${q8[@]}")
      step "q8" "$refract" "${q8[@]}" --json "$out/q8.json"
      step "q8 skeleton" "${q8diag[@]}" --json "$out/q8-skeleton.json"
      step "q8 skeleton warm" "${q8diag[@]}" --cold-mib 1 --json "$out/q8-skeleton-warm.json"
      step "q8 warm" "$refract" "${q8[@]}" --cold-mib 1 --json "$out/q8-warm.json"
      ;;
    attention-keys)  # decode attention's keys a split with the split-minor partials: the rule's
      # default against 16 keys (k_tile 1) and 64 keys (k_tile 0, fewer splits to merge), twice,
      # interleaved (issue 16)
      attn=(kernels --kernel attention --phase decode --variant tuned --filter '*qwen*' --no-live
            --seed 1 --max-rounds 5 --idle-gap-ms 10)
      step "attention default" "$refract" "${attn[@]}" --json "$out/attention-default.json"
      attn+=(--ceilings "$out/attention-default.json")
      for round in 1 2; do
        step "attention keys 16 ($round)" "$refract" "${attn[@]}" --set keys=16 \
          --json "$out/attention-keys16-$round.json"
        step "attention keys 64 k_tile 0 ($round)" "$refract" "${attn[@]}" --set keys=64 \
          --set k_tile=0 --json "$out/attention-keys64-$round.json"
        step "attention default ($round)" "$refract" "${attn[@]}" \
          --json "$out/attention-default-$round.json"
      done
      ;;
    q8-parts)  # the q8 GEMV at k+v and q+o against diagnostic parts of itself (written from the
      # committed kernel by docs/results/variants/diagnostics/q8_parts.py: its grid and bindings
      # alone, with its row reduction, with one weight load a lane, the kernel without its scale
      # loads), cold and warm, twice; then the kernel and its reduction at tpr 16 / 8 / 4 (shorter
      # row reductions, more blocks a lane). Parts run on refract-diag with
      # REFRACT_DIAG_UNVERIFIED=1: diagnostic times, never rows (issue 16)
      for part in empty reduce load no_scales; do
        python3 docs/results/variants/diagnostics/q8_parts.py "$part" "$out/diag_q8_$part" ||
          echo "=== no q8 part $part" | tee -a "$log"
      done
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --filter '*qwen*/k+v/m1/tuned-q8,*qwen*/q+o/m1/tuned-q8' --max-rounds 6 --idle-gap-ms 10)
      step "q8" "$refract" "${q8[@]}" --json "$out/q8.json"
      q8+=(--ceilings "$out/q8.json")
      for round in 1 2; do
        for cold in 512 1; do
          step "q8 cold-mib $cold ($round)" "$refract" "${q8[@]}" --cold-mib "$cold" \
            --json "$out/q8-$cold-$round.json"
          for part in empty reduce load no_scales; do
            step "q8 $part cold-mib $cold ($round)" env REFRACT_DIAG_UNVERIFIED=1 \
              REFRACT_KERNEL_DIR="$out/diag_q8_$part" "$refract-diag" "${q8[@]}" \
              --cold-mib "$cold" --json "$out/q8-$part-$cold-$round.json"
          done
        done
      done
      for axes in "tpr=16 batch=2 wg=128" "tpr=8 batch=4 wg=64" "tpr=8 batch=4 wg=256" \
                  "tpr=4 batch=4 wg=32"; do
        sets=()
        for axis in $axes; do sets+=(--set "$axis"); done
        step "q8 $axes" "$refract" "${q8[@]}" "${sets[@]}" --json "$out/q8-${axes// /-}.json"
        step "q8 reduce $axes" env REFRACT_DIAG_UNVERIFIED=1 \
          REFRACT_KERNEL_DIR="$out/diag_q8_reduce" "$refract-diag" "${q8[@]}" "${sets[@]}" --json "$out/q8-reduce-${axes// /-}.json"
      done
      step "q8 again" "$refract" "${q8[@]}" --json "$out/q8-again.json"
      ;;
    q8-one-trip)  # the q8 GEMV with docs/results/variants/q8_one_trip's path for rows of one
      # trip (every load of a lane issued at once, no loop) at k+v and q+o, at tpr 32 / 16 / 8
      # (shorter row reductions, more blocks a lane), against the committed kernel, twice (issue 16)
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --filter '*qwen*/k+v/m1/tuned-q8,*qwen*/q+o/m1/tuned-q8' --max-rounds 6 --idle-gap-ms 10)
      step "q8" "$refract" "${q8[@]}" --json "$out/q8.json"
      q8+=(--ceilings "$out/q8.json")
      for round in 1 2; do
        for axes in "tpr=32 batch=1" "tpr=32 batch=2" "tpr=16 batch=2 wg=128" "tpr=16 batch=2" \
                    "tpr=8 batch=4 wg=64" "tpr=8 batch=4" "tpr=8 batch=4 adjacent=1 wg=64"; do
          sets=()
          for axis in $axes; do sets+=(--set "$axis"); done
          step "q8 one trip $axes ($round)" env \
            REFRACT_KERNEL_DIR=docs/results/variants/q8_one_trip "$refract" "${q8[@]}" "${sets[@]}" --json "$out/q8-one-trip-${axes// /-}-$round.json"
        done
        step "q8 ($round)" "$refract" "${q8[@]}" --json "$out/q8-$round.json"
      done
      ;;
    sweeps-quick) step sweeps-quick "$refract" sweep --sweep all --quick --seed 1 \
                    --journal "$out/sweeps-quick.journal" --json "$out/sweeps-quick.json" ;;
    *) echo "unknown step $what" | tee -a "$log" ;;
  esac
done
