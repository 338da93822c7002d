// GemmOp's axes, default rule and limit check: pure, no GPU.
#include "ops/gemm_op.h"

namespace refract::ops {
namespace {

std::string TileText(const GemmConfig& c) {
  return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) +
         " tiles of " + std::to_string(c.tm) + "x" + std::to_string(c.tn);
}

// A load count an invocation: `elements` spread over `invocations`, a whole number from 1 to 8
// (llm_gemm_core_part.wgsl's MAX_LOADS).
bool WholeLoads(uint32_t elements, uint32_t invocations) {
  return invocations > 0 && elements % invocations == 0 && elements / invocations >= 1 &&
         elements / invocations <= 8;
}

}  // namespace

const AxisTable<GemmConfig>& GemmOp::Axes() {
  auto tile = [](const char* name, const char* meaning, std::vector<uint32_t> grid) {
    return Axis{.name = name,
                .meaning = meaning,
                .default_rule = "the largest tier giving 128 workgroups (128x128 of 8x8, 64x64 of "
                                "4x4, 32x32 of 4x4)",
                .min = 4,
                .max = 256,
                .power_of_two = true,
                .grid = std::move(grid)};
  };
  static const AxisTable<GemmConfig> kAxes({
      {tile("bm", "rows of C a workgroup", {32, 64, 128}), &GemmConfig::bm},
      {tile("bn", "columns of C a workgroup", {32, 64, 128}), &GemmConfig::bn},
      {{.name = "bk",
        .meaning = "K staged a step [elements]",
        .default_rule = "16 (f32 and the 128x128 tier), 32 for q4's smaller tiers",
        .min = 4,
        .max = 64,
        .power_of_two = true,
        .grid = {8, 16, 32}},
       &GemmConfig::bk},
      {{.name = "tm",
        .meaning = "rows of C an invocation",
        .default_rule = "8 or 4 by tier",
        .choices = {4, 8},
        .grid = {4, 8}},
       &GemmConfig::tm},
      {{.name = "tn",
        .meaning = "columns of C an invocation",
        .default_rule = "8 or 4 by tier",
        .choices = {4, 8},
        .grid = {4, 8}},
       &GemmConfig::tn},
      {{.name = "a_pad",
        .meaning = "floats padding each staged row of A",
        .default_rule = "4, or 0 where the padded tiles exceed the workgroup memory",
        .choices = {0, 4},
        .grid = {0, 4}},
       &GemmConfig::a_pad},
  });
  return kAxes;
}

GemmConfig GemmOp::Resolve(Weights weights, const MatmulDims& dims, const DeviceLimits& limits,
                           const Settings& settings) {
  // The largest tiles that still give the device about a workgroup a multiprocessor (128 on the
  // H200's 132); small products (prefill of 50 tokens) get 32 × 32 tiles of 64 invocations.
  const uint32_t bk = weights == Weights::kQ4 ? 32u : 16u;
  const GemmConfig tiers[] = {
      {.bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 8},
      {.bm = 64, .bn = 64, .bk = bk, .tm = 4, .tn = 4},
      {.bm = 32, .bn = 32, .bk = bk, .tm = 4, .tn = 4},
  };
  GemmConfig config = tiers[2];
  for (const GemmConfig& tier : tiers) {
    if (CeilDiv(dims.m, tier.bm) * CeilDiv(dims.n, tier.bn) >= 128) {
      config = tier;
      break;
    }
  }
  config = Axes().With(config, settings);
  if (!settings.contains("a_pad") &&
      config.TileBytes() > limits.max_compute_workgroup_storage_size) {
    config.a_pad = 0;
  }
  return config;
}

Problem GemmOp::Check(Weights weights, const GemmConfig& c, const MatmulDims& dims,
                      const DeviceLimits& limits) {
  if (auto problem = Axes().Disallowed(c)) return "the tuned GEMM's " + *problem;
  if (dims.m == 0 || dims.k == 0 || dims.n == 0) return "the tuned GEMM needs M, K, N > 0";
  const std::string tiles = "the tuned GEMM's " + TileText(c);
  if (c.bm % c.tm != 0 || c.bn % c.tn != 0) {
    return tiles + " are not whole numbers of an invocation's tm x tn";
  }
  const bool q4 = weights == Weights::kQ4;
  const uint32_t b_elements = q4 ? c.bk * c.bn / 8 : c.bk * c.bn / 4;
  if (c.bk % (q4 ? 8 : 4) != 0 || !WholeLoads(c.bm * c.bk / 4, c.Invocations()) ||
      !WholeLoads(b_elements, c.Invocations())) {
    return tiles + " are not a whole number (1 to 8) of loads an invocation";
  }
  const uint64_t b_bytes = q4 ? dims.n * Q4BlocksOf(dims.k) * 16 : dims.k * PaddedTo4(dims.n) * 4;
  return FirstProblem(
      {WorkgroupProblem(c.Invocations(), c.TileBytes(), tiles, limits),
       BindingProblem(b_bytes, "the GEMM's weights", limits),
       BindingProblem(dims.m * PaddedTo4(dims.k) * 4, "the GEMM's A", limits),
       BindingProblem(dims.m * PaddedTo4(dims.n) * 4, "the GEMM's C", limits)});
}

}  // namespace refract::ops
