// Internal to src/suites/decode/: what the decode and prefill rows share — their synthetic
// inputs, the check of one step against the CPU model, and the warm-up.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "base/verification.h"
#include "gpu/context.h"
#include "reference/llm_decoder.h"
#include "results/run_observer.h"
#include "results/run_record.h"
#include "suites/decode/decode_rows.h"

namespace refract::suites::decode {

using Clock = std::chrono::steady_clock;

/// Milliseconds since `start` on the host clock.
double MsSince(Clock::time_point start);

/// Every layer's synthetic KV history of `positions` rows (reference::SyntheticHistory).
std::vector<reference::LayerHistory> History(const reference::DecoderShape& shape,
                                             uint32_t positions, uint64_t seed);

/// The token the first step embeds, from the seed.
uint32_t FirstToken(const reference::DecoderShape& shape, uint64_t seed);

/// `count` prompt tokens from the seed.
std::vector<uint32_t> PromptTokens(const reference::DecoderShape& shape, uint32_t count,
                                   uint64_t seed);

/// How a q8 step's check allows for the GPU's rounding: its norms and silu-mul round differently
/// from the model's in the last bits, so codes at near-ties fall the other way, and the synthetic
/// network carries such a change to every logit. A q8 step may differ from the q8 model by the
/// gap quantization itself opens (the q8 model against the f32 model, fed the same tokens) on
/// top of kLogitTolerance: on lavapipe the flips moved the logits by up to 0.52 of that gap (2
/// layers of Qwen2.5-0.5B's and Llama-3.2-1B's shapes, 20 seeds); a dropped norm weight, a
/// rotated wrong pair or a misplaced key moves them by many gaps.
inline constexpr double kQ8GapShare = 1;

/// The CPU model a row checks its steps against: the model of the row's activations and, for q8,
/// its f32 twin fed the same tokens, whose gap sets the allowance for the GPU's rounding.
class ReferenceSteps {
 public:
  ReferenceSteps(const DecodeModel& model, uint32_t capacity,
                 reference::DecoderActivations activations);
  void SetHistory(std::span<const reference::LayerHistory> history, uint32_t positions);
  /// Runs `token` in the model (and its twin); returns the model's logits (none without
  /// `logits`) and sets allowance().
  std::vector<float> Step(uint32_t token, bool logits = true);
  /// Runs a prompt as the GPU's prefill does: every row's layers on f32 activations (its GEMMs),
  /// the last row's LM head on the row's activations; returns the last row's logits and sets
  /// allowance() (the twin joins for the last row only: until then the two are the same).
  std::vector<float> Prompt(std::span<const uint32_t> tokens);
  /// The last step's extra tolerance of the logits: 0 for f32; for q8 kQ8GapShare × the largest
  /// |q8 − f32| logit of the two models.
  double allowance() const { return allowance_; }

 private:
  reference::DecoderActivations activations_;
  reference::DecoderModel model_;
  std::optional<reference::DecoderModel> f32_twin_;
  double allowance_ = 0;
};

/// Checks one step (`what` names it): every logit within kLogitTolerance of the model's
/// largest plus `allowance`, the GPU's token the first largest of its own logits (the model's
/// rule, reference::Argmax, on the GPU's logits: a tie broken otherwise fails), and the model's token
/// unless the model's best two lie within twice the tolerance of each other (then the GPU's must
/// be one of those near the top). Throws VerificationError naming the step.
VerificationRecord CheckStep(const std::string& what, std::span<const float> gpu,
                             std::span<const float> cpu, uint32_t gpu_token, double allowance = 0);

/// Checks a step's token alone (the GPU read back no logits of it): the model's token unless the
/// model's best two lie within twice the tolerance (kLogitTolerance of the largest logit plus
/// `allowance`) of each other, then one of those near the top. Throws VerificationError naming
/// the step.
void CheckToken(const std::string& what, std::span<const float> cpu, uint32_t gpu_token,
                double allowance = 0);

/// Adds `step`'s record to `combined` (elements summed, the largest error, the last tolerance).
void Combine(VerificationRecord& combined, const VerificationRecord& step);

/// How long a warm-up runs at least and at most [ms]: a GPU's clocks rise only after some
/// hundreds of ms of steady work (on the H100 a run's first ~100 steps took 2.5–3.5× the
/// settled step time, in plateaus of ~100 ms each).
inline constexpr double kMinWarmupMs = 500;
inline constexpr double kMaxWarmupMs = 5000;

/// Runs `chunk` (which records and submits some work and returns how many units it holds) and
/// waits for it, again and again, until kMinWarmupMs have passed and the last two chunks' time a
/// unit agree within 3 %, or kMaxWarmupMs have passed. Returns whether they agreed.
bool WarmUp(gpu::Context& context, const std::function<uint32_t()>& chunk);

/// A row of category "decode": `id`, params {context, tokens, layers, activations} with the
/// model and `phase` as its identity, unit tokens/s by the median, `description`.
results::ResultRow NewRow(std::string id, const reference::DecoderShape& shape,
                          const std::string& phase, uint32_t context, uint32_t tokens,
                          reference::DecoderActivations activations, std::string description);

/// Fills `row`'s samples (ms each, `tokens` tokens a sample), their statistics, its metric
/// (tokens/s by the median) and timing method.
void SetSamples(results::ResultRow& row, std::vector<double> times_ms, double tokens,
                bool gpu_clock);

/// Fills `figures`' two bounds (its bytes and dispatches already set) from `ceilings`, each with
/// the fraction of it a sample of `median_ms` reaches.
void SetBounds(results::DecodeFigures& figures, const DecodeCeilings& ceilings, double median_ms);

/// Runs `body` for `row` and ends the row: ok when it returns, error with the message (and a
/// failed check's record) when it throws an Error of the row's own; a lost device propagates.
/// `observer` (may be null) sees the row before and after.
void RunRow(results::ResultRow& row, results::RunObserver* observer,
            const std::function<void()>& body);

}  // namespace refract::suites::decode
