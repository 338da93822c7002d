#!/usr/bin/env bash
# What the down phase of the fused gate/up + down costs inside it, and whether touching down's
# weights before the silu and quantizer hides their DRAM round trip; on the GPU machine from the
# repository root (experiments/down_phase/README.md):
#   experiments/down_phase/run.sh probe DIR   (DIR: refract built with ../o_shares/probe.patch)
#   experiments/down_phase/run.sh touch
#   experiments/down_phase/run.sh late
# probe alternates, twice, `decode` at S = 1024 of the refract in REFRACT_DIR with DIR's refract
# running the kernel without down's weight loads (noloads), without its atomic adds (noatomic) or
# without both (neither) — wrong logits, timed with REFRACT_DIAG_UNVERIFIED: probes, never
# results. touch alternates, three times, the refract in REFRACT_DIR with the kernel whose lanes
# first xor one word of each of their down blocks' codes and their scales (touch-all) or the
# codes alone (touch-codes) into a register (verified), then Llama-3.2-1B each once; late does the
# same with the words kept in a private array and xor-ed only after the down phase. Each variant
# is made with sed from the kernel as it was before a60b3ce (the script stops, logged, on any
# other: apply experiments/down_early/late_loads.patch first); a recipe fails, logged, where the
# kernel no longer has a line it changes.
set -u
source "$(dirname "$0")/../../scripts/gpu_env.sh"
kernel=src/kernels/decode_gate_up_down_store_part.wgsl
loads='      if (b < blocks.y \&\& (blocks.x + b) \* 64u < n) {'
atomic='      atomicAdd(\&down_sum\[row\], i32(round(share \* FIXED_ONE)));'
silu='  let group = silu_quantize(acc, row0, n, lid);'
# The recipes edit the kernel as it was before a60b3ce (down's weights loaded after the barrier;
# experiments/down_early/late_loads.patch makes it): its down loop has the line $loads, and it
# loads nothing early (every kernel since holds early_w).
if ! grep -q "^$loads\$" "$kernel" || grep -q early_w "$kernel"; then
  echo "down_phase: $kernel is not the kernel these recipes edit (before a60b3ce)" | tee -a "$log" >&2
  exit 1
fi

# variant NAME SED-SCRIPT: the kernel edited into a fresh folder, whose path it prints.
variant() {
  local dir
  dir=$(mktemp -d)
  sed -e "$2" "$kernel" >"$dir/$(basename "$kernel")"
  if cmp -s "$kernel" "$dir/$(basename "$kernel")"; then
    echo "down_phase: $1 changed nothing in $kernel" | tee -a "$log" >&2
    exit 1
  fi
  echo "$dir"
}

# alternate NAME ALL_DIR CODES_DIR: main against the kernels of the two folders, verified, three
# times at S = 1024, then Llama-3.2-1B each once.
alternate() {
  local name=$1 all=$2 codes=$3 round
  for round in 1 2 3; do
    decode_at_1024 "main-$round" qwen2.5-0.5b "$refract"
    decode_at_1024 "$name-all-$round" qwen2.5-0.5b env REFRACT_KERNEL_DIR="$all" "$refract"
    decode_at_1024 "$name-codes-$round" qwen2.5-0.5b env REFRACT_KERNEL_DIR="$codes" "$refract"
  done
  decode_at_1024 llama-main llama-3.2-1b "$refract"
  decode_at_1024 "llama-$name-all" llama-3.2-1b env REFRACT_KERNEL_DIR="$all" "$refract"
  decode_at_1024 "llama-$name-codes" llama-3.2-1b env REFRACT_KERNEL_DIR="$codes" "$refract"
}

case ${1:-} in
  probe)
    probe_dir=$2
    noloads=$(variant noloads "s/^$loads\$/      if (b < blocks.y \&\& (blocks.x + b) * 64u < n \&\& n > 100000000u) {/") || exit 1
    noatomic=$(variant noatomic "s/^$atomic\$/      if (share == 1234567.0) { atomicAdd(\&down_sum[row], i32(round(share * FIXED_ONE))); }/") || exit 1
    neither=$(variant neither "s/^$loads\$/      if (b < blocks.y \&\& (blocks.x + b) * 64u < n \&\& n > 100000000u) {/;s/^$atomic\$/      if (share == 1234567.0) { atomicAdd(\&down_sum[row], i32(round(share * FIXED_ONE))); }/") || exit 1
    for round in 1 2; do
      decode_at_1024 "main-$round" qwen2.5-0.5b "$refract"
      for v in noloads noatomic neither; do
        decode_at_1024 "$v-unverified-$round" qwen2.5-0.5b env REFRACT_DIAG_UNVERIFIED=1 \
          REFRACT_KERNEL_DIR="${!v}" "$probe_dir/refract"
      done
    done
    ;;
  touch)
    touch_loop='  var touch = 0u;\n  for (var t = 0u; t < DOWN_TRIPS; t++) {\n    let load_row = min(lid + t * WG, DOWN_ROWS - 1u);\n    for (var b = 0u; b < MAX_DOWN_BLOCKS; b++) {\n      if (b < blocks.y \&\& (blocks.x + b) * 64u < n) {\n        let at = (blocks.x + b) * DOWN_ROWS + load_row;\n        touch ^= WORDS;\n      }\n    }\n  }'
    keep='\n  if (n > 100000000u) {\n    down_clear[0] = i32(touch);\n  }'
    for v in all codes; do
      words='down_w[at].x'
      [[ $v == all ]] && words='down_w[at].x ^ bitcast<u32>(down_scales[at])'
      dir=$(variant "touch-$v" "s/^$silu\$/${touch_loop/WORDS/$words}\n&/;/^    if (row < DOWN_ROWS) {\$/,/^  }\$/{/^  }\$/s/\$/$keep/}") || exit 1
      printf -v "touch_$v" '%s' "$dir"
    done
    alternate touch "$touch_all" "$touch_codes"
    ;;
  late)
    # The words loaded into a private array before the silu and xor-ed only after the down phase.
    for v in all codes; do
      per=1
      [[ $v == all ]] && per=2
      scale=''
      [[ $v == all ]] && scale='\n        touched[2u * (4u * t + b) + 1u] = bitcast<u32>(down_scales[at]);'
      early="  var touched: array<u32, $((8 * per))>;\n  for (var t = 0u; t < DOWN_TRIPS; t++) {\n    let load_row = min(lid + t * WG, DOWN_ROWS - 1u);\n    for (var b = 0u; b < MAX_DOWN_BLOCKS; b++) {\n      if (t < 2u \&\& b < blocks.y \&\& (blocks.x + b) * 64u < n) {\n        let at = (blocks.x + b) * DOWN_ROWS + load_row;\n        touched[${per}u * (4u * t + b)] = down_w[at].x;$scale\n      }\n    }\n  }"
      late="\n  var touch = 0u;\n  for (var i = 0u; i < $((8 * per))u; i++) {\n    touch ^= touched[i];\n  }\n  if (n > 100000000u) {\n    down_clear[0] = i32(touch);\n  }"
      dir=$(variant "late-$v" "s/^$silu\$/$early\n&/;/^    if (row < DOWN_ROWS) {\$/,/^  }\$/{/^  }\$/s/\$/$late/}") || exit 1
      printf -v "late_$v" '%s' "$dir"
    done
    alternate late "$late_all" "$late_codes"
    ;;
  *) echo "usage: $0 probe DIR | touch | late" >&2; exit 2 ;;
esac
