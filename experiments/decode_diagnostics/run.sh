#!/usr/bin/env bash
# Skeletons of decode attention's split and of the q8 GEMV (experiments/decode_diagnostics/
# README.md), on the GPU machine from the repository root, with refract-diag (refract built with
# unverified_timing.patch) beside refract: experiments/decode_diagnostics/run.sh STEP...
# Steps: decode-diagnostics (the split against its skeletons), q8-parts (the q8 GEMV at k+v and
# q+o against parts of itself written by q8_parts.py).
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"

for what in "$@"; do
  case $what in
    decode-diagnostics)  # where decode attention's split and the q8 GEMV spend their time:
      # each against skeletons of it (experiments/decode_diagnostics: the split's entry points,
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
          cat experiments/decode_diagnostics/split_skeleton_loads.wgsl \
            "experiments/decode_diagnostics/split_skeleton_$form.wgsl"
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
      python3 experiments/decode_diagnostics/q8_parts.py loads "$out/diag_q8_loads"
      q8diag=(env REFRACT_DIAG_UNVERIFIED=1 REFRACT_KERNEL_DIR="$out/diag_q8_loads" "$refract-diag"
              "${q8[@]}")
      step "q8" "$refract" "${q8[@]}" --json "$out/q8.json"
      step "q8 skeleton" "${q8diag[@]}" --json "$out/q8-skeleton.json"
      step "q8 skeleton warm" "${q8diag[@]}" --cold-mib 1 --json "$out/q8-skeleton-warm.json"
      step "q8 warm" "$refract" "${q8[@]}" --cold-mib 1 --json "$out/q8-warm.json"
      ;;
    q8-parts)  # the q8 GEMV at k+v and q+o against diagnostic parts of itself (written from the
      # committed kernel by experiments/decode_diagnostics/q8_parts.py: its grid and bindings
      # alone, with its row reduction, with one weight load a lane, the kernel without its scale
      # loads), cold and warm, twice; then the kernel and its reduction at tpr 16 / 8 / 4 (shorter
      # row reductions, more blocks a lane). Parts run on refract-diag with
      # REFRACT_DIAG_UNVERIFIED=1: diagnostic times, never rows (issue 16)
      for part in empty reduce load no_scales; do
        python3 experiments/decode_diagnostics/q8_parts.py "$part" "$out/diag_q8_$part" ||
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
    *) echo "unknown step $what" | tee -a "$log" ;;
  esac
done
