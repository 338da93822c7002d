// The decode step's shape, proved on the machine's adapter: four ops chained over buffers the
// test owns — RMSNorm → q4 GEMV (a fused gate and up projection) → SiLU·mul over the two halves
// of its output (buffer slices) → the residual add — recorded into one command buffer and one
// pass, checked stage by stage and end to end against the CPU models composed the same way.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "gpu/transfer.h"
#include "ops/op_kinds.h"
#include "ops/op.h"
#include "reference/compare.h"
#include "reference/llm_activation.h"
#include "reference/llm_add_mul.h"
#include "reference/llm_matmul.h"
#include "reference/llm_norm.h"
#include "reference/llm_q4.h"
#include "reference/random_data.h"
#include "testing/shared_context.h"

namespace refract::ops {
namespace {

using refract::testing::SharedContext;

constexpr uint32_t kHidden = 256;           // x, h, s, out [floats]; also K of the GEMV
constexpr uint32_t kRows = 2 * kHidden;     // the GEMV's gate rows then its up rows
constexpr uint64_t kHalf = 4ull * kHidden;  // a half of the GEMV's output [bytes]

std::vector<float> Download(gpu::Context& context, const gpu::Buffer& buffer, size_t count) {
  return gpu::Download<float>(context, buffer, count);
}

std::vector<float> Gemv(std::span<const float> w, std::span<const float> x) {
  std::vector<size_t> all(kRows);
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::vector<double> y = reference::MatmulOutputs(x, w, kHidden, kRows, all);
  return {y.begin(), y.end()};
}

TEST(OpsChain, FourOpsInOnePassMatchTheComposedModels) {
  gpu::Context& context = SharedContext();
  const DeviceLimits& limits = context.limits();
  ASSERT_EQ(kHalf % limits.min_storage_buffer_offset_alignment, 0u);

  // The model's data: a residual row x, the norm's weight, a q4 matrix of 2·hidden × hidden.
  const std::vector<float> x = reference::RandomFloats(kHidden, 21, -2.0f, 2.0f);
  const std::vector<float> weight = reference::RandomFloats(kHidden, 22, 0.5f, 1.5f);
  const reference::Q4Matrix matrix = reference::RandomQ4Matrix(kHidden, kRows, 23);
  const reference::MatMulNBitsPacking packed = reference::PackMatMulNBits(matrix);
  const std::vector<float> w = reference::DequantizeMatMulNBits(packed, kHidden, kRows);

  // The ops at their default configurations for this device, each at its shape.
  const NormShape norm_problem{.kind = NormKind::kRmsNorm,
                                 .shape = {.rows = 1, .hidden = kHidden, .eps = 1e-6f}};
  const MatmulShape gemv_problem{.weights = Weights::kQ4, .dims = {1, kHidden, kRows}};
  const ActivationShape silu_problem{.kind = ActivationKind::kSiluMul, .count = kHidden};
  const BinaryShape add_problem{.kind = BinaryKind::kAdd, .count = kHidden};
  const Op norm(kNormOps.tuned, context, norm_problem,
                kNormRules.tuned.Resolve(norm_problem, limits), "chain rmsnorm");
  const Op gemv(kGemv, context, gemv_problem, kGemvRules.Resolve(gemv_problem, limits),
                "chain gemv");
  const Op silu_mul(kActivationOps.tuned, context, silu_problem,
                    kActivationRules.tuned.Resolve(silu_problem, limits), "chain silu-mul");
  const Op add(kBinaryOps.tuned, context, add_problem,
               kBinaryRules.tuned.Resolve(add_problem, limits), "chain add");

  // The buffers the step owns.
  const uint32_t usage = gpu::kUsageStorage | gpu::kUsageCopySrc;
  const gpu::Buffer x_buffer = gpu::Upload(context, x, usage, "x");
  const gpu::Buffer weight_buffer = gpu::Upload(context, weight, usage, "weight");
  const gpu::Buffer blocks = gpu::Upload(context, packed.b, usage, "blocks");
  const gpu::Buffer scales = gpu::Upload(context, packed.scales, usage, "scales");
  const gpu::Buffer h = context.CreateBuffer(kHalf, usage, "h");
  const gpu::Buffer gate_up = context.CreateBuffer(2 * kHalf, usage, "gate and up");
  const gpu::Buffer s = context.CreateBuffer(kHalf, usage, "silu(gate) up");
  const gpu::Buffer out = context.CreateBuffer(kHalf, usage, "out");

  std::vector<gpu::Dispatch> step;
  auto append = [&](std::vector<gpu::Dispatch> dispatches) {
    step.insert(step.end(), dispatches.begin(), dispatches.end());
  };
  append(norm.Record(context, {.x = x_buffer, .weight = weight_buffer, .y = h}));
  append(gemv.Record(context, {.a = h, .w = blocks, .scales = scales, .c = gate_up}));
  append(silu_mul.Record(context, {.x = gpu::BufferSlice(gate_up, 0, kHalf),
                                   .y = s,
                                   .up = gpu::BufferSlice(gate_up, kHalf, kHalf)}));
  append(add.Record(context, {.a = x_buffer, .b = s, .output = out}));
  ASSERT_EQ(step.size(), 4u);
  context.RunPass(step, 1, false);  // one command buffer, one compute pass

  const std::vector<float> gpu_h = Download(context, h, kHidden);
  const std::vector<float> gpu_y = Download(context, gate_up, kRows);
  const std::vector<float> gpu_s = Download(context, s, kHidden);
  const std::vector<float> gpu_out = Download(context, out, kHidden);

  // Stage by stage: each op against its model on the GPU's own input of that stage.
  const std::vector<float> cpu_h = reference::RmsNorm(norm_problem.shape, x, weight);
  EXPECT_EQ(reference::Compare("rmsnorm", gpu_h, cpu_h, reference::NormTolerance(cpu_h)).elements,
            kHidden);
  const std::vector<float> y_of_gpu_h = Gemv(w, gpu_h);
  EXPECT_EQ(reference::Compare("gemv", gpu_y, y_of_gpu_h,
                               reference::MatmulTolerance(reference::MaxMagnitude(y_of_gpu_h)))
                .elements,
            kRows);
  const std::span<const float> gate(gpu_y.data(), kHidden), up(gpu_y.data() + kHidden, kHidden);
  const std::vector<float> s_of_gpu_y = reference::SiluMul(gate, up);
  EXPECT_EQ(
      reference::Compare("silu-mul", gpu_s, s_of_gpu_y,
                         reference::ActivationTolerance(reference::kSiluRelTolerance, s_of_gpu_y))
          .elements,
      kHidden);
  EXPECT_EQ(
      reference::Compare("add", gpu_out, reference::Add(x, gpu_s), reference::kAddMulTolerance)
          .elements,
      kHidden);

  // End to end: the models composed on the CPU's own intermediates, within the GEMV's
  // tolerance of the result (the largest of the stages').
  const std::vector<float> cpu_y = Gemv(w, cpu_h);
  const std::vector<float> cpu_s =
      reference::SiluMul(std::span(cpu_y).first(kHidden), std::span(cpu_y).subspan(kHidden));
  const std::vector<float> cpu_out = reference::Add(x, cpu_s);
  EXPECT_EQ(reference::Compare("the chain", gpu_out, cpu_out,
                               reference::MatmulTolerance(reference::MaxMagnitude(cpu_out)))
                .elements,
            kHidden);
}

TEST(OpsChain, AWrongStageIsCaughtDownstream) {
  // The end-to-end check must be able to fail: the same chain with the GEMV reading the up
  // half's rows for the gate (slices swapped) disagrees with the composed models.
  gpu::Context& context = SharedContext();
  const std::vector<float> gate = reference::RandomFloats(kHidden, 31, -4.0f, 4.0f);
  const std::vector<float> up = reference::RandomFloats(kHidden, 32, -2.0f, 2.0f);
  std::vector<float> both = gate;
  both.insert(both.end(), up.begin(), up.end());
  const uint32_t usage = gpu::kUsageStorage | gpu::kUsageCopySrc;
  const gpu::Buffer gate_up = gpu::Upload(context, both, usage, "gate and up");
  const gpu::Buffer s = context.CreateBuffer(kHalf, usage, "s");
  const ActivationShape problem{.kind = ActivationKind::kSiluMul, .count = kHidden};
  const Op silu_mul(kActivationOps.tuned, context, problem,
                    kActivationRules.tuned.Resolve(problem, context.limits()), "swapped");
  context.RunPass(silu_mul.Record(context, {.x = gpu::BufferSlice(gate_up, kHalf, kHalf),
                                            .y = s,
                                            .up = gpu::BufferSlice(gate_up, 0, kHalf)}),
                  1, false);
  const std::vector<float> cpu = reference::SiluMul(gate, up);
  EXPECT_THROW(
      reference::Compare("swapped", Download(context, s, kHidden), cpu,
                         reference::ActivationTolerance(reference::kSiluRelTolerance, cpu)),
      VerificationError);
}

TEST(OpsScratch, EachCallGetsItsOwnScratchAndSharesTheRest) {
  // Two calls of one op must not wait for each other through a buffer both write.
  gpu::Context& context = SharedContext();
  const Kernel kernel{
      .buffers = {gpu::Uniform(context, std::array<uint32_t, 4>{7, 0, 0, 0}, "params")},
      .scratch = {{256, "partials"}, {64, "max and sum"}}};
  const Kernel first = WithFreshScratch(context, kernel);
  const Kernel second = WithFreshScratch(context, kernel);
  ASSERT_EQ(first.buffers.size(), 3u);
  ASSERT_EQ(second.buffers.size(), 3u);
  EXPECT_EQ(kernel.buffers.size(), 1u);
  EXPECT_TRUE(first.buffers[0] == kernel.buffers[0]);
  EXPECT_TRUE(second.buffers[0] == kernel.buffers[0]);
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_FALSE(first.buffers[i] == second.buffers[i]) << i;
    EXPECT_EQ(first.buffers[i].size(), kernel.scratch[i - 1].bytes);
  }
}

}  // namespace
}  // namespace refract::ops
