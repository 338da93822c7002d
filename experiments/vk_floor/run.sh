#!/usr/bin/env bash
# The dependent dispatch with and without Dawn (experiments/vk_floor/README.md), on the GPU
# machine from the repository root, after experiments/vk_floor/build.sh:
#   experiments/vk_floor/run.sh STEP...
# Steps: floors (empty dispatches and decode's small rows warm in the L2), vk-floor (the smoke
# kernel straight in Vulkan against Dawn's and CUDA's, and Dawn traced).
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"

for what in "$@"; do
  case $what in
    vk-floor)  # the dependent dispatch without Dawn: experiments/vk_floor's probe (the
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
    *) echo "unknown step $what" | tee -a "$log" ;;
  esac
done
