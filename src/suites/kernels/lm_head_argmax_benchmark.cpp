#include "suites/kernels/lm_head_argmax_benchmark.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "decode/engine_parts.h"
#include "decode/fused_gemvs.h"
#include "decode/model_spec.h"
#include "gpu/transfer.h"
#include "ops/op.h"
#include "ops/op_kinds.h"
#include "reference/compare.h"
#include "reference/llm_matmul.h"
#include "reference/llm_q4.h"
#include "reference/llm_q8.h"
#include "suites/kernels/kernel_support.h"

namespace refract::suites::kernels {
namespace {

using refract::decode::FusedHeadArgmax;
namespace parts = refract::decode::parts;

/// decode_argmax_rule_part.wgsl's Best.
struct Best {
  float value;
  uint32_t index;
};
static_assert(sizeof(Best) == 8);

/// The rule's order: a larger value, or an equal one at a lower index.
bool Beats(float value, uint32_t index, const Best& best) {
  return value > best.value || (value == best.value && index < best.index);
}

KernelCost LmHeadCost(const ModelConfig& m) {
  const double n = m.vocab, k = m.hidden, blocks = reference::Q4Blocks(m.hidden);
  // The GEMV's FLOP; bytes: the weights and their scales, the input's codes and (d, Σq) a block,
  // the logits written once (the partials are a few KB).
  return {.flops = 2 * n * k, .bytes = n * k / 2 + n * blocks * 4 + k + blocks * 8 + 4 * n};
}

}  // namespace

LmHeadArgmaxBenchmark::LmHeadArgmaxBenchmark(bench::BenchmarkInfo info, Variant variant,
                                             const ModelConfig& model, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, LmHeadCost(model),
                      std::move(options)),
      model_(model) {}

ops::Refusal LmHeadArgmaxBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (auto refusal = Q8GemvRefusal(model_.hidden, model_.vocab, limits, options().settings)) {
    return refusal;
  }
  if (variant() == Variant::kTuned &&
      !FusedHeadArgmax::ConfigFor(ops::kGemvQ8Rules.Resolve(Q8GemvShape(model_.hidden, model_.vocab),
                                                             limits, options().settings),
                                  refract::decode::LoadModel(model_.name), limits)) {
    return std::string("the fused LM head does not fit this configuration on this device");
  }
  return std::nullopt;
}

std::vector<ops::Axis> LmHeadArgmaxBenchmark::OpAxes() const {
  return ops::kGemvQ8Rules.axes().axes();
}

void LmHeadArgmaxBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const ModelConfig& m = model_;
  const reference::DecoderShape shape = refract::decode::LoadModel(m.name);
  const uint32_t n = m.vocab, k = m.hidden;
  inputs_ = MakeQ8GemvInputs(k, n, static_cast<float>(shape.rms_eps), options().seed);
  // The most likely row copied to its pair's row (index ^ 1, in the same partial's range at any
  // configuration: ranges are whole pairs): two equal largest logits, of which the rule takes
  // the lower index.
  logits_ = reference::GemvQ8(inputs_.matrix, inputs_.x);
  original_ = static_cast<uint32_t>(std::max_element(logits_.begin(), logits_.end()) -
                                    logits_.begin());
  copy_ = (original_ ^ 1u) < n ? original_ ^ 1u : original_ - 1;
  reference::Q4Matrix& w = inputs_.matrix;
  for (uint32_t row = 0; row < k; ++row) {
    w.codes[size_t{row} * n + copy_] = w.codes[size_t{row} * n + original_];
  }
  const uint32_t blocks = reference::Q4Blocks(k);
  std::copy_n(w.scales.begin() + size_t{original_} * blocks, blocks,
              w.scales.begin() + size_t{copy_} * blocks);
  inputs_.packed.packing = reference::PackMatMulNBits(w);
  logits_[copy_] = logits_[original_];

  const ops::MatmulShape gemv_shape = Q8GemvShape(k, n);
  const ops::GemvConfig config =
      ops::kGemvQ8Rules.Resolve(gemv_shape, context.limits(), options().settings);
  std::optional<FusedHeadArgmax> fused;
  std::optional<ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>> gemv;
  gpu::ComputePipeline partial;
  uint32_t partials = 0;
  if (variant() == Variant::kTuned) {
    const ops::GemvConfig fitted = *FusedHeadArgmax::ConfigFor(config, shape, context.limits());
    fused.emplace(context, shape, fitted);
    partials = fused->partials();
    logits_a_partial_ = fused->logits_a_partial();
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(fitted));
  } else {
    gemv.emplace(ops::kGemvQ8, context, gemv_shape, config, info().id);
    partials = parts::ArgmaxStageGroups(n);
    logits_a_partial_ = parts::kArgmaxWorkgroup * parts::kArgmaxPerThread;
    partial = parts::ArgmaxKernel(context, "partial", parts::kArgmaxWorkgroup, n, partials, k);
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(config));
  }
  SetParam("partials", partials);
  const std::vector<float> scale_sums = [&] {
    std::vector<float> values;
    for (uint32_t b = 0; b < blocks; ++b) {
      values.push_back(inputs_.x.scales[b]);
      values.push_back(inputs_.x.sums[b]);
    }
    return values;
  }();
  const parts::Q8Row in{
      .codes = gpu::Upload(context, reference::PackQ8Codes(inputs_.x.codes), gpu::kUsageStorage,
                           "x codes"),
      .scale_sums = gpu::Upload(context, scale_sums, gpu::kUsageStorage, "x scales and sums")};
  const reference::Q4Weight& used = inputs_.packed;
  BuildCopies(
      context, used.packing.b.size() + 4 * used.packing.scales.size(), [&](uint32_t) {
        const refract::decode::GpuQ4 head = parts::UploadQ4(context, used, "lm_head");
        const gpu::Buffer logits = StorageOf(context, n, "logits");
        const gpu::Buffer bests = StorageOf(context, uint64_t{partials} * 2, "argmax partials");
        Copy copy{.kept = {logits, bests}};
        if (fused) {
          copy.dispatches = {fused->Record(in, head, logits, bests)};
        } else {
          copy.dispatches = gemv->Record(context, {.a = in.codes,
                                                   .w = head.codes,
                                                   .scales = head.scales,
                                                   .zeros = {},
                                                   .c = logits,
                                                   .a_scales = in.scale_sums});
          copy.dispatches.push_back(
              ops::OneDispatch(context, partial, {logits, bests, {}, {}, {}}, partials));
        }
        return copy;
      });
}

VerificationRecord LmHeadArgmaxBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const uint32_t n = model_.vocab;
  const std::vector<float> gpu_logits = gpu::Download<float>(context, FirstCopyBuffer(0), n);
  const std::vector<Best> bests = gpu::Download<Best>(context, FirstCopyBuffer(1));
  reference::Comparison comparison(
      info().id, reference::MatmulTolerance(reference::MaxMagnitude(logits_)),
      [](size_t i) { return "logit " + std::to_string(i); });
  for (uint32_t i = 0; i < n; ++i) comparison.Check(i, gpu_logits[i], logits_[i]);
  // Whether the GPU's logits of the two equal rows are equal too (then the partial of their range
  // tests the rule's order among equal values).
  SetParam("equal_largest", gpu_logits[original_] == gpu_logits[copy_] ? "true" : "false");
  const uint32_t partials = (n + logits_a_partial_ - 1) / logits_a_partial_;
  if (bests.size() < partials) {
    comparison.Fail("the kernel wrote fewer partials than its ranges of logits");
    return comparison.Finish();
  }
  for (uint32_t g = 0; g < partials; ++g) {
    Best want{.value = 0, .index = ~0u};
    const uint32_t end = std::min(n, (g + 1) * logits_a_partial_);
    for (uint32_t i = g * logits_a_partial_; i < end; ++i) {
      if (std::isnan(gpu_logits[i])) continue;  // the rule never takes NaN
      if (want.index == ~0u || Beats(gpu_logits[i], i, want)) want = {gpu_logits[i], i};
    }
    if (bests[g].index != want.index || bests[g].value != want.value) {
      comparison.Fail("partial " + std::to_string(g) + " holds logit " +
                      std::to_string(bests[g].index) + " (" + std::to_string(bests[g].value) +
                      "), not its range's best by the rule, logit " + std::to_string(want.index) +
                      " (" + std::to_string(want.value) + ")");
    }
  }
  return comparison.Finish();
}

std::vector<std::unique_ptr<KernelBenchmark>> LmHeadArgmaxBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  const ModelConfig& m = Qwen25();
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    bench::BenchmarkInfo info = TokenRowInfo(
        "lm-head-argmax", m.name, 1, variant, "decode",
        variant == Variant::kTuned
            ? "q8 LM head GEMV whose workgroups each write the best of their logits, the argmax's "
              "first stage (one dispatch)"
            : "the unfused chain: the q8 LM head GEMV, then the argmax's first stage (two "
              "dispatches)",
        {{"n", m.vocab}, {"k", m.hidden}});
    rows.push_back(std::make_unique<LmHeadArgmaxBenchmark>(std::move(info), variant, m, options));
  }
  return rows;
}

}  // namespace refract::suites::kernels
