#!/usr/bin/env bash
# Decode attention's designs (experiments/decode_attention/README.md), on the GPU machine from the
# repository root: experiments/decode_attention/run.sh STEP...
# Steps: attention-v2, attention-v5, decode-variants, breakdown (each dispatch alone, softmax
# decode), attention-probe (ATTN_DIRS, ATTN_SETS), attention-subgroup-split (subgroup_split/),
# attention-register-split (register_split/), attention-keys.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"

for what in "$@"; do
  case $what in
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
    attention-subgroup-split)  # decode attention with the split of
      # experiments/decode_attention/subgroup_split (a subgroup a query head; keys 32, wg 256) against the
      # committed split, whole and the split alone, the variant run twice (issue 16)
      attn=(kernels --kernel attention --phase decode --variant tuned --filter '*qwen*' --no-live
            --seed 1 --max-rounds 5 --idle-gap-ms 10)
      variant=(env REFRACT_KERNEL_DIR=experiments/decode_attention/subgroup_split "$refract" "${attn[@]}"
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
      # experiments/decode_attention/register_split (a subgroup a split of 16 keys, its values in
      # registers; wg 32) against the committed split, whole and the split alone, twice (issue 16)
      attn=(kernels --kernel attention --phase decode --variant tuned --filter '*qwen*' --no-live
            --seed 1 --max-rounds 5 --idle-gap-ms 10)
      variant=(env REFRACT_KERNEL_DIR=experiments/decode_attention/register_split "$refract" "${attn[@]}"
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
    *) echo "unknown step $what" | tee -a "$log" ;;
  esac
done
