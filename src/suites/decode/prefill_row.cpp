// The prefill row of refract decode (decode_rows.h, RunPrefillRow).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "base/error.h"
#include "decode/model_spec.h"
#include "suites/decode/decode_rows.h"
#include "suites/decode/decode_steps.h"

namespace refract::suites::decode {
namespace {

using refract::decode::DecodeEngine;

/// Prefills timed after the warm-up.
constexpr uint32_t kTimedPrefills = 10;

/// The prefill's last logits and token and request.verify_steps decode steps after it, on the
/// GPU and on the CPU model (fed the prompt, then the GPU's tokens).
VerificationRecord VerifyPrefill(gpu::Context& context, DecodeEngine& engine,
                                 const DecodeModel& model, const DecodeRequest& request,
                                 const std::vector<uint32_t>& prompt, uint64_t seed) {
  ReferenceSteps cpu(model, engine.capacity(), request.activations);
  cpu.SetHistory(History(model.shape(), request.context, seed), request.context);
  const std::vector<float> cpu_logits = cpu.Prompt(prompt);
  engine.SetPosition(request.context);
  engine.WriteStepValues(0);
  gpu::CommandRecorder recorder(context);
  engine.RecordPrefill(recorder);
  recorder.Submit();
  VerificationRecord combined;
  uint32_t token = engine.ReadGenerated(1).back();
  Combine(combined, CheckStep(fmt::format("the prefill of {} tokens", prompt.size()),
                              engine.ReadLogits(), cpu_logits, token, cpu.allowance()));
  engine.SetPosition(request.context + request.prompt);
  engine.SetToken(token);
  for (uint32_t step = 1; step <= request.verify_steps; ++step) {
    const uint32_t position = engine.position();
    engine.WriteStepValues(step);
    refract::decode::RecordStep(recorder, engine.step());
    recorder.Submit();
    engine.Advance();
    const uint32_t gpu_token = engine.ReadGenerated(step + 1).back();
    const std::vector<float> cpu_logits_now = cpu.Step(token);
    Combine(combined,
            CheckStep(fmt::format("decode step {} after the prefill (position {})", step, position),
                      engine.ReadLogits(), cpu_logits_now, gpu_token, cpu.allowance()));
    token = gpu_token;
  }
  return combined;
}

}  // namespace

std::string PrefillRowId(const reference::DecoderShape& shape, const DecodeRequest& request) {
  return fmt::format("{}/pp{}@d{}", shape.name, request.prompt, request.context);
}

results::ResultRow RunPrefillRow(gpu::Context& context, const DecodeModel& model,
                                 const DecodeRequest& request, const DecodeCeilings& ceilings,
                                 uint64_t seed, results::RunObserver* observer) {
  const reference::DecoderShape& shape = model.shape();
  results::ResultRow row = NewRow(
      PrefillRowId(shape, request), shape, "prefill", request.context, request.prompt,
      request.activations,
      fmt::format("{}'s prefill of {} tokens after {} positions of KV history: every layer's "
                  "GEMMs and causal attention in one pass, the LM head and argmax of the last "
                  "row in a second",
                  shape.name, request.prompt, request.context));
  SetFusion(row, request);
  RunRow(row, observer, [&] {
    REFRACT_THROW_IF(request.prompt < 2, UsageError,
                     "a prefill needs a prompt of 2 tokens or more");
    DecodeEngine engine(context, shape, model.gpu_weights(),
                        {.capacity = request.context + request.prompt + request.verify_steps,
                         .max_steps = request.verify_steps + 1,
                         .prompt = request.prompt,
                         .prefill_at = request.context,
                         .activations = request.activations,
                         .gemvs = request.gemvs,
                         .attention = request.attention,
                         .fuse = request.fuse,
                         .merge = request.merge,
                         .fuse_down = request.fuse_down});
    SetAttentionParams(row, engine);
    engine.LoadHistory(History(shape, request.context, seed), request.context);
    const std::vector<uint32_t> prompt = PromptTokens(shape, request.prompt, seed);
    engine.SetPrompt(prompt);
    row.verification = VerifyPrefill(context, engine, model, request, prompt, seed);
    if (observer != nullptr) observer->OnRow(row);

    gpu::CommandRecorder recorder(context);
    auto one_prefill = [&](gpu::TimestampQueries* queries, uint32_t begin) {
      engine.SetPosition(request.context);
      engine.WriteStepValues(0);
      engine.RecordPrefill(recorder, queries, begin, begin + 3);
      recorder.Submit();
    };
    const bool settled = WarmUp(context, [&] {
      one_prefill(nullptr, 0);
      return 1u;
    });
    const bool stamped = request.timestamps && context.HasFeature(gpu::Feature::kTimestampQuery);
    std::unique_ptr<gpu::TimestampQueries> queries;
    if (stamped) queries = std::make_unique<gpu::TimestampQueries>(context, 4 * kTimedPrefills);
    const uint64_t dispatches_before = recorder.dispatches();
    const uint64_t passes_before = recorder.passes();
    std::vector<double> times_ms;
    for (uint32_t i = 0; i < kTimedPrefills; ++i) {
      const Clock::time_point start = Clock::now();
      one_prefill(queries.get(), 4 * i);
      if (!stamped) {
        context.WaitIdle();
        times_ms.push_back(MsSince(start));
      }
    }
    context.WaitIdle();
    if (stamped) {
      const std::vector<uint64_t> stamps = queries->Read(4 * kTimedPrefills);
      for (uint32_t i = 0; i < kTimedPrefills; ++i) {
        times_ms.push_back(static_cast<double>(stamps[4 * i + 3] - stamps[4 * i]) / 1e6);
      }
    }
    SetSamples(row, std::move(times_ms), request.prompt, stamped);
    results::DecodeFigures d;
    d.context = request.context;
    d.tokens = request.prompt;
    d.dispatches = (recorder.dispatches() - dispatches_before) / kTimedPrefills;
    d.passes = static_cast<double>(recorder.passes() - passes_before) / kTimedPrefills;
    d.submits = 1;
    if (stamped) d.gpu_ms = row.stats.median;
    // The weights are read once a prefill at least, the cache up to its end once.
    d.weight_bytes = refract::decode::WeightBytesPerToken(shape);
    d.cache_bytes = refract::decode::CacheBytesPerToken(shape, request.context + request.prompt);
    SetBounds(d, ceilings, row.stats.median);
    row.decode = d;
    row.notes.push_back(fmt::format(
        "{} prefills at positions {} to {} timed after a warm-up; verified: the last row's "
        "logits and token, then {} decode steps over the cache it wrote",
        kTimedPrefills, request.context, request.context + request.prompt - 1,
        request.verify_steps));
    if (!settled) {
      row.flags.push_back("unsettled");
      row.flag_reasons.push_back(
          "the prefill's time still changed by over 3 % between warm-up runs after 5 s: the "
          "figure may not be the settled one");
    }
  });
  return row;
}

}  // namespace refract::suites::decode
