#include "suites/kernels/merge_o_heads_benchmark.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "decode/engine_parts.h"
#include "decode/fused_gemvs.h"
#include "decode/model_spec.h"
#include "decode/quantizing_ops.h"
#include "gpu/transfer.h"
#include "ops/op.h"
#include "ops/op_kinds.h"
#include "reference/compare.h"
#include "reference/llm_attention.h"
#include "reference/llm_matmul.h"
#include "reference/llm_q4.h"
#include "suites/kernels/kernel_support.h"

namespace refract::suites::kernels {
namespace {

using refract::decode::FusedMergeOHeads;

uint32_t QRows(const ModelConfig& m) { return m.heads * m.head_dim; }

/// decode_merge_o_heads.wgsl's o_clear before the dispatch: not 0 anywhere, so that the check
/// sees the kernel clear it.
constexpr int32_t kUncleared = 0x5A5A5A5A;

ops::MatmulShape OShape(const ModelConfig& m) {
  return {.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = QRows(m), .n = m.hidden}};
}

KernelCost MergeOCost(const ModelConfig& m, uint32_t kv_len) {
  const double kv = 2.0 * kv_len * m.kv_heads * m.head_dim, qo = QRows(m);
  const double n = m.hidden, k = qo, blocks = reference::Q4Blocks(QRows(m));
  // Attention's FLOP (4 · d · heads · S) and the GEMV's; bytes: q, K and V (f32), o's codes and
  // scales, the projection written once.
  return {.flops = 4.0 * m.head_dim * m.heads * kv_len + 2 * n * k,
          .bytes = 4 * (qo + kv) + n * k / 2 + n * blocks * 4 + 4 * n};
}

}  // namespace

MergeOHeadsBenchmark::MergeOHeadsBenchmark(bench::BenchmarkInfo info, Variant variant,
                                           const ModelConfig& model, uint32_t kv_len,
                                           KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, MergeOCost(model, kv_len),
                      std::move(options)),
      model_(model),
      kv_len_(kv_len) {
  reference::CheckAttentionShape(AttentionShapeOf());
}

ops::AttentionShape MergeOHeadsBenchmark::AttentionShapeOf() const {
  return {.seq_len = 1,
          .kv_len = kv_len_,
          .heads = model_.heads,
          .kv_heads = model_.kv_heads,
          .head_dim = model_.head_dim,
          .position_offset = kv_len_ - 1,
          .causal = false};
}

ops::Refusal MergeOHeadsBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (auto unknown = UnknownSettings({&ops::kAttentionDecodeRules.axes().axes()})) return unknown;
  const ops::AttentionShape shape = AttentionShapeOf();
  const ops::AttentionDecodeConfig split =
      ops::kAttentionDecodeRules.Resolve(shape, limits, options().settings);
  if (auto refusal = ops::kAttentionDecodeRules.Check(split, shape, limits)) return refusal;
  if (variant() == Variant::kTuned) {
    if (!FusedMergeOHeads::ConfigFor(refract::decode::LoadModel(model_.name), limits)) {
      return std::string("the merge by head takes no group of whole blocks of this model's heads");
    }
    return std::nullopt;
  }
  return ops::kGemvRules.Check(ops::kGemvRules.Resolve(OShape(model_), limits), OShape(model_),
                               limits);
}

std::vector<ops::Axis> MergeOHeadsBenchmark::OpAxes() const {
  return ops::kAttentionDecodeRules.axes().axes();
}

void MergeOHeadsBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const ModelConfig& m = model_;
  const ops::AttentionShape shape = AttentionShapeOf();
  const ops::AttentionDecodeConfig split =
      ops::kAttentionDecodeRules.Resolve(shape, context.limits(), options().settings);
  SetAxes(ops::kAttentionDecodeRules.axes().ValuesOf(split));
  const ops::Op<ops::AttentionShape, ops::AttentionDecodeConfig, ops::AttentionBuffers> attention(
      ops::kAttentionDecode, context, shape, split, info().id);
  inputs_ = MakeAttentionInputs(shape, options().seed);
  const reference::Q4Matrix o = reference::RandomQ4Matrix(QRows(m), m.hidden, options().seed + 5);
  o_ = {.n = m.hidden, .k = QRows(m), .packing = reference::PackMatMulNBits(o)};

  const bool tuned = variant() == Variant::kTuned;
  std::optional<FusedMergeOHeads> fused;
  std::optional<ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>> o_gemv;
  const uint32_t splits = ops::DecodeParamsFor(shape, split).splits;
  if (tuned) {
    const reference::DecoderShape decoder = refract::decode::LoadModel(m.name);
    const FusedMergeOHeads::Config config =
        *FusedMergeOHeads::ConfigFor(decoder, context.limits());
    fused.emplace(context, decoder, splits, config);
    shares_ = FusedMergeOHeads::Shares(decoder, config);
    SetParam("heads_a_group", config.heads);
    SetParam("by_head_wg", config.wg);
    SetParam("by_head_rows", config.rows);
  } else {
    o_gemv.emplace(ops::kGemv, context, OShape(m),
                   ops::kGemvRules.Resolve(OShape(m), context.limits()), info().id);
    shares_ = 1;
  }
  SetParam("shares", shares_);
  const reference::Q4Weight used = tuned ? refract::decode::ByBlockColumns(o_) : o_;
  const uint64_t slots = uint64_t{m.heads} * splits;
  const uint64_t input_bytes = 4 * (inputs_.k.size() + inputs_.v.size()) +
                               used.packing.b.size() + 4 * used.packing.scales.size();
  BuildCopies(context, input_bytes, [&](uint32_t) {
    const refract::decode::GpuQ4 w = refract::decode::parts::UploadQ4(context, used, "o");
    // The tuned row's fixed-point sum starts at 0 (a new buffer), the baseline's f32 output.
    const gpu::Buffer out = StorageOf(context, m.hidden, "o projection");
    ops::AttentionBuffers buffers{.q = StorageWith(context, inputs_.q, "q"),
                                  .k = StorageWith(context, inputs_.k, "k"),
                                  .v = StorageWith(context, inputs_.v, "v"),
                                  .out = {},
                                  .params = {},
                                  .part_o = {},
                                  .part_ml = {}};
    Copy copy{.kept = {out}};
    if (tuned) {
      const gpu::Buffer part_o = StorageOf(context, slots * m.head_dim, "partials");
      const gpu::Buffer part_ml = StorageOf(context, slots * 2, "partial max and sum");
      buffers.out = StorageOf(context, QRows(m), "attention output (unwritten)");
      buffers.part_o = part_o;
      buffers.part_ml = part_ml;
      copy.dispatches = attention.Record(context, buffers);
      copy.dispatches.pop_back();  // the merge: the merge by head makes it
      const gpu::Buffer clear = gpu::Upload(context, std::vector<int32_t>(m.hidden, kUncleared),
                                            refract::decode::parts::kStorage, "o sum clear");
      copy.dispatches.push_back(fused->Record(part_o, part_ml, w, out, clear));
      copy.kept.push_back(clear);
    } else {
      const gpu::Buffer attended = StorageOf(context, QRows(m), "attention output");
      buffers.out = attended;
      copy.dispatches = attention.Record(context, buffers);
      for (gpu::Dispatch& dispatch : o_gemv->Record(context, {.a = attended,
                                                              .w = w.codes,
                                                              .scales = w.scales,
                                                              .zeros = {},
                                                              .c = out,
                                                              .a_scales = {}})) {
        copy.dispatches.push_back(std::move(dispatch));
      }
    }
    return copy;
  });
}

VerificationRecord MergeOHeadsBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const uint32_t n = model_.hidden, k = QRows(model_);
  const std::vector<float> attended =
      reference::Attention(AttentionShapeOf(), inputs_.q, inputs_.k, inputs_.v);
  const std::vector<float> y = reference::Q4Gemv(o_, attended);
  const bool tuned = variant() == Variant::kTuned;
  std::vector<float> gpu(n);
  if (tuned) {
    // The sum as the gate/up GEMV's input reads it (decode_addend_fixed_part.wgsl).
    const std::vector<int32_t> fixed = gpu::Download<int32_t>(context, FirstCopyBuffer(0), n);
    for (uint32_t i = 0; i < n && i < fixed.size(); ++i) {
      gpu[i] = static_cast<float>(fixed[i] / refract::decode::parts::kFixedOne);
    }
  } else {
    gpu = gpu::Download<float>(context, FirstCopyBuffer(0), n);
  }
  // Attention's outputs are within AttentionTolerance of the model's; o carries each error
  // through its row's |weights|; the GEMV's own f32 sums add MatmulTolerance; the fixed point
  // rounds each share to 1 / kFixedOne.
  const double attention_error = reference::AttentionTolerance(attended).absolute;
  const double fixed_error = tuned ? 0.5 / refract::decode::parts::kFixedOne * shares_ : 0;
  reference::Comparison comparison(info().id, reference::MatmulTolerance(reference::MaxMagnitude(y)),
                                   [](size_t i) { return "output " + std::to_string(i); });
  if (tuned) {
    const std::vector<int32_t> cleared = gpu::Download<int32_t>(context, FirstCopyBuffer(1), n);
    if (std::any_of(cleared.begin(), cleared.end(), [](int32_t v) { return v != 0; })) {
      comparison.Fail("the vector the merge by head clears is not all 0");
    }
  }
  std::vector<float> row(k);
  for (uint32_t i = 0; i < n; ++i) {
    o_.DequantizeRow(i, row);
    double row_l1 = 0;  // Σ |W_o[i][j]|
    for (float weight : row) row_l1 += std::fabs(weight);
    comparison.Check(i, gpu[i], y[i], row_l1 * attention_error + fixed_error);
  }
  return comparison.Finish();
}

std::vector<std::unique_ptr<KernelBenchmark>> MergeOHeadsBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  const ModelConfig& m = Qwen25();
  constexpr uint32_t kKvLen = 1024;
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    bench::BenchmarkInfo info;
    info.id = RowId({"merge-o-heads", m.name, "decode", "s" + std::to_string(kKvLen)}, variant);
    info.category = "decode";
    info.description =
        variant == Variant::kTuned
            ? "decode attention's split, then its merge and the o projection a group of heads "
              "at a time, into one share of the projection a group (two dispatches)"
            : "the unfused chain: decode attention's split, its merge, then the f32 q4 o GEMV "
              "(three dispatches)";
    info.params = {{"s", kKvLen},
                   {"heads", m.heads},
                   {"kv_heads", m.kv_heads},
                   {"head_dim", m.head_dim},
                   {"n", m.hidden},
                   {"k", QRows(m)}};
    info.identity = {.model = m.name,
                     .phase = "decode",
                     .dimensions = {"head_dim", "heads", "k", "kv_heads", "n", "s"}};
    rows.push_back(
        std::make_unique<MergeOHeadsBenchmark>(std::move(info), variant, m, kKvLen, options));
  }
  return rows;
}

}  // namespace refract::suites::kernels
