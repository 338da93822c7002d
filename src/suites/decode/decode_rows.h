// The rows of `refract decode`: per model and context, one row that builds the model's whole
// step (decode/decode_engine.h), verifies its first steps against the CPU model
// (reference/llm_decoder.h) and times the step as an engine runs it — every token recorded
// into one command buffer and submitted without waiting, nothing read back in between. Its
// bounds stand on the run's own ceiling rows (read-linear, the dependent-dispatch floor).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "decode/decode_engine.h"
#include "gpu/context.h"
#include "reference/llm_decoder.h"
#include "results/run_observer.h"
#include "results/run_record.h"

namespace refract::suites::decode {

struct DecodeRequest {
  uint32_t context = 1024;    ///< S: positions of KV history before the first step
  uint32_t tokens = 128;      ///< timed steps
  uint32_t warmup = 8;        ///< a warm-up chunk's steps (repeated until the time settles)
  uint32_t verify_steps = 2;  ///< steps checked against the CPU model, from position S
  /// Steps recorded into one pass and one submit, the GPU advancing the step's values between
  /// them (DecodeEngine::RecordSteps); 1: a step a command buffer, its values written by the
  /// host.
  uint32_t steps_per_submit = 1;
  uint32_t profile_steps = 8;  ///< steps each run of the split's ablation times; 0: no split
  bool timestamps = true;      ///< GPU timestamps where the device has them
  uint32_t prompt = 0;         ///< a prefill row's prompt tokens (RunPrefillRow)
  /// How the GEMVs after a norm or silu-mul read their input, on the GPU and in the CPU model.
  reference::DecoderActivations activations = reference::DecoderActivations::kF32;
  /// GEMV configurations replacing their defaults (a profile's winners), and where each GEMV's
  /// configuration came from (a line each, in the row's notes; none: every default).
  std::map<refract::decode::GemvKey, ops::GemvConfig> gemvs;
  std::vector<std::string> gemv_sources;
  /// Decode attention's axes replacing its defaults (EngineConfig::attention: a profile's
  /// winner), and where its configuration came from (a line in the row's notes; "": the default).
  ops::Settings attention;
  std::string attention_source;
  bool fuse = true;        ///< q8: the fused GEMVs (decode::EngineConfig::fuse)
  /// q8, fused: where attention's merge runs (EngineConfig::merge)
  refract::decode::MergeFusion merge = refract::decode::MergeFusion::kAuto;
  bool fuse_down = false;  ///< q8, fused: the down GEMV in the gate/up GEMV (EngineConfig)
};

/// "f32" or "q8".
std::string ToString(reference::DecoderActivations activations);

/// A q8 row's param "fusion", as requested: "on" (the fused kernels where the device takes them,
/// attention's merge where it pays), "own-merge" (attention's merge a dispatch of its own),
/// "o-merge" (in the o GEMV), "o-heads" (with the o projection a group of heads at a time),
/// "down" (on, the down projection in the gate/up GEMV) or "off".
void SetFusion(results::ResultRow& row, const DecodeRequest& request);
/// Where the step `engine` built runs decode attention: every row's param "attention", its
/// configuration as compiled ("k_tile=1:keys=16:…"), a q8 row's "merge", where it merges the
/// splits: "own", "o-gemv" or "by-head", and "down": "in-gate-up" where the gate/up GEMVs make
/// the down projection, with "gate_up_down" their kernel's configuration as compiled (both
/// absent otherwise).
void SetAttentionParams(results::ResultRow& row, const refract::decode::DecodeEngine& engine);

/// "qwen2.5-0.5b/tg128@d1024" (model, timed tokens, context, as llama-bench names them).
std::string DecodeRowId(const reference::DecoderShape& shape, const DecodeRequest& request);
/// "qwen2.5-0.5b/pp512@d1024" (model, prompt tokens, context).
std::string PrefillRowId(const reference::DecoderShape& shape, const DecodeRequest& request);

/// The positions the engine of a decode row of `request` holds: its history and every step it
/// runs (what decode attention's grid is sized for).
uint32_t DecodeCapacity(const DecodeRequest& request);

/// The ceilings a decode row's bounds stand on, measured in the same run (NaN: not measured).
struct DecodeCeilings {
  double read_bandwidth_Bps = results::kNoValue;
  double dispatch_floor_ms = results::kNoValue;
};

/// A model's synthetic weights (from the seed), on the host for the CPU model and on the GPU,
/// uploaded once for every context.
class DecodeModel {
 public:
  DecodeModel(gpu::Context& context, reference::DecoderShape shape, uint64_t seed);
  /// The model with `weights` instead of the seed's synthetic ones (a test's crafted network);
  /// `seed` still seeds the KV history.
  DecodeModel(gpu::Context& context, reference::DecoderShape shape,
              reference::DecoderWeights weights, uint64_t seed);
  const reference::DecoderShape& shape() const { return shape_; }
  const reference::DecoderWeights& weights() const { return weights_; }
  const refract::decode::GpuDecoderWeights& gpu_weights() const { return gpu_weights_; }
  uint64_t seed() const { return seed_; }

 private:
  reference::DecoderShape shape_;
  uint64_t seed_;
  reference::DecoderWeights weights_;
  refract::decode::GpuDecoderWeights gpu_weights_;
};

/// The first steps of a run from `positions` of the seed's synthetic KV history, each step's
/// logits read back (what --export writes): the history, the tokens (each step's input, then
/// the last step's argmax) and the logits of each step.
struct ReadSteps {
  std::vector<reference::LayerHistory> history;
  std::vector<uint32_t> tokens;
  std::vector<std::vector<float>> logits;
};
ReadSteps RunReadSteps(gpu::Context& context, const DecodeModel& model, uint32_t positions,
                       uint32_t steps, uint64_t seed);

/// Relative tolerance of a step's logits against the CPU model: |gpu − cpu| ≤ this × the
/// largest |cpu logit| (f32 sums over thousands of terms in every op, through every layer).
inline constexpr double kLogitTolerance = 2e-4;

/// One row: builds the engine for `request`, verifies its first steps (a drift makes the row
/// `error` with what disagreed, never a figure), times request.tokens steps after the warm-up,
/// then the split. A GPU or usage failure of the row's own makes it `error`; a lost or hung
/// device propagates. `observer` (may be null) sees the row as it goes.
results::ResultRow RunDecodeRow(gpu::Context& context, const DecodeModel& model,
                                const DecodeRequest& request, const DecodeCeilings& ceilings,
                                uint64_t seed, results::RunObserver* observer);

/// One prefill row: request.prompt tokens after request.context positions of history through
/// the prefill (GEMMs, causal flash attention, the cache written), verified by the last row's
/// logits and token and by request.verify_steps decode steps after it (which read the cache the
/// prefill wrote), then timed over repeated prefills at the same positions after a warm-up:
/// tokens/s = prompt tokens over the median prefill's time.
results::ResultRow RunPrefillRow(gpu::Context& context, const DecodeModel& model,
                                 const DecodeRequest& request, const DecodeCeilings& ceilings,
                                 uint64_t seed, results::RunObserver* observer);

}  // namespace refract::suites::decode
