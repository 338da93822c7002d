#include "suites/kernels/attention_benchmark.h"

#include <cmath>

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

using reference::AttentionShape;

constexpr uint64_t kFullCheckWork = uint64_t{1} << 25;  // T · heads · S · d checked in full
constexpr uint32_t kSampledPositions = 64;

/// FLOP: 4 · d · heads · the unmasked query-key pairs; bytes: Q, K, V read, the output written.
KernelCost AttentionCost(const AttentionShape& shape) {
  const double qo = static_cast<double>(shape.seq_len) * shape.heads * shape.head_dim;
  const double kv = static_cast<double>(shape.kv_len) * shape.kv_heads * shape.head_dim;
  return {.flops = 4.0 * shape.head_dim * shape.heads *
                   static_cast<double>(reference::VisiblePairs(shape)),
          .bytes = 4.0 * (2 * qo + 2 * kv)};
}

std::string DimsText(const AttentionShape& s) {
  return std::to_string(s.heads) + " heads / " + std::to_string(s.kv_heads) + " KV heads x " +
         std::to_string(s.head_dim);
}

}  // namespace

AttentionInputs MakeAttentionInputs(const AttentionShape& shape, uint64_t seed) {
  const size_t d = shape.head_dim;
  AttentionInputs in;
  in.q = reference::RandomFloats(size_t{shape.seq_len} * shape.heads * d, seed, -2.0f, 2.0f);
  in.k = reference::RandomFloats(size_t{shape.kv_len} * shape.kv_heads * d, seed + 1, -1.0f, 1.0f);
  in.v = reference::RandomFloats(size_t{shape.kv_len} * shape.kv_heads * d, seed + 2, -1.0f, 1.0f);
  const double logit = 96.0 * std::sqrt(static_cast<double>(d));  // before the 1/√d scale
  for (uint32_t t = 0; t < shape.seq_len; ++t) {
    for (uint32_t h = 0; h < shape.heads; ++h) {
      if ((size_t{t} * shape.heads + h) % 4 != 1) continue;
      const uint32_t key = reference::VisibleKeys(shape, t) - 1;
      const float* k_row = in.k.data() + (size_t{key} * shape.kv_heads + h / shape.group()) * d;
      double norm2 = 0;
      for (size_t i = 0; i < d; ++i) norm2 += double{k_row[i]} * k_row[i];
      float* q_row = in.q.data() + (size_t{t} * shape.heads + h) * d;
      for (size_t i = 0; i < d; ++i) q_row[i] = static_cast<float>(k_row[i] * logit / norm2);
    }
  }
  return in;
}

AttentionBenchmark::AttentionBenchmark(bench::BenchmarkInfo info, Variant variant,
                                       AttentionShape shape, KernelOptions options)
    : OpRow(std::move(info), variant, Metric::kFlops, AttentionCost(shape), std::move(options),
            shape, ops::kAttentionOps) {
  reference::CheckAttentionShape(shape);  // the cost above needs a sound shape
}

bool AttentionBenchmark::Decodes() const {
  return variant() == Variant::kTuned && shape().seq_len == 1;
}

ops::AttentionDecodeConfig AttentionBenchmark::DecodeConfig(const DeviceLimits& limits) const {
  return ops::kAttentionDecodeRules.Resolve(shape(), limits, options().settings);
}

ops::Refusal AttentionBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (variant() == Variant::kBaseline) return OpRow::CheckOn(limits);
  // The kernel's settings may name either tuned op's axes: each row takes its own op's.
  if (auto unknown = UnknownSettings(
          {&ops::kAttentionRules.tuned.axes().axes(), &ops::kAttentionDecodeRules.axes().axes()})) {
    return unknown;
  }
  if (Decodes()) return ops::kAttentionDecodeRules.Check(DecodeConfig(limits), shape(), limits);
  return ops::kAttentionRules.tuned.Check(TunedConfig(shape(), limits), shape(), limits);
}

std::vector<ops::Axis> AttentionBenchmark::OpAxes() const {
  if (Decodes()) return ops::kAttentionDecodeRules.axes().axes();
  return OpRow::OpAxes();
}

void AttentionBenchmark::Prepare(gpu::Context& context) {
  Recorder<ops::AttentionBuffers> record;
  if (Decodes()) {
    RequireRunnable(context);
    const ops::AttentionDecodeConfig config = DecodeConfig(context.limits());
    SetParam("path", "decode");
    SetAxes(ops::kAttentionDecodeRules.axes().ValuesOf(config));
    record = CompileOp(context, ops::kAttentionDecode, shape(), config, info().id);
  } else {
    record = BuildOp(context);
    if (variant() == Variant::kTuned) {
      SetParam("path", "flash");
      SetParam("splits", ops::AttentionSplits(TunedConfig(shape(), context.limits()), shape()));
    }
  }
  inputs_ = MakeAttentionInputs(shape(), options().seed);
  const uint64_t input_bytes = 4 * (inputs_.q.size() + inputs_.k.size() + inputs_.v.size());
  BuildCopies(context, input_bytes, [&](uint32_t) {
    const gpu::Buffer output = StorageOf(context, inputs_.q.size(), "attention output");
    return Copy{.dispatches = record({.q = StorageWith(context, inputs_.q, "q"),
                                      .k = StorageWith(context, inputs_.k, "k"),
                                      .v = StorageWith(context, inputs_.v, "v"),
                                      .out = output}),
                .kept = {output}};
  });
}

VerificationRecord AttentionBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu =
      gpu::Download<float>(context, FirstCopyBuffer(0), inputs_.q.size());
  const uint32_t d = shape().head_dim, heads = shape().heads;
  auto namer = [d, heads](size_t index) {
    return "query " + std::to_string(index / (size_t{heads} * d)) + ", head " +
           std::to_string(index / d % heads) + ", dim " + std::to_string(index % d);
  };
  const std::string what = info().id;
  const uint64_t work = uint64_t{shape().seq_len} * heads * shape().kv_len * d;
  if (work <= kFullCheckWork) {
    const std::vector<float> cpu = reference::Attention(shape(), inputs_.q, inputs_.k, inputs_.v);
    return reference::Compare(what, gpu, cpu, reference::AttentionTolerance(cpu), namer);
  }
  const std::vector<uint32_t> positions =
      SampleIndices(shape().seq_len, kSampledPositions, options().seed);
  const size_t row_values = size_t{heads} * d;
  std::vector<float> cpu(positions.size() * row_values);
  for (size_t p = 0; p < positions.size(); ++p) {
    for (uint32_t h = 0; h < heads; ++h) {
      reference::AttentionRow(shape(), inputs_.q, inputs_.k, inputs_.v, positions[p], h,
                              std::span(cpu).subspan(p * row_values + size_t{h} * d, d));
    }
  }
  reference::Comparison comparison(what, reference::AttentionTolerance(cpu), namer);
  return CompareRows(comparison, gpu, cpu, positions, row_values);
}

std::vector<std::unique_ptr<KernelBenchmark>> AttentionBenchmarks(const KernelOptions& options) {
  struct Case {
    const ModelConfig* model;
    std::string phase;
    AttentionShape shape;
    bool baseline;  // the seed's kernel exists for it (causal)
  };
  std::vector<Case> cases;
  const ModelConfig& qwen = Qwen25();
  const ModelConfig& gemma = EmbeddingGemma2();
  auto shape = [](const ModelConfig& m, uint32_t t, uint32_t s, bool causal) {
    return AttentionShape{.seq_len = t,
                          .kv_len = s,
                          .heads = m.heads,
                          .kv_heads = m.kv_heads,
                          .head_dim = m.head_dim,
                          .position_offset = s - t,
                          .causal = causal};
  };
  for (uint32_t s : {128u, 1024u, 4096u})
    cases.push_back({&qwen, "decode", shape(qwen, 1, s, true), true});
  for (uint32_t t : {50u, 2048u})
    cases.push_back({&qwen, "prefill", shape(qwen, t, t, true), true});
  cases.push_back({&gemma, "prefill", shape(gemma, 128, 128, true), true});
  cases.push_back({&gemma, "encoder", shape(gemma, 128, 128, false), false});

  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const Case& c : cases) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      if (variant == Variant::kBaseline && !c.baseline) continue;
      const AttentionShape& s = c.shape;
      bench::BenchmarkInfo info;
      info.id = RowId({"attention", c.model->name, c.phase, "t" + std::to_string(s.seq_len),
                       "s" + std::to_string(s.kv_len)},
                      variant);
      info.category = "attention";
      info.description = c.model->name + " " + c.phase + " attention, " +
                         std::to_string(s.seq_len) + " queries x " + std::to_string(s.kv_len) +
                         " keys, " + DimsText(s) + (s.causal ? ", causal" : ", not causal") +
                         "; FLOP = 4 d heads x unmasked pairs (QK^T and PV)";
      info.identity = {
          .model = c.model->name,
          .phase = c.phase,
          .dimensions = {"head_dim", "heads", "kv_heads", "position_offset", "s", "t"}};
      info.params = {{"t", s.seq_len},
                     {"s", s.kv_len},
                     {"heads", s.heads},
                     {"kv_heads", s.kv_heads},
                     {"head_dim", s.head_dim},
                     {"position_offset", s.position_offset},
                     {"causal", s.causal ? "true" : "false"}};
      rows.push_back(std::make_unique<AttentionBenchmark>(std::move(info), variant, s, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
