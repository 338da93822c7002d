#include "suites/decode/decode_steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "base/error.h"
#include "bench/row_fill.h"
#include "measure/statistics.h"
#include "reference/compare.h"
#include "reference/random_data.h"
#include "results/row_identity.h"
#include "suites/decode/decode_rows.h"
#include "suites/decode/decode_rules.h"

namespace refract::suites::decode {

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<reference::LayerHistory> History(const reference::DecoderShape& shape,
                                             uint32_t positions, uint64_t seed) {
  std::vector<reference::LayerHistory> history;
  for (uint32_t layer = 0; layer < shape.layers; ++layer) {
    history.push_back(reference::SyntheticHistory(shape, layer, positions, seed));
  }
  return history;
}

uint32_t FirstToken(const reference::DecoderShape& shape, uint64_t seed) {
  return static_cast<uint32_t>((seed * 0x9e3779b97f4a7c15ull >> 17) % shape.vocab);
}

std::vector<uint32_t> PromptTokens(const reference::DecoderShape& shape, uint32_t count,
                                   uint64_t seed) {
  return reference::RandomIndices(count, seed ^ 0x70726f6d7074ull, shape.vocab);  // "prompt"
}

ReferenceSteps::ReferenceSteps(const DecodeModel& model, uint32_t capacity,
                               reference::DecoderActivations activations)
    : activations_(activations), model_(model.shape(), model.weights(), capacity, activations) {
  if (activations == reference::DecoderActivations::kQ8) {
    f32_twin_.emplace(model.shape(), model.weights(), capacity);
  }
}

void ReferenceSteps::SetHistory(std::span<const reference::LayerHistory> history,
                                uint32_t positions) {
  model_.SetHistory(history, positions);
  if (f32_twin_) f32_twin_->SetHistory(history, positions);
}

std::vector<float> ReferenceSteps::Step(uint32_t token, bool logits) {
  std::vector<float> out = model_.Step(token, logits);
  allowance_ = 0;
  if (!f32_twin_) return out;
  const std::vector<float> f32 = f32_twin_->Step(token, logits);
  for (size_t i = 0; i < out.size(); ++i) {
    allowance_ = std::max(allowance_, kQ8GapShare * std::abs(double{out[i]} - f32[i]));
  }
  return out;
}

std::vector<float> ReferenceSteps::Prompt(std::span<const uint32_t> tokens) {
  REFRACT_THROW_IF(tokens.empty(), UsageError, "an empty prompt");
  using reference::DecoderActivations;
  model_.SetActivations(DecoderActivations::kF32, activations_);
  for (size_t i = 0; i + 1 < tokens.size(); ++i) model_.Step(tokens[i], /*logits=*/false);
  if (f32_twin_) {
    f32_twin_.emplace(model_);
    f32_twin_->SetActivations(DecoderActivations::kF32, DecoderActivations::kF32);
  }
  std::vector<float> logits = Step(tokens.back());
  model_.SetActivations(activations_, activations_);
  return logits;
}

namespace {

/// The absolute tolerance of a step's logits against the model's `cpu`.
double LogitTolerance(std::span<const float> cpu, double allowance) {
  return kLogitTolerance * reference::MaxMagnitude(cpu) + allowance;
}

}  // namespace

void CheckToken(const std::string& what, std::span<const float> cpu, uint32_t gpu_token,
                double allowance) {
  const double tolerance = LogitTolerance(cpu, allowance);
  const uint32_t cpu_best = reference::Argmax(cpu);
  if (gpu_token >= cpu.size()) {
    throw VerificationError(fmt::format("{}: the GPU chose token {}, past the vocabulary of {}",
                                        what, gpu_token, cpu.size()));
  }
  if (gpu_token != cpu_best && cpu[cpu_best] - cpu[gpu_token] > 2 * tolerance) {
    throw VerificationError(
        fmt::format("{}: the GPU chose token {} where the CPU model chooses {} (model logits "
                    "{} and {}, further apart than twice the tolerance {:.3g})",
                    what, gpu_token, cpu_best, cpu[gpu_token], cpu[cpu_best], tolerance));
  }
}

VerificationRecord CheckStep(const std::string& what, std::span<const float> gpu,
                             std::span<const float> cpu, uint32_t gpu_token, double allowance) {
  const Tolerance tolerance{.absolute = LogitTolerance(cpu, allowance), .relative = 0};
  VerificationRecord record = reference::Compare(
      what + " logits", gpu, cpu, tolerance, [](size_t i) { return fmt::format("token {}", i); });
  // The GPU's argmax ran on these very logits: it must give the model's rule's answer on them,
  // ties included (the first of equal largest values).
  const uint32_t own_best = reference::Argmax(gpu);
  if (gpu_token != own_best) {
    throw VerificationError(
        fmt::format("{}: the GPU's argmax chose token {} (logit {}) where its own logits' first "
                    "largest is token {} ({})",
                    what, gpu_token, gpu_token < gpu.size() ? gpu[gpu_token] : 0.0f, own_best,
                    gpu[own_best]),
        record);
  }
  try {
    CheckToken(what, cpu, gpu_token, allowance);
  } catch (const VerificationError& error) {
    throw VerificationError(error.what(), record);
  }
  return record;
}

void Combine(VerificationRecord& combined, const VerificationRecord& step) {
  combined.elements += step.elements;
  combined.max_abs_error = std::max(combined.max_abs_error, step.max_abs_error);
  combined.tolerance = step.tolerance;
}

bool WarmUp(gpu::Context& context, const std::function<uint32_t()>& chunk) {
  const Clock::time_point begin = Clock::now();
  double previous = 0;
  while (true) {
    const Clock::time_point start = Clock::now();
    const uint32_t units = chunk();
    context.WaitIdle();
    const double ms = MsSince(start) / units;
    const double elapsed = MsSince(begin);
    if (elapsed >= kMinWarmupMs && std::abs(ms - previous) <= 0.03 * previous) return true;
    if (elapsed >= kMaxWarmupMs) return false;
    previous = ms;
  }
}

results::ResultRow NewRow(std::string id, const reference::DecoderShape& shape,
                          const std::string& phase, uint32_t context, uint32_t tokens,
                          reference::DecoderActivations activations, std::string description) {
  results::ResultRow row;
  row.id = std::move(id);
  row.category = "decode";
  results::RowIdentity identity;
  identity.model = shape.name;
  identity.phase = phase;
  row.params = results::WithIdentity({{"context", context},
                                      {"tokens", tokens},
                                      {"layers", shape.layers},
                                      {"activations", ToString(activations)}},
                                     identity);
  row.unit = "tokens/s";
  row.statistic = "median";
  row.description = std::move(description);
  return row;
}

void SetSamples(results::ResultRow& row, std::vector<double> times_ms, double tokens,
                bool gpu_clock) {
  for (double ms : times_ms) {
    REFRACT_THROW_IF(!(ms > 0) || !std::isfinite(ms), GpuError,
                     "a sample timed " + std::to_string(ms) + " ms: the clock cannot be trusted");
  }
  row.times_ms = std::move(times_ms);
  row.stats = bench::ResultStatistics(measure::Summarize(row.times_ms));
  row.metric_value = tokens * 1000.0 / row.stats.median;
  if (std::optional<std::string> reason = SampleSpreadReason(row.stats)) {
    row.flags.push_back("spread");
    row.flag_reasons.push_back(*reason);
  }
  row.timing_method = gpu_clock ? "gpu-timestamp" : "wall-clock";
  row.stop_reason = "sample-count";
  row.work_per_dispatch = tokens;  // tokens a sample
  row.dispatches_per_sample = 1;
}

void SetBounds(results::DecodeFigures& d, const DecodeCeilings& ceilings, double median_ms) {
  d.read_bandwidth = ceilings.read_bandwidth_Bps;
  if (std::isfinite(ceilings.read_bandwidth_Bps) && ceilings.read_bandwidth_Bps > 0) {
    d.bandwidth_bound_ms = (d.weight_bytes + d.cache_bytes) / ceilings.read_bandwidth_Bps * 1e3;
    d.bandwidth_fraction = d.bandwidth_bound_ms / median_ms;
  }
  d.dispatch_floor_ms = ceilings.dispatch_floor_ms;
  if (std::isfinite(ceilings.dispatch_floor_ms) && ceilings.dispatch_floor_ms > 0) {
    d.dispatch_bound_ms = static_cast<double>(d.dispatches) * ceilings.dispatch_floor_ms;
    d.dispatch_fraction = d.dispatch_bound_ms / median_ms;
  }
}

void RunRow(results::ResultRow& row, results::RunObserver* observer,
            const std::function<void()>& body) {
  auto report = [&] {
    if (observer != nullptr) observer->OnRow(row);
  };
  report();
  try {
    body();
    row.status = results::RowStatus::kOk;
  } catch (const VerificationError& error) {
    row.status = results::RowStatus::kError;
    row.message = error.what();
    if (error.record()) row.verification = *error.record();
  } catch (const DeviceLostError&) {
    throw;
  } catch (const Error& error) {
    row.status = results::RowStatus::kError;
    row.message = error.what();
  }
  report();
}

}  // namespace refract::suites::decode
