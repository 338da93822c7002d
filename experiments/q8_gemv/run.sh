#!/usr/bin/env bash
# The q4 GEMV on int8 activations, taken apart (experiments/q8_gemv/README.md), on the GPU machine
# from the repository root: experiments/q8_gemv/run.sh STEP...
# Steps: q4-configs, q8-variants, q8-batch, q8-scalar (llm_matmul_q4_tuned_gemv_q8_scalar.wgsl),
# q8-stagger, q8-uniform, q8-axes, q8-batch-ab, q8-consecutive, q8-one-trip (q8_one_trip/),
# uniform-free, issue16-final (issue 16's figures in one run). Several `sed` the committed kernel
# into a REFRACT_KERNEL_DIR and fail, logged, where it no longer has the line they change.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"

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

for what in "$@"; do
  case $what in
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
      # arrays indexed in loops (experiments/q8_gemv/, 2 or 4 blocks a trip), at rows 1 and
      # tpr 16 / 32, against the default run first and last (issue 16)
      q8=(kernels --kernel matmul-q4 --phase decode --variant tuned-q8 --no-live --seed 1
          --max-rounds 5 --idle-gap-ms 10)
      step "q8 default" "$refract" "${q8[@]}" --json "$out/q8-default.json"
      q8+=(--ceilings "$out/q8-default.json")
      step "q8 rows=1" "$refract" "${q8[@]}" --set rows=1 --json "$out/q8-rows-1.json"
      for batch in 2 4; do
        dir=$(mktemp -d)
        sed -e "s/^const kScalarBatch = [0-9]*u;/const kScalarBatch = ${batch}u;/" \
          experiments/q8_gemv/llm_matmul_q4_tuned_gemv_q8_scalar.wgsl \
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
    q8-one-trip)  # the q8 GEMV with experiments/q8_gemv/q8_one_trip's path for rows of one
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
            REFRACT_KERNEL_DIR=experiments/q8_gemv/q8_one_trip "$refract" "${q8[@]}" "${sets[@]}" --json "$out/q8-one-trip-${axes// /-}-$round.json"
        done
        step "q8 ($round)" "$refract" "${q8[@]}" --json "$out/q8-$round.json"
      done
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
    *) echo "unknown step $what" | tee -a "$log" ;;
  esac
done
