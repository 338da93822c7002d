#include "suites/decode/decode_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "base/error.h"
#include "decode/model_spec.h"
#include "measure/statistics.h"
#include "ops/axis.h"
#include "ops/matmul_rules.h"
#include "reference/compare.h"
#include "results/row_identity.h"
#include "suites/decode/decode_steps.h"

namespace refract::suites::decode {
namespace {

using refract::decode::DecodeEngine;
using refract::decode::StepDispatch;

/// Records `count` steps from the engine's position as the request records them — each step its
/// own pass with its values written by the host, or all in one pass advanced on the GPU — and
/// submits them; timestamps `begin`, `end` around the pass with `queries` (a step a submit: give
/// queries only with a count of 1).
void SubmitSteps(DecodeEngine& engine, gpu::CommandRecorder& recorder, const DecodeRequest& request,
                 uint32_t first_index, uint32_t count, gpu::TimestampQueries* queries = nullptr,
                 uint32_t begin = 0, uint32_t end = 0) {
  if (request.steps_per_submit > 1) {
    engine.WriteStepValues(first_index);
    engine.RecordSteps(recorder, count, queries, begin, end);
    recorder.Submit();
    engine.SetPosition(engine.position() + count);
    return;
  }
  for (uint32_t step = 0; step < count; ++step) {
    engine.WriteStepValues(first_index + step);
    refract::decode::RecordStep(recorder, engine.step(), queries, begin, end);
    recorder.Submit();
    engine.Advance();
  }
}

/// Runs request.verify_steps steps from the history's end on the GPU, reading each step's
/// logits, and the same on the CPU model fed the GPU's tokens. Returns the combined record.
VerificationRecord VerifySteps(gpu::Context& context, DecodeEngine& engine,
                               const DecodeModel& model,
                               const std::vector<reference::LayerHistory>& history,
                               const DecodeRequest& request, uint32_t first_token) {
  ReferenceSteps cpu(model, engine.capacity(), request.activations);
  cpu.SetHistory(history, request.context);
  VerificationRecord combined;
  uint32_t token = first_token;
  engine.SetToken(token);
  for (uint32_t step = 0; step < request.verify_steps; ++step) {
    const uint32_t position = engine.position();
    engine.WriteStepValues(step);
    gpu::CommandRecorder recorder(context);
    refract::decode::RecordStep(recorder, engine.step());
    recorder.Submit();
    engine.Advance();
    const std::vector<float> gpu_logits = engine.ReadLogits();
    const uint32_t gpu_token = engine.ReadGenerated(step + 1).back();
    const std::vector<float> cpu_logits = cpu.Step(token);
    Combine(combined, CheckStep(fmt::format("decode step {} (position {})", step, position),
                                gpu_logits, cpu_logits, gpu_token, cpu.allowance()));
    token = gpu_token;
  }
  return combined;
}

/// request.steps_per_submit > 1: max(2, verify_steps) steps from the history's end recorded into
/// one pass (the GPU advancing their values) and submitted once; each step's token checked
/// against the CPU model's (fed the GPU's tokens), the last step's logits too.
VerificationRecord VerifyChainedSteps(gpu::Context& context, DecodeEngine& engine,
                                      const DecodeModel& model,
                                      const std::vector<reference::LayerHistory>& history,
                                      const DecodeRequest& request, uint32_t first_token) {
  const uint32_t steps = std::min(std::max(2u, request.verify_steps), request.steps_per_submit);
  ReferenceSteps cpu(model, engine.capacity(), request.activations);
  cpu.SetHistory(history, request.context);
  engine.SetPosition(request.context);
  engine.SetToken(first_token);
  gpu::CommandRecorder recorder(context);
  SubmitSteps(engine, recorder, request, 0, steps);
  const std::vector<uint32_t> tokens = engine.ReadGenerated(steps);
  const std::vector<float> gpu_logits = engine.ReadLogits();
  VerificationRecord combined;
  uint32_t token = first_token;
  for (uint32_t step = 0; step < steps; ++step) {
    const std::vector<float> cpu_logits = cpu.Step(token);
    const std::string what = fmt::format("step {} of {} in one submit (position {})", step, steps,
                                         request.context + step);
    if (step + 1 < steps) {
      CheckToken(what, cpu_logits, tokens[step], cpu.allowance());
    } else {
      Combine(combined, CheckStep(what, gpu_logits, cpu_logits, tokens[step], cpu.allowance()));
    }
    token = tokens[step];
  }
  return combined;
}

/// What the timed steps measured.
struct StepTiming {
  std::vector<double> period_ms;  ///< a submit's end − the previous one's, a step (or wall)
  std::vector<double> busy_ms;    ///< a submit's pass, GPU clock, a step
  std::vector<double> host_ms;    ///< writing, recording and submitting a submit, host, a step
  double wall_ms_per_token = 0;
  bool gpu_clock = false;
  uint64_t dispatches = 0;         ///< a token
  double passes = 0, submits = 0;  ///< a token
  bool settled = true;             ///< the warm-up's step time settled (WarmUp)
};

/// After the warm-up, request.tokens steps from position S in submits of
/// request.steps_per_submit steps, submitted back to back; timestamps at each pass's start and
/// end, read after the last: a sample is a submit's period (end to end) over its steps.
StepTiming TimeSteps(gpu::Context& context, DecodeEngine& engine, const DecodeRequest& request,
                     uint32_t first_token) {
  StepTiming timing;
  gpu::CommandRecorder warmup(context);
  timing.settled = WarmUp(context, [&] {
    // request.warmup steps at positions S .. S + warmup − 1, rewound each time, so that the
    // context does not grow.
    engine.SetPosition(request.context);
    for (uint32_t step = 0; step < request.warmup; step += request.steps_per_submit) {
      SubmitSteps(engine, warmup, request, step,
                  std::min(request.steps_per_submit, request.warmup - step));
    }
    return request.warmup;
  });
  const uint32_t total = request.tokens;
  const uint32_t chunk = std::min(request.steps_per_submit, total);
  const uint32_t submits = (total + chunk - 1) / chunk;
  const bool stamped = request.timestamps && context.HasFeature(gpu::Feature::kTimestampQuery);
  std::unique_ptr<gpu::TimestampQueries> queries;
  if (stamped) queries = std::make_unique<gpu::TimestampQueries>(context, 2 * submits);
  timing.gpu_clock = stamped;
  engine.SetPosition(request.context);
  engine.SetToken(first_token);
  gpu::CommandRecorder recorder(context);
  // Without timestamps the submits go in groups of 8 steps or more, each waited for: a group's
  // wall time over its steps is a sample.
  const uint32_t wait_every = std::max(1u, 8 / chunk);
  const Clock::time_point start = Clock::now();
  Clock::time_point group_start = start;
  uint32_t group_steps = 0;
  std::vector<uint32_t> steps_of;  // each submit's steps
  for (uint32_t s = 0; s < submits; ++s) {
    const uint32_t first = s * chunk;
    const uint32_t count = std::min(chunk, total - first);
    const Clock::time_point issue = Clock::now();
    SubmitSteps(engine, recorder, request, first, count, queries.get(), 2 * s, 2 * s + 1);
    timing.host_ms.push_back(MsSince(issue) / count);
    steps_of.push_back(count);
    group_steps += count;
    if (!stamped && ((s + 1) % wait_every == 0 || s + 1 == submits)) {
      context.WaitIdle();
      timing.period_ms.push_back(MsSince(group_start) / group_steps);
      group_start = Clock::now();
      group_steps = 0;
    }
  }
  context.WaitIdle();
  timing.wall_ms_per_token = MsSince(start) / total;
  timing.dispatches = recorder.dispatches() / total;
  timing.passes = static_cast<double>(recorder.passes()) / total;
  timing.submits = static_cast<double>(recorder.submits()) / total;
  if (stamped) {
    const std::vector<uint64_t> stamps = queries->Read(2 * submits);
    for (uint32_t s = 0; s < submits; ++s) {
      const double begin = static_cast<double>(stamps[2 * s]);
      const double end = static_cast<double>(stamps[2 * s + 1]);
      timing.busy_ms.push_back((end - begin) / 1e6 / steps_of[s]);
      // The first submit follows an idle queue: its period is its own pass.
      const double previous_end = s == 0 ? begin : static_cast<double>(stamps[2 * s - 1]);
      timing.period_ms.push_back((end - previous_end) / 1e6 / steps_of[s]);
    }
  }
  return timing;
}

/// What each kind of dispatch costs the step, by ablation: the step's pass timed whole and
/// without one kind's dispatches at a time (the others run as they are, on whatever their inputs
/// hold then: no kernel's time depends on the values), request.profile_steps steps each, in the
/// order whole, each kind, whole again. A kind's cost is the whole step's median less the
/// median without it: what removing it saves, at full speed (a timestamp after every dispatch
/// would cost the step over twice its time and blame the cost on whichever kind runs next).
struct Split {
  std::string method;
  double ms_per_token = 0;  ///< the whole step's median pass in these runs
  std::vector<results::DecodeKindTime> kinds;
};

/// The median busy time [ms] of `steps` steps of `dispatches` from position request.context,
/// each step its own pass and submit, timestamps around each pass.
double MedianPassMs(gpu::Context& context, DecodeEngine& engine, const DecodeRequest& request,
                    std::span<const StepDispatch> dispatches, uint32_t first_token) {
  const uint32_t steps = request.profile_steps;
  gpu::TimestampQueries queries(context, 2 * steps);
  engine.SetPosition(request.context);
  engine.SetToken(first_token);
  gpu::CommandRecorder recorder(context);
  for (uint32_t s = 0; s < steps; ++s) {
    engine.WriteStepValues(s);
    refract::decode::RecordStep(recorder, dispatches, &queries, 2 * s, 2 * s + 1);
    recorder.Submit();
    engine.Advance();
  }
  const std::vector<uint64_t> stamps = queries.Read(2 * steps);
  std::vector<double> busy;
  for (uint32_t s = 0; s < steps; ++s) {
    if (stamps[2 * s + 1] > stamps[2 * s]) {
      busy.push_back(static_cast<double>(stamps[2 * s + 1] - stamps[2 * s]) / 1e6);
    }
  }
  REFRACT_THROW_IF(busy.empty(), GpuError, "the ablation's timestamps did not advance");
  return measure::Summarize(busy).median;
}

Split AblateSteps(gpu::Context& context, DecodeEngine& engine, const DecodeRequest& request,
                  uint32_t first_token) {
  // A token's dispatches as the run records them.
  const std::vector<StepDispatch>& step = engine.step();
  std::vector<std::string> kinds;
  std::map<std::string, uint64_t> count;
  for (const StepDispatch& d : step) {
    if (count[d.kind]++ == 0) kinds.push_back(d.kind);
  }
  auto without = [&](const std::string& kind) {
    std::vector<StepDispatch> rest;
    for (const StepDispatch& d : step) {
      if (d.kind != kind) rest.push_back(d);
    }
    return rest;
  };
  const double whole_before = MedianPassMs(context, engine, request, step, first_token);
  std::vector<double> without_ms;
  for (const std::string& kind : kinds) {
    without_ms.push_back(MedianPassMs(context, engine, request, without(kind), first_token));
  }
  const double whole_after = MedianPassMs(context, engine, request, step, first_token);
  Split split;
  split.method = fmt::format(
      "ablation: the step's pass without each kind's dispatches against the whole step (medians "
      "of {} steps each; the whole step {:.4g} ms before and {:.4g} ms after them)",
      request.profile_steps, whole_before, whole_after);
  split.ms_per_token = (whole_before + whole_after) / 2;
  for (size_t k = 0; k < kinds.size(); ++k) {
    split.kinds.push_back({.kind = kinds[k],
                           .dispatches = count[kinds[k]],
                           .ms = split.ms_per_token - without_ms[k]});
  }
  return split;
}

}  // namespace

std::string ToString(reference::DecoderActivations activations) {
  return activations == reference::DecoderActivations::kQ8 ? "q8" : "f32";
}

void SetFusion(results::ResultRow& row, const DecodeRequest& request) {
  if (request.activations == reference::DecoderActivations::kQ8) {
    using refract::decode::MergeFusion;
    const char* fusion = !request.fuse                                  ? "off"
                         : request.merge == MergeFusion::kInOGemv    ? "o-merge"
                         : request.merge == MergeFusion::kByHead     ? "o-heads"
                         : request.merge == MergeFusion::kOwnDispatch ? "own-merge"
                         : request.fuse_down                          ? "down"
                                                                      : "on";
    row.params["fusion"] = std::string(fusion);
  }
}

void SetAttentionParams(results::ResultRow& row, const refract::decode::DecodeEngine& engine) {
  using refract::decode::MergeFusion;
  row.params["attention"] =
      ops::SettingsText(ops::kAttentionDecodeRules.axes().ValuesOf(engine.attention_config()));
  if (!row.params.contains("fusion")) return;  // f32: every op apart
  row.params["merge"] = std::string(engine.merge() == MergeFusion::kByHead    ? "by-head"
                                    : engine.merge() == MergeFusion::kInOGemv ? "o-gemv"
                                                                              : "own");
  if (const auto& down = engine.fused_down_config()) {
    row.params["down"] = "in-gate-up";
    row.params["gate_up_down"] = ops::SettingsText(ops::kGemvQ8Rules.axes().ValuesOf(*down));
  }
}

uint32_t DecodeCapacity(const DecodeRequest& request) {
  return request.context + std::max({request.verify_steps, request.warmup, request.tokens,
                                     request.profile_steps, 2u});
}

std::string DecodeRowId(const reference::DecoderShape& shape, const DecodeRequest& request) {
  return fmt::format("{}/tg{}@d{}", shape.name, request.tokens, request.context);
}

ReadSteps RunReadSteps(gpu::Context& context, const DecodeModel& model, uint32_t positions,
                       uint32_t steps, uint64_t seed) {
  const reference::DecoderShape& shape = model.shape();
  DecodeEngine engine(context, shape, model.gpu_weights(),
                      {.capacity = positions + steps, .max_steps = steps});
  ReadSteps read{.history = History(shape, positions, seed),
                 .tokens = {FirstToken(shape, seed)},
                 .logits = {}};
  engine.LoadHistory(read.history, positions);
  engine.SetToken(read.tokens.front());
  for (uint32_t step = 0; step < steps; ++step) {
    engine.WriteStepValues(step);
    gpu::CommandRecorder recorder(context);
    refract::decode::RecordStep(recorder, engine.step());
    recorder.Submit();
    engine.Advance();
    read.logits.push_back(engine.ReadLogits());
    read.tokens.push_back(engine.ReadGenerated(step + 1).back());
  }
  return read;
}

DecodeModel::DecodeModel(gpu::Context& context, reference::DecoderShape shape, uint64_t seed)
    : DecodeModel(context, shape, reference::SyntheticDecoderWeights(shape, seed), seed) {}

DecodeModel::DecodeModel(gpu::Context& context, reference::DecoderShape shape,
                         reference::DecoderWeights weights, uint64_t seed)
    : shape_(std::move(shape)),
      seed_(seed),
      weights_(std::move(weights)),
      gpu_weights_(refract::decode::UploadDecoderWeights(context, shape_, weights_)) {}

results::ResultRow RunDecodeRow(gpu::Context& context, const DecodeModel& model,
                                const DecodeRequest& request, const DecodeCeilings& ceilings,
                                uint64_t seed, results::RunObserver* observer) {
  const reference::DecoderShape& shape = model.shape();
  results::ResultRow row =
      NewRow(DecodeRowId(shape, request), shape, "decode", request.context, request.tokens,
             request.activations,
             fmt::format("{}'s whole decode step ({} layers, q4 weights, {} activations) after {} "
                         "positions of KV history, a token a command buffer",
                         shape.name, shape.layers, ToString(request.activations), request.context));
  SetFusion(row, request);
  RunRow(row, observer, [&] {
    const uint32_t steps = DecodeCapacity(request) - request.context;
    DecodeEngine engine(context, shape, model.gpu_weights(),
                        {.capacity = request.context + steps,
                         .max_steps = steps,
                         .activations = request.activations,
                         .gemvs = request.gemvs,
                         .attention = request.attention,
                         .fuse = request.fuse,
                         .merge = request.merge,
                         .fuse_down = request.fuse_down});
    SetAttentionParams(row, engine);
    const std::vector<reference::LayerHistory> history = History(shape, request.context, seed);
    engine.LoadHistory(history, request.context);
    const uint32_t first = FirstToken(shape, seed);
    row.verification = VerifySteps(context, engine, model, history, request, first);
    if (request.steps_per_submit > 1) {
      Combine(row.verification,
              VerifyChainedSteps(context, engine, model, history, request, first));
    }
    if (observer != nullptr) observer->OnRow(row);

    engine.SetPosition(request.context);
    const StepTiming timing = TimeSteps(context, engine, request, first);
    Split split;
    if (request.profile_steps > 0 && request.timestamps &&
        context.HasFeature(gpu::Feature::kTimestampQuery)) {
      engine.SetPosition(request.context);
      split = AblateSteps(context, engine, request, first);
    }
    SetSamples(row, timing.period_ms, 1, timing.gpu_clock);
    results::DecodeFigures d;
    d.context = request.context;
    d.tokens = request.tokens;
    d.dispatches = timing.dispatches;
    d.passes = timing.passes;
    d.submits = timing.submits;
    d.wall_ms = timing.wall_ms_per_token;
    if (!timing.busy_ms.empty()) d.gpu_ms = measure::Summarize(timing.busy_ms).median;
    d.host_ms = measure::Summarize(timing.host_ms).median;
    d.weight_bytes = refract::decode::WeightBytesPerToken(shape);
    d.cache_bytes =
        refract::decode::CacheBytesPerToken(shape, request.context + request.tokens / 2 + 1);
    SetBounds(d, ceilings, row.stats.median);
    if (!split.kinds.empty()) {
      d.split_method = split.method;
      d.split_ms = split.ms_per_token > 0 ? split.ms_per_token : results::kNoValue;
      d.split = split.kinds;
      const uint32_t median_kv = request.context + request.tokens / 2 + 1;  // as cache_bytes
      for (results::DecodeKindTime& kind : d.split) {
        if (!(kind.ms > 0)) kind.ms = results::kNoValue;  // within the runs' noise
        kind.bytes = refract::decode::KindBytesPerToken(
            shape, kind.kind, median_kv, request.activations == reference::DecoderActivations::kQ8,
            kind.dispatches);
      }
    }
    row.decode = d;
    row.notes.push_back(fmt::format(
        "timed steps at positions {} to {} ({} a submit), after a warm-up of {} steps at a time "
        "at positions {} on until the step time settled; verified: the first {} steps from "
        "position {} against the CPU model{}",
        request.context, request.context + request.tokens - 1, request.steps_per_submit,
        request.warmup, request.context, request.verify_steps, request.context,
        request.steps_per_submit > 1 ? ", a step a submit, then in one submit" : ""));
    row.notes.insert(row.notes.end(), request.gemv_sources.begin(), request.gemv_sources.end());
    if (!request.attention_source.empty()) row.notes.push_back(request.attention_source);
    if (!timing.settled) {
      row.flags.push_back("unsettled");
      row.flag_reasons.push_back(fmt::format(
          "the step time still changed by over 3 % between warm-up chunks after {:.0f} s (a GPU "
          "changing its clocks): the figure may not be the settled one",
          kMaxWarmupMs / 1000));
    }
  });
  return row;
}

}  // namespace refract::suites::decode
