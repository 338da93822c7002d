// The f16 matmul's axes, default rule and limit checks: pure, no GPU.
#include "ops/matmul_f16_rules.h"

namespace refract::ops {
namespace {

const AxisTable<MatmulF16Config>& MatmulF16Axes() {
  auto choice = [](const char* name, const char* meaning, std::vector<uint32_t> values) {
    return Axis{
        .name = name, .meaning = meaning, .default_rule = "4", .choices = values, .grid = values};
  };
  static const AxisTable<MatmulF16Config> kAxes({
      {PowerOfTwoAxis("bm", "rows of C a workgroup", "64", 4, 256, {32, 64, 128}, {32, 64}),
       &MatmulF16Config::bm},
      {PowerOfTwoAxis("bn", "columns of C a workgroup", "64", 4, 256, {32, 64, 128}, {32, 64}),
       &MatmulF16Config::bn},
      {PowerOfTwoAxis("bk", "K staged a step [elements]", "16", 4, 64, {8, 16, 32}, {16}),
       &MatmulF16Config::bk},
      {choice("tm", "rows of C an invocation", {4, 8}), &MatmulF16Config::tm},
      {choice("tn", "columns of C an invocation", {4, 8}), &MatmulF16Config::tn},
      {FlagAxis("acc_f16", "1: accumulate in f16; 0: in f32", "0"), &MatmulF16Config::acc_f16},
  });
  return kAxes;
}

Refusal MatmulF16Check(const MatmulF16Config& c, const MatmulDims& d, const DeviceLimits& limits) {
  if (!limits.shader_f16) return std::string("the f16 matmul needs the shader-f16 feature");
  if (d.m == 0 || d.k == 0 || d.n == 0 || (uint64_t{d.m} * d.k) % 2 != 0 ||
      (uint64_t{d.k} * d.n) % 2 != 0) {
    return "the f16 matmul needs M, K, N > 0 and A, B of whole u32 words";
  }
  if (c.bm % c.tm != 0 || c.bn % c.tn != 0) {
    return "the f16 matmul's tiles are not whole numbers of an invocation's tm x tn";
  }
  return FirstRefusal({WorkgroupRefusal(c.Invocations(), c.TileBytes(), "the f16 matmul", limits),
                       BindingRefusal(uint64_t{d.k} * d.n * 2, "the f16 matmul's B", limits),
                       BindingRefusal(uint64_t{d.m} * d.k * 2, "the f16 matmul's A", limits),
                       BindingRefusal(uint64_t{d.m} * d.n * 4, "the f16 matmul's C", limits)});
}

}  // namespace

const OpRules<MatmulDims, MatmulF16Config> kMatmulF16Rules{
    "the f16 matmul", &MatmulF16Axes,
    &ResolveFromDefaults<MatmulDims, MatmulF16Config, &MatmulF16Axes>, &MatmulF16Check};

}  // namespace refract::ops
