# Sourced by scripts/measure_gpu.sh and every experiments/*/run.sh: what a run on the GPU machine
# needs (docs/MEASURING.md). From the repository root, with build/release and the .gl folder of
# Vulkan loader packages beside it: the loader unpacked when the machine has none, the NVIDIA
# ICD named, and `step NAME COMMAND...`, which runs one command into OUT_DIR/log.txt with its
# exit code and seconds (a failure is logged; the next step still runs; STEP_TIMEOUT=S sends
# SIGINT after S seconds, and refract then writes the rows it finished).
# `decode_at_1024 NAME MODEL COMMAND...` is such a step: the experiments' decode run at S = 1024.
# Sets: out (OUT_DIR, or the device tool's OUT, or out/), log, refract (REFRACT_DIR, default
# build/release, holds refract and Dawn).
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
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

# decode_at_1024 NAME MODEL COMMAND...: a step that runs `COMMAND decode` of MODEL at S = 1024
# (seed 1) into $out/NAME.json; COMMAND is the refract to run, any `env VAR=...` before it.
decode_at_1024() {
  local name=$1 model=$2
  shift 2
  step "$name" "$@" decode --model "$model" --context 1024 --seed 1 --no-live \
    --json "$out/$name.json"
}
