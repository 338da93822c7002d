#include "suites/kernels/gate_up_down_benchmark.h"

#include <algorithm>
#include <cmath>

#include "decode/engine_parts.h"
#include "decode/fused_gemvs.h"
#include "decode/model_spec.h"
#include "decode/quantizing_ops.h"
#include "gpu/transfer.h"
#include "ops/op.h"
#include "ops/op_kinds.h"
#include "reference/compare.h"
#include "reference/llm_q8.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"

namespace refract::suites::kernels {
namespace {

using refract::decode::FusedGateUp;
using refract::decode::FusedGateUpDown;
namespace parts = refract::decode::parts;
using GemvOp = ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>;

/// What a GPU's f32 sum of `terms` terms may move it, given the sum of their magnitudes: each
/// term's product rounded and the sum's rounding in any order, with room (2^-23 a term).
double F32SumError(uint32_t terms, double magnitude) {
  return (terms + 4) * std::ldexp(1.0, -23) * magnitude;
}

/// Whether t lies within `window` of a rounding tie k + 0.5.
bool NearTie(double t, double window) {
  const double magnitude = std::fabs(t);
  return std::fabs(magnitude - std::floor(magnitude) - 0.5) <= window;
}

/// The bytes of the chain's model work: both GEMVs' weights and scales, the residual's addends,
/// its sum and the norm's weight (f32), the down projection's output (f32).
KernelCost GateUpDownCost(const ModelConfig& m) {
  const double gate_up = 2.0 * m.intermediate * m.hidden, down = 1.0 * m.hidden * m.intermediate;
  return {.flops = 2 * (gate_up + down),
          .bytes = (gate_up + down) / 2 + (gate_up + down) / 32 * 4 + 4 * 4.0 * m.hidden +
                   4.0 * m.hidden};
}

/// FusedGateUpDown's configuration for `settings` on a device of `limits`, or nothing.
std::optional<ops::GemvConfig> FusedConfig(const reference::DecoderShape& shape,
                                           const DeviceLimits& limits,
                                           const ops::Settings& settings) {
  return FusedGateUpDown::ConfigFor(FusedGateUp::Resolve(shape, limits, settings), shape, limits);
}

/// decode_gate_up_down_store_part.wgsl's down_clear before the dispatch: not 0 anywhere, so that
/// the check sees the kernel clear it.
constexpr int32_t kUncleared = 0x5A5A5A5A;

}  // namespace

GateUpDownBenchmark::GateUpDownBenchmark(bench::BenchmarkInfo info, Variant variant,
                                         const ModelConfig& model, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, GateUpDownCost(model),
                      std::move(options)),
      model_(model) {}

ops::Refusal GateUpDownBenchmark::CheckOn(const DeviceLimits& limits) const {
  const uint32_t n = 2 * model_.intermediate;
  if (auto refusal = Q8GemvRefusal(model_.hidden, n, limits, options().settings)) return refusal;
  if (auto refusal = Q8GemvRefusal(model_.intermediate, model_.hidden, limits, {})) return refusal;
  const reference::DecoderShape shape = refract::decode::LoadModel(model_.name);
  if (variant() == Variant::kTuned && !FusedConfig(shape, limits, options().settings)) {
    const ops::GemvConfig config = FusedGateUp::Resolve(shape, limits, options().settings);
    return "the fused gate/up + down kernel does not take wg " + std::to_string(config.wg) +
           ", tpr " + std::to_string(config.tpr) + " here (up to 4 q8 blocks a workgroup, " +
           "whole blocks, the device's bindings and workgroup memory)";
  }
  return std::nullopt;
}

std::vector<ops::Axis> GateUpDownBenchmark::OpAxes() const {
  return ops::kGemvQ8Rules.axes().axes();
}

void GateUpDownBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const ModelConfig& m = model_;
  const reference::DecoderShape shape = refract::decode::LoadModel(m.name);
  const uint32_t n = 2 * m.intermediate;
  inputs_ = MakeQ8GemvInputs(m.hidden, n, static_cast<float>(shape.rms_eps), options().seed);
  down_ = reference::RandomQ4Matrix(m.intermediate, m.hidden, options().seed + 5);
  const reference::Q4Weight down_packed{
      .n = m.hidden, .k = m.intermediate, .packing = reference::PackMatMulNBits(down_)};
  const bool tuned = variant() == Variant::kTuned;
  std::optional<FusedGateUpDown> fused;
  std::optional<GemvOp> gate_up_gemv, down_gemv;
  std::optional<parts::QuantizingOps> quantizing;
  if (tuned) {
    const ops::GemvConfig config = *FusedConfig(shape, context.limits(), options().settings);
    fused.emplace(context, shape, config);
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(config));
  } else {
    const ops::MatmulShape gate_up_shape = Q8GemvShape(m.hidden, n);
    const ops::MatmulShape down_shape = Q8GemvShape(m.intermediate, m.hidden);
    const ops::GemvConfig config =
        ops::kGemvQ8Rules.Resolve(gate_up_shape, context.limits(), options().settings);
    gate_up_gemv.emplace(ops::kGemvQ8, context, gate_up_shape, config, info().id);
    down_gemv.emplace(ops::kGemvQ8, context, down_shape,
                      ops::kGemvQ8Rules.Resolve(down_shape, context.limits(), {}), info().id);
    quantizing.emplace(context, shape);
    SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(config));
  }
  const reference::Q4Weight gate_up =
      tuned ? refract::decode::PairedGateUp(inputs_.packed) : inputs_.packed;
  const reference::Q4Weight down =
      tuned ? refract::decode::ByBlockColumns(down_packed) : down_packed;
  const uint64_t weight_bytes = gate_up.packing.b.size() + 4 * gate_up.packing.scales.size() +
                                down.packing.b.size() + 4 * down.packing.scales.size();
  residual_.reset();
  BuildCopies(context, weight_bytes, [&](uint32_t copy_index) {
    const GpuResidual residual = UploadResidual(context, inputs_);
    const refract::decode::GpuQ4 w = parts::UploadQ4(context, gate_up, "gate_up");
    const refract::decode::GpuQ4 d = parts::UploadQ4(context, down, "down");
    Copy copy;
    if (fused) {
      // The down projection in fixed point, 0 when the dispatch starts (Verify runs it first).
      const gpu::Buffer sum =
          context.CreateBuffer(uint64_t{m.hidden} * 4, parts::kStorage, "down sum");
      const gpu::Buffer clear = gpu::Upload(context, std::vector<int32_t>(m.hidden, kUncleared),
                                            parts::kStorage, "down clear");
      copy.dispatches = {fused->Record(residual.Input(), w, d, sum, clear)};
      copy.kept = {sum, residual.stream.buffer(), clear};
    } else {
      const gpu::Buffer gate_up_out = StorageOf(context, n, "gate_up");
      const parts::Q8Row mixed = parts::MakeQ8Row(context, m.intermediate, "mixed");
      const gpu::Buffer out = StorageOf(context, m.hidden, "down");
      copy.dispatches =
          AddNormThenGemv(context, *quantizing, *gate_up_gemv, residual, w, gate_up_out);
      copy.dispatches.push_back(quantizing->SiluMul(gate_up_out, mixed));
      for (gpu::Dispatch& dispatch : down_gemv->Record(context, {.a = mixed.codes,
                                                                .w = d.codes,
                                                                .scales = d.scales,
                                                                .zeros = {},
                                                                .c = out,
                                                                .a_scales = mixed.scale_sums})) {
        copy.dispatches.push_back(std::move(dispatch));
      }
      copy.kept = {out, residual.stream.buffer()};
    }
    if (copy_index == 0) residual_.emplace(residual);
    return copy;
  });
}

VerificationRecord GateUpDownBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const bool tuned = variant() == Variant::kTuned;
  const uint32_t hidden = model_.hidden, inter = model_.intermediate;
  std::vector<double> out(hidden);
  if (tuned) {
    const std::vector<int32_t> fixed = gpu::Download<int32_t>(context, FirstCopyBuffer(0));
    for (uint32_t i = 0; i < hidden && i < fixed.size(); ++i) out[i] = fixed[i] / parts::kFixedOne;
  } else {
    const std::vector<float> values = gpu::Download<float>(context, FirstCopyBuffer(0));
    for (uint32_t i = 0; i < hidden && i < values.size(); ++i) out[i] = values[i];
  }
  reference::Comparison comparison(info().id, {.absolute = 0, .relative = 0},
                                   [](size_t i) { return "output " + std::to_string(i); });
  if (const std::optional<std::string> mismatch = SumMismatch(context, *residual_, inputs_)) {
    comparison.Fail(*mismatch);
  }
  if (tuned) {
    const std::vector<int32_t> cleared = gpu::Download<int32_t>(context, FirstCopyBuffer(2));
    if (std::any_of(cleared.begin(), cleared.end(), [](int32_t v) { return v != 0; })) {
      comparison.Fail("the vector the fused kernel clears is not all 0");
    }
  }

  // The gate/up GEMV on the model's input codes; each value's error on the GPU: its f32 sums,
  // and one step of an input code that lies near a tie.
  const reference::Q8Activations& x = inputs_.x;
  const reference::Q4Matrix& w = inputs_.matrix;
  const std::vector<double> y = reference::GemvQ8(w, x);
  const std::vector<double> y_magnitude = reference::GemvQ8Magnitudes(w, x);
  std::vector<double> y_error(w.n);
  for (uint32_t j = 0; j < w.n; ++j)
    y_error[j] = F32SumError(reference::Q4Blocks(w.k), y_magnitude[j]);
  for (uint32_t k = 0; k < w.k; ++k) {
    const double d = x.scales[k / reference::kQ8BlockSize];
    const double t = d == 0 ? 0 : inputs_.normed.y[k] / d;
    if (d == 0 || !NearTie(t, reference::kQ8TieWindow * std::max(1.0, std::fabs(t)))) continue;
    for (uint32_t j = 0; j < w.n; ++j) y_error[j] += std::fabs(w.Value(k, j)) * d;
  }
  // silu(gate) · up in double, and its error: the GEMV's, and f32's exp and division (4e-5 of
  // the value, room over WGSL's exp accuracy at the gate/up values here).
  std::vector<float> mixed(inter);
  std::vector<double> mixed_error(inter);
  for (uint32_t j = 0; j < inter; ++j) {
    const double gate = y[j], up = y[inter + j], ge = y_error[j], ue = y_error[inter + j];
    const double silu = gate / (1 + std::exp(-gate));
    mixed[j] = static_cast<float>(silu * up);
    mixed_error[j] = 1.1 * ge * std::fabs(up) + std::fabs(silu) * ue + 1.1 * ge * ue +
                     4e-5 * std::fabs(silu * up);
  }
  // The model's int8 blocks of it, and the down projection of those. A GPU code may be a step
  // off where its value lies within its error of a tie; a block's scale within the largest
  // error of its values (over 127) and a few ulps.
  const reference::Q8Activations blocks = reference::QuantizeQ8(mixed);
  const std::vector<double> want = reference::GemvQ8(down_, blocks);
  const std::vector<double> want_magnitude = reference::GemvQ8Magnitudes(down_, blocks);
  std::vector<double> code_error(inter);
  for (uint32_t b = 0; b < inter / reference::kQ8BlockSize; ++b) {
    const double d = blocks.scales[b];
    if (d == 0) continue;
    const uint32_t first = b * reference::kQ8BlockSize, last = first + reference::kQ8BlockSize;
    const double scale_error =
        *std::max_element(mixed_error.begin() + first, mixed_error.begin() + last) / 127 + 1e-6 * d;
    for (uint32_t j = first; j < last; ++j) {
      const double t = mixed[j] / d;
      const double window = (mixed_error[j] + std::fabs(t) * scale_error) / d +
                            reference::kQ8TieWindow * std::max(1.0, std::fabs(t));
      code_error[j] = (NearTie(t, window) ? d : 0) + std::abs(blocks.codes[j]) * scale_error;
    }
  }
  // Fixed point: each workgroup's share rounded to 1 / kFixedOne (a workgroup holds a block at
  // least).
  const double fixed_error = tuned ? 0.5 / parts::kFixedOne * (inter / reference::kQ8BlockSize) : 0;
  for (uint32_t i = 0; i < hidden; ++i) {
    double allowance = F32SumError(reference::Q4Blocks(inter), want_magnitude[i]) + fixed_error;
    for (uint32_t j = 0; j < inter; ++j) allowance += std::fabs(down_.Value(j, i)) * code_error[j];
    comparison.Check(i, out[i], want[i], allowance);
  }
  return comparison.Finish();
}

std::vector<std::unique_ptr<KernelBenchmark>> GateUpDownBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  const ModelConfig& m = Qwen25();
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    bench::BenchmarkInfo info = TokenRowInfo(
        "gate-up-down", m.name, 1, variant, "decode",
        variant == Variant::kTuned
            ? "q8 gate/up GEMV that adds the residual, normalizes and quantizes its input itself, "
              "makes silu(gate) · up in int8 blocks and adds its share of the down projection "
              "(one dispatch; the decode step's default)"
            : "the unfused chain: add + RMSNorm quantized, the q8 gate/up GEMV, silu(gate) · up "
              "quantized, the q8 down GEMV (four dispatches)",
        {{"n", 2 * m.intermediate}, {"k", m.hidden}});
    rows.push_back(std::make_unique<GateUpDownBenchmark>(std::move(info), variant, m, options));
  }
  return rows;
}

}  // namespace refract::suites::kernels
