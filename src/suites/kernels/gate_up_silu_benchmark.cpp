#include "suites/kernels/gate_up_silu_benchmark.h"

#include <cmath>

#include "decode/engine_parts.h"
#include "decode/fused_gemvs.h"
#include "decode/model_spec.h"
#include "decode/quantizing_ops.h"
#include "gpu/transfer.h"
#include "ops/op.h"
#include "ops/op_kinds.h"
#include "reference/compare.h"
#include "reference/llm_matmul.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"

namespace refract::suites::kernels {
namespace {

KernelCost GateUpSiluCost(const ModelConfig& m) {
  const double n = 2.0 * m.intermediate, k = m.hidden, blocks = reference::Q4Blocks(m.hidden);
  // The GEMV's FLOP; bytes: the weights and their scales, the residual's addends, its sum and
  // the norm's weight (f32), and the intermediate's codes with (d, Σq) a block out.
  return {.flops = 2 * n * k,
          .bytes = n * k / 2 + n * blocks * 4 + 4 * 4 * k + m.intermediate * (1 + 8.0 / 32)};
}

}  // namespace

GateUpSiluBenchmark::GateUpSiluBenchmark(bench::BenchmarkInfo info, Variant variant,
                                         const ModelConfig& model, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, GateUpSiluCost(model),
                      std::move(options)),
      model_(model) {}

ops::Refusal GateUpSiluBenchmark::CheckOn(const DeviceLimits& limits) const {
  const uint32_t n = 2 * model_.intermediate;
  if (auto refusal = Q8GemvRefusal(model_.hidden, n, limits, options().settings)) return refusal;
  const reference::DecoderShape shape = refract::decode::LoadModel(model_.name);
  const ops::GemvConfig config =
      refract::decode::FusedGateUp::Resolve(shape, limits, options().settings);
  if (variant() == Variant::kTuned &&
      !refract::decode::FusedGateUp::ConfigFor(config, shape, limits)) {
    return "no even rows up to 8 that the q8 GEMV allows make whole q8 blocks a workgroup at wg " +
           std::to_string(config.wg) + ", tpr " + std::to_string(config.tpr);
  }
  return std::nullopt;
}

std::vector<ops::Axis> GateUpSiluBenchmark::OpAxes() const {
  return ops::kGemvQ8Rules.axes().axes();
}

void GateUpSiluBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const ModelConfig& m = model_;
  const reference::DecoderShape shape = refract::decode::LoadModel(m.name);
  const uint32_t n = 2 * m.intermediate;
  inputs_ = MakeQ8GemvInputs(m.hidden, n, static_cast<float>(shape.rms_eps), options().seed);
  const ops::MatmulShape gemv_shape = Q8GemvShape(m.hidden, n);
  const bool tuned = variant() == Variant::kTuned;
  const ops::GemvConfig config =
      tuned ? refract::decode::FusedGateUp::Resolve(shape, context.limits(), options().settings)
            : ops::kGemvQ8Rules.Resolve(gemv_shape, context.limits(), options().settings);
  std::optional<refract::decode::FusedGateUp> fused;
  std::optional<ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>> gemv;
  std::optional<refract::decode::parts::QuantizingOps> quantizing;
  const reference::Q4Weight used =
      tuned ? refract::decode::PairedGateUp(inputs_.packed) : inputs_.packed;
  if (tuned) {
    const ops::GemvConfig whole =
        *refract::decode::FusedGateUp::ConfigFor(config, shape, context.limits());
    fused.emplace(context, shape, whole);
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(whole));
  } else {
    gemv.emplace(ops::kGemvQ8, context, gemv_shape, config, info().id);
    quantizing.emplace(context, shape);
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(config));
  }
  residual_.reset();
  BuildCopies(
      context, used.packing.b.size() + 4 * used.packing.scales.size(), [&](uint32_t copy_index) {
        const GpuResidual residual = UploadResidual(context, inputs_);
        const refract::decode::GpuQ4 w = refract::decode::parts::UploadQ4(context, used, "weights");
        const refract::decode::parts::Q8Row out =
            refract::decode::parts::MakeQ8Row(context, m.intermediate, "mixed");
        Copy copy{.kept = {out.codes, out.scale_sums, residual.stream.buffer()}};
        if (fused) {
          copy.dispatches = {fused->Record(residual.Input(), w, out)};
        } else {
          const gpu::Buffer gate_up = StorageOf(context, n, "gate_up");
          copy.dispatches = AddNormThenGemv(context, *quantizing, *gemv, residual, w, gate_up);
          copy.dispatches.push_back(quantizing->SiluMul(gate_up, out));
        }
        if (copy_index == 0) residual_.emplace(residual);
        return copy;
      });
}

VerificationRecord GateUpSiluBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const uint32_t inter = model_.intermediate;
  const std::vector<double> y = reference::GemvQ8(inputs_.matrix, inputs_.x);
  const double y_tolerance = reference::MatmulTolerance(reference::MaxMagnitude(y)).absolute;
  const std::vector<uint32_t> words = gpu::Download<uint32_t>(context, FirstCopyBuffer(0));
  const std::vector<float> d_sums = gpu::Download<float>(context, FirstCopyBuffer(1));
  const std::vector<int8_t> codes = reference::UnpackQ8Codes(words);
  reference::Comparison comparison(info().id, {.absolute = 0, .relative = 0}, [inter](size_t i) {
    return i < inter ? "value " + std::to_string(i)
                     : "block " + std::to_string(i - inter) + "'s scale";
  });
  if (const std::optional<std::string> mismatch = SumMismatch(context, *residual_, inputs_)) {
    comparison.Fail(*mismatch);
  }
  const uint32_t blocks = inter / reference::kQ8BlockSize;
  if (codes.size() < inter || d_sums.size() < 2 * size_t{blocks}) {
    comparison.Fail("the kernel's output is shorter than the intermediate size");
    return comparison.Finish();
  }
  std::vector<double> mixed(inter), allowance(inter);
  for (uint32_t j = 0; j < inter; ++j) {
    const double gate = y[j], up = y[inter + j];
    const double silu = gate / (1 + std::exp(-gate));
    mixed[j] = silu * up;
    // The GEMV's f32 sums move gate and up by y_tolerance each; silu's slope is at most 1.1.
    allowance[j] = (1.1 * std::fabs(up) + std::fabs(silu) + y_tolerance) * y_tolerance;
  }
  for (uint32_t b = 0; b < blocks; ++b) {
    const double d = d_sums[2 * b];
    double amax = 0, block_allowance = 0;
    int32_t sum = 0;
    for (uint32_t i = b * reference::kQ8BlockSize; i < (b + 1) * reference::kQ8BlockSize; ++i) {
      // A code is within half a step of its value; the value within its allowance of the model's.
      comparison.Check(i, codes[i] * d, mixed[i], d * (0.5 + 1e-5) + allowance[i]);
      amax = std::max(amax, std::fabs(mixed[i]));
      block_allowance = std::max(block_allowance, allowance[i]);
      sum += codes[i];
    }
    comparison.Check(inter + b, d, amax / 127, block_allowance / 127 + 1e-6 * amax / 127);
    if (d_sums[2 * b + 1] != static_cast<float>(sum)) {
      comparison.Fail("block " + std::to_string(b) + "'s code sum " +
                      std::to_string(d_sums[2 * b + 1]) + " is not its codes' " +
                      std::to_string(sum));
    }
  }
  return comparison.Finish();
}

std::vector<std::unique_ptr<KernelBenchmark>> GateUpSiluBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  const ModelConfig& m = Qwen25();
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    bench::BenchmarkInfo info = TokenRowInfo(
        "gate-up-silu", m.name, 1, variant, "decode",
        variant == Variant::kTuned
            ? "q8 gate/up GEMV that adds the residual, normalizes and quantizes its input itself, "
              "with silu(gate) · up and its int8 quantizer in its epilogue (one dispatch)"
            : "the unfused chain: add + RMSNorm quantized, the q8 gate/up GEMV, then "
              "silu(gate) · up quantized (three dispatches)",
        {{"n", 2 * m.intermediate}, {"k", m.hidden}});
    rows.push_back(std::make_unique<GateUpSiluBenchmark>(std::move(info), variant, m, options));
  }
  return rows;
}

}  // namespace refract::suites::kernels
