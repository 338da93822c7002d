#!/usr/bin/env bash
# refract's product runs on a GPU machine (docs/MEASURING.md): the reference results of
# docs/results/README.md come from these steps. Writes JSON results and a log to OUT_DIR.
#   scripts/measure_gpu.sh STEP...
# Steps: info; ceilings (the full catalog); kernels-qwen, kernels-gemma (every kernel row of the
# model); kernels-quick; decode-rows (decode's kernels: every q4 GEMV, decode attention and the
# M = 50 matmuls); peers (PyTorch's peers, scripts/peers_torch.py); peers-graphs (refract's
# small decode rows and CUDA's dependent launches, tinygemm and SDPA decode in CUDA graphs, one
# lease); sweeps, sweeps-resume, sweeps-quick (refract sweep: the seven full sweeps, on from their
# journal, the quick ones; COLD_MIB, SWEEP_BUDGET_MIN, JOURNAL, PROFILE: the store the winners
# go into); kernels-quick-profile (the quick preset run with PROFILE's winners); decode (refract
# decode: Qwen2.5-0.5B at S = 128, 1024, 4096 and pp512, Llama-3.2-1B at 1024, the first design
# beside them, PROFILE's GEMV winners); decode-hf (--export and
# scripts/check_decode_hf.py on 2-layer shapes of both); decode-peer (ONNX Runtime WebGPU);
# tune (refract tune's two examples, full grids, and refract's own f32 GEMM at the matmul's shape);
# fused-rows (the kernels suite's rows of the step's fused kernels, each against its chain).
# The experiments that answered one question each have their own recipes: experiments/README.md.
set -u
source "$(dirname "$0")/gpu_env.sh"

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
    decode-rows)  # issue 16: the q4 GEMVs (f32 and int8 activations), decode attention, M = 50
      step q4-decode "$refract" kernels --kernel matmul-q4 --phase decode --seed 1 --no-live \
        --json "$out/kernels-q4-decode.json"
      step attention-decode "$refract" kernels --kernel attention --phase decode --seed 1 \
        --no-live --json "$out/kernels-attention-decode.json"
      step matmul-prefill "$refract" kernels --kernel matmul-f32,matmul-q4 --phase prefill \
        --seed 1 --no-live --max-rounds 5 --json "$out/kernels-matmul-prefill.json"
      ;;
    peers) step peers python3 scripts/peers_torch.py "$out/peers.json" ;;
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
    sweeps-quick) step sweeps-quick "$refract" sweep --sweep all --quick --seed 1 \
                    --journal "$out/sweeps-quick.journal" --json "$out/sweeps-quick.json" ;;
    decode)  # issues 45, 46: whole decode steps, Qwen2.5-0.5B at three contexts and a 512-token
      # prefill, Llama-3.2-1B at one context (the defaults: q8 activations where the device has
      # dot4I8Packed, 16 steps a submit, on a GPU the down projection in the gate/up GEMV); beside
      # them the step before that (--fusion on), attention's merge a dispatch of its own
      # (own-merge) and by head (o-heads, where the default does not take it), and at 1024 the step
      # as issue 45 first built it (f32 activations, a step a submit), q8 at a step a submit and q8
      # without the fused GEMVs; PROFILE, when set, a run with its GEMV winners
      step decode-qwen "$refract" decode --model qwen2.5-0.5b --context 128,1024,4096 --seed 1 \
        --no-live --json "$out/decode-qwen.json"
      step decode-qwen-prefill "$refract" decode --model qwen2.5-0.5b --context 0 --prompt 512 \
        --seed 1 --no-live --json "$out/decode-qwen-prefill.json"
      step decode-llama "$refract" decode --model llama-3.2-1b --context 1024 --seed 1 \
        --no-live --json "$out/decode-llama.json"
      step decode-qwen-on "$refract" decode --model qwen2.5-0.5b --context 128,1024,4096 \
        --fusion on --seed 1 --no-live --json "$out/decode-qwen-on.json"
      step decode-llama-on "$refract" decode --model llama-3.2-1b --context 1024 --fusion on \
        --seed 1 --no-live --json "$out/decode-llama-on.json"
      step decode-qwen-own-merge "$refract" decode --model qwen2.5-0.5b --context 128,1024,4096 \
        --fusion own-merge --seed 1 --no-live --json "$out/decode-qwen-own-merge.json"
      step decode-llama-o-heads "$refract" decode --model llama-3.2-1b --context 1024 \
        --fusion o-heads --seed 1 --no-live --json "$out/decode-llama-o-heads.json"
      for name in qwen:qwen2.5-0.5b llama:llama-3.2-1b; do
        step "decode-${name%%:*}-first" "$refract" decode --model "${name#*:}" --context 1024 \
          --activations f32 --steps-per-submit 1 --seed 1 --no-live \
          --json "$out/decode-${name%%:*}-first.json"
      done
      step decode-qwen-q8-single "$refract" decode --model qwen2.5-0.5b --context 1024 \
        --steps-per-submit 1 --seed 1 --no-live --json "$out/decode-qwen-q8-single.json"
      step decode-qwen-unfused "$refract" decode --model qwen2.5-0.5b --context 1024 \
        --fusion off --seed 1 --no-live --json "$out/decode-qwen-unfused.json"
      if [[ -n ${PROFILE:-} ]]; then
        step decode-qwen-profile "$refract" decode --model qwen2.5-0.5b --context 1024 \
          --profile "$PROFILE" --seed 1 --no-live --json "$out/decode-qwen-profile.json"
      fi
      ;;
    decode-hf)  # issue 45: the independent check, 2-layer Qwen2.5-0.5B and Llama-3.2-1B shapes
      for model in qwen2.5-0.5b llama-3.2-1b; do
        export_dir=$(mktemp -d)
        step "export $model" "$refract" decode --model "$model" --layers 2 --context 64 \
          --tokens 8 --seed 1 --no-live --export "$export_dir"
        step "hf $model" sh -c "python3 scripts/check_decode_hf.py '$export_dir' >>'$out/decode-hf.jsonl'"
        rm -rf "$export_dir"
      done
      ;;
    decode-peer)  # issue 45: ONNX Runtime's WebGPU decode on the same machine (ORT_BUNDLE: the
      # folder ../shared/peers/ort_webgpu/make_bundle.sh made)
      step decode-peer env GL_DIR=.gl OUT="$out/ort" bash "${ORT_BUNDLE:-out/ortpeer}/run_on_gpu.sh" ;;
    fused-rows)  # issue 46: the decode step's fused kernels beside the chains they replace
      step fused-rows "$refract" kernels \
        --kernel qkv-rope,gate-up-silu,gate-up-down,merge-o-heads,lm-head-argmax \
        --seed 1 --no-live --json "$out/fused-rows.json" ;;
    tune)  # issue 47: both examples of refract tune, full grids, winners into a store; and
      # refract's own tuned f32 GEMM at the matmul example's large problem (M 2048, N 896, K 896)
      step tune-matmul "$refract" tune examples/tune/matmul_f32/matmul_tiled.wgsl \
        --spec examples/tune/matmul_f32/matmul_tiled.json --seed 1 --journal "$out/tune-matmul.journal" \
        --json "$out/tune-matmul.json" --profile "$out/tune-profile.json"
      step tune-q4 "$refract" tune examples/tune/q4_gemv/q4_gemv.wgsl \
        --spec examples/tune/q4_gemv/q4_gemv.json --seed 1 --journal "$out/tune-q4.journal" \
        --json "$out/tune-q4.json" --profile "$out/tune-profile.json"
      step tune-own-gemm "$refract" kernels --kernel matmul-f32 --seed 1 --no-live \
        --filter 'matmul-f32/qwen2.5-0.5b/q+o/m2048/tuned' --json "$out/tune-own-gemm.json" ;;
    kernels-quick-profile)  # issue 18: the quick preset with the sweeps' profile (PROFILE)
      step kernels-quick-profile "$refract" kernels --preset quick --seed 1 --no-live \
        --profile "${PROFILE:-$out/profile.json}" --json "$out/kernels-quick-profile.json" ;;
    *) echo "unknown step $what" | tee -a "$log" ;;
  esac
done
