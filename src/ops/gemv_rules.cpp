// GemvOp's axes, default rule and limit check: pure, no GPU.
#include "ops/gemv_op.h"

namespace refract::ops {
namespace {

// The q4 kernel's x staging in workgroup memory (`xs`: 64 blocks of 9 vec4) [bytes].
constexpr uint64_t kQ4StagingBytes = 64 * 9 * 16;

bool SubgroupsFit(const GemvConfig& config, const DeviceLimits& limits) {
  return limits.subgroups && limits.subgroup_min_size > 0 &&
         config.tpr <= limits.subgroup_min_size;
}

}  // namespace

const AxisTable<GemvConfig>& GemvOp::Axes() {
  static const AxisTable<GemvConfig> kAxes({
      {{.name = "wg",
        .meaning = "invocations a workgroup",
        .default_rule = "256",
        .min = 32,
        .max = 1024,
        .power_of_two = true,
        .grid = {64, 128, 256, 512},
        .quick = {64, 256}},
       &GemvConfig::wg},
      {{.name = "tpr",
        .meaning = "invocations along K a row group",
        .default_rule = "32",
        .min = 1,
        .max = 256,
        .power_of_two = true,
        .grid = {4, 8, 16, 32},
        .quick = {8, 32}},
       &GemvConfig::tpr},
      {{.name = "rows",
        .meaning = "rows an invocation accumulates",
        .default_rule = "f32: 2; q4: 1 below 8192 rows on a GPU, else 2; 4 on a CPU adapter",
        .min = 1,
        .max = 8,
        .grid = {1, 2, 4, 8},
        .quick = {1, 4}},
       &GemvConfig::rows},
      {{.name = "subgroups",
        .meaning = "1: row sums through subgroup shuffles; 0: through workgroup memory",
        .default_rule = "1 where the device has subgroups at least tpr wide",
        .min = 0,
        .max = 1,
        .grid = {0, 1}},
       &GemvConfig::subgroups},
  });
  return kAxes;
}

GemvConfig GemvOp::Resolve(Weights weights, const MatmulDims& dims, const DeviceLimits& limits,
                           const Settings& settings) {
  // q4 on the H200 (2026-12-01, x staged in workgroup memory, docs/MEASURING.md), 256 threads:
  // 2 rows a thread for 14336 and 151936 rows (21.5 and 62.9 µs; 1 row: 23.8 and 76.0), 1 row for
  // 4864 and 896 (5.3 and 8.4 µs; 2 rows: 5.5 and 10.9). On lavapipe (2 cores) 4 rows a thread
  // took every decode shape 1.7-2.3x less time than 1 row (14336 rows: 45.5 against 88.1 ms).
  GemvConfig config;
  if (weights == Weights::kQ4) config.rows = limits.cpu ? 4u : (dims.n >= 8192 ? 2u : 1u);
  config = Axes().With(config, settings);
  config.subgroups = SettingOr(settings, "subgroups", SubgroupsFit(config, limits) ? 1u : 0u);
  return config;
}

Problem GemvOp::Check(Weights weights, const GemvConfig& c, const MatmulDims& dims,
                      const DeviceLimits& limits) {
  if (auto problem = Axes().Disallowed(c)) return "the tuned GEMV's " + *problem;
  if (dims.m != 1 || dims.k == 0 || dims.n == 0) {
    return "the tuned GEMV computes one row (M = 1) of K, N > 0";
  }
  if (c.tpr > c.wg) return "the tuned GEMV's tpr " + std::to_string(c.tpr) + " exceeds its wg";
  if (c.subgroups == 1 && !SubgroupsFit(c, limits)) {
    return limits.subgroups ? "subgroup row sums need tpr within the device's smallest subgroup (" +
                                  std::to_string(limits.subgroup_min_size) + ")"
                            : std::string("the device has no subgroups");
  }
  const uint64_t sums = c.subgroups == 1 ? 0 : uint64_t{c.wg} * c.rows * 4;
  const uint64_t staging = weights == Weights::kQ4 ? kQ4StagingBytes : 0;
  const uint64_t w_bytes = weights == Weights::kQ4 ? dims.n * Q4BlocksOf(dims.k) * 16
                                                   : dims.n * PaddedTo4(dims.k) * 4;
  return FirstProblem({WorkgroupProblem(c.wg, sums + staging, "the tuned GEMV", limits),
                       BindingProblem(w_bytes, "the GEMV's weights", limits)});
}

}  // namespace refract::ops
