#include "suites/kernels/qkv_rope_benchmark.h"

#include <algorithm>

#include "decode/engine_parts.h"
#include "decode/fused_gemvs.h"
#include "decode/model_spec.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "ops/op.h"
#include "ops/op_kinds.h"
#include "reference/compare.h"
#include "reference/llm_matmul.h"
#include "reference/llm_rope.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"

namespace refract::suites::kernels {
namespace {

uint32_t QkvRows(const ModelConfig& m) { return (m.heads + 2 * m.kv_heads) * m.head_dim; }

KernelCost QkvRopeCost(const ModelConfig& m) {
  const double n = QkvRows(m), k = m.hidden, blocks = reference::Q4Blocks(m.hidden);
  // The GEMV's FLOP; bytes: the weights and their scales, the residual's addends, its sum and the
  // norm's weight (f32), the bias, and q, k, v written once.
  return {.flops = 2 * n * k, .bytes = n * k / 2 + n * blocks * 4 + 4 * 4 * k + 8 * n};
}

/// The decoder shape the fused GEMV and the tables need, from the kernels suite's model.
reference::DecoderShape DecoderShapeOf(const ModelConfig& m) {
  return refract::decode::LoadModel(m.name);
}

}  // namespace

QkvRopeBenchmark::QkvRopeBenchmark(bench::BenchmarkInfo info, Variant variant,
                                   const ModelConfig& model, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, QkvRopeCost(model),
                      std::move(options)),
      model_(model) {}

ops::Refusal QkvRopeBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (auto refusal = Q8GemvRefusal(model_.hidden, QkvRows(model_), limits, options().settings)) {
    return refusal;
  }
  const ops::GemvConfig config = ops::kGemvQ8Rules.Resolve(
      Q8GemvShape(model_.hidden, QkvRows(model_)), limits, options().settings);
  if (variant() == Variant::kTuned &&
      !refract::decode::FusedQkv::ConfigFor(config, DecoderShapeOf(model_), limits)) {
    return std::string("the q8 GEMV does not allow its rows made even");
  }
  return std::nullopt;
}

std::vector<ops::Axis> QkvRopeBenchmark::OpAxes() const { return ops::kGemvQ8Rules.axes().axes(); }

void QkvRopeBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const ModelConfig& m = model_;
  const reference::DecoderShape shape = DecoderShapeOf(m);
  const uint32_t n = QkvRows(m);
  inputs_ = MakeQ8GemvInputs(m.hidden, n, static_cast<float>(shape.rms_eps), options().seed);
  bias_ = reference::RandomFloats(n, options().seed + 1, -0.5f, 0.5f);
  const reference::Q4Weight used = variant() == Variant::kTuned
                                       ? refract::decode::PairedForRope(inputs_.packed, shape)
                                       : inputs_.packed;
  const std::vector<float> inv_freq = refract::decode::parts::InverseFrequencies(shape);
  const ops::MatmulShape gemv_shape = Q8GemvShape(m.hidden, n);
  const ops::GemvConfig config =
      ops::kGemvQ8Rules.Resolve(gemv_shape, context.limits(), options().settings);

  std::optional<refract::decode::FusedQkv> fused;
  std::optional<ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>> gemv;
  gpu::ComputePipeline rope;
  std::optional<refract::decode::parts::QuantizingOps> quantizing;
  if (variant() == Variant::kTuned) {
    fused.emplace(context, shape,
                  *refract::decode::FusedQkv::ConfigFor(config, shape, context.limits()));
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(fused->config()));
  } else {
    gemv.emplace(ops::kGemvQ8, context, gemv_shape, config, info().id);
    rope = ops::CompileKernel(context, {"decode_rope_kv"}, info().id);
    quantizing.emplace(context, shape);
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(config));
  }
  const gpu::Buffer rope_params =
      gpu::Uniform(context,
                   refract::decode::parts::RopeParams{
                       .rows = 1, .heads = m.heads, .kv_heads = m.kv_heads, .head_dim = m.head_dim},
                   "qkv-rope params");
  const gpu::Buffer step = gpu::Uniform(
      context,
      refract::decode::parts::StepValues{.position = kPosition, .index = 0, .padding = {0, 0}},
      "qkv-rope step");
  const gpu::Buffer inv_freq_buffer =
      gpu::Upload(context, inv_freq, gpu::kUsageStorage, "inv_freq");
  const uint64_t kv_bytes = uint64_t{kCapacity} * m.kv_heads * m.head_dim * 4;
  residual_.reset();
  BuildCopies(
      context, used.packing.b.size() + 4 * used.packing.scales.size(), [&](uint32_t copy_index) {
        const GpuResidual residual = UploadResidual(context, inputs_);
        const refract::decode::GpuQ4 w = refract::decode::parts::UploadQ4(context, used, "weights");
        const gpu::Buffer bias = gpu::Upload(context, bias_, gpu::kUsageStorage, "bias");
        const gpu::Buffer q = StorageOf(context, uint64_t{m.heads} * m.head_dim, "q");
        const gpu::Buffer keys = StorageOf(context, kv_bytes / 4, "keys");
        const gpu::Buffer values = StorageOf(context, kv_bytes / 4, "values");
        Copy copy{.kept = {q, keys, values, residual.stream.buffer()}};
        if (fused) {
          copy.dispatches = {
              fused->Record(residual.Input(), w, bias, inv_freq_buffer, q, keys, values, step)};
        } else {
          const gpu::Buffer qkv = StorageOf(context, n, "qkv");
          copy.dispatches = AddNormThenGemv(context, *quantizing, *gemv, residual, w, qkv);
          const uint32_t threads = (m.heads + 2 * m.kv_heads) * (m.head_dim / 2);
          copy.dispatches.push_back(ops::OneDispatch(
              context, rope, {qkv, bias, inv_freq_buffer, q, keys, values, rope_params, step},
              gpu::GroupsFor(threads, 256)));
        }
        if (copy_index == 0) residual_.emplace(residual);
        return copy;
      });
}

VerificationRecord QkvRopeBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const ModelConfig& m = model_;
  const uint32_t kv_width = m.kv_heads * m.head_dim;
  // The model: the GEMV on the same codes, the bias, RoPE at the position.
  const std::vector<double> y = reference::GemvQ8(inputs_.matrix, inputs_.x);
  std::vector<float> q(size_t{m.heads} * m.head_dim), k(kv_width), v(kv_width);
  for (size_t i = 0; i < y.size(); ++i) {
    const float value = static_cast<float>(y[i] + bias_[i]);
    if (i < q.size()) {
      q[i] = value;
    } else if (i < q.size() + k.size()) {
      k[i - q.size()] = value;
    } else {
      v[i - q.size() - k.size()] = value;
    }
  }
  const std::vector<double> inv_freq = reference::DecoderInverseFrequencies(DecoderShapeOf(m));
  reference::RotateHalf(q, m.heads, m.head_dim, inv_freq, kPosition);
  reference::RotateHalf(k, m.kv_heads, m.head_dim, inv_freq, kPosition);
  // The GPU forms the angle in f32 (RopeTolerance's allowance for it).
  const reference::RopeShape rope{.seq_len = 1,
                                  .heads = m.heads,
                                  .kv_heads = m.kv_heads,
                                  .head_dim = m.head_dim,
                                  .position_offset = kPosition,
                                  .base = m.rope_theta};
  // The GPU's q, then the cache rows position − 1 .. position + 1 of k, then of v: only the
  // position's rows hold the step's values, the others stay zero.
  std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0), q.size());
  std::vector<float> cpu = q;
  for (size_t buffer = 1; buffer <= 2; ++buffer) {
    const std::vector<float> cache = gpu::Download<float>(context, FirstCopyBuffer(buffer));
    gpu.insert(gpu.end(), cache.begin() + (kPosition - 1) * kv_width,
               cache.begin() + (kPosition + 2) * kv_width);
    const std::vector<float>& appended = buffer == 1 ? k : v;
    cpu.insert(cpu.end(), kv_width, 0.0f);
    cpu.insert(cpu.end(), appended.begin(), appended.end());
    cpu.insert(cpu.end(), kv_width, 0.0f);
  }
  Tolerance tolerance = reference::MatmulTolerance(reference::MaxMagnitude(cpu));
  tolerance.absolute += reference::RopeTolerance(rope, cpu).absolute;
  const size_t q_values = q.size();
  auto namer = [q_values, kv_width](size_t index) {
    if (index < q_values) return "q " + std::to_string(index);
    const size_t at = index - q_values;
    const size_t block = at / (3 * size_t{kv_width});
    return std::string(block == 0 ? "k" : "v") + " cache row position" +
           std::array<const char*, 3>{" - 1", "", " + 1"}[at / kv_width % 3] + ", element " +
           std::to_string(at % kv_width);
  };
  if (const std::optional<std::string> mismatch = SumMismatch(context, *residual_, inputs_)) {
    throw VerificationError(info().id + ": " + *mismatch);
  }
  return reference::Compare(info().id, gpu, cpu, tolerance, namer);
}

std::vector<std::unique_ptr<KernelBenchmark>> QkvRopeBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  const ModelConfig& m = Qwen25();
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    bench::BenchmarkInfo info = TokenRowInfo(
        "qkv-rope", m.name, 1, variant, "decode",
        variant == Variant::kTuned
            ? "q8 q/k/v GEMV that adds the residual, normalizes and quantizes its input itself, "
              "with the bias, RoPE and KV append in its epilogue (one dispatch)"
            : "the unfused chain: add + RMSNorm quantized, the q8 q/k/v GEMV, then bias + RoPE + "
              "KV append (three dispatches)",
        {{"n", QkvRows(m)},
         {"k", m.hidden},
         {"heads", m.heads},
         {"kv_heads", m.kv_heads},
         {"head_dim", m.head_dim},
         {"position", QkvRopeBenchmark::kPosition}});
    rows.push_back(std::make_unique<QkvRopeBenchmark>(std::move(info), variant, m, options));
  }
  return rows;
}

}  // namespace refract::suites::kernels
