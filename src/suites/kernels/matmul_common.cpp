#include "suites/kernels/matmul_common.h"

#include <bit>

#include "base/error.h"
#include "reference/compare.h"
#include "reference/llm_matmul.h"
#include "suites/kernels/kernel_pipeline.h"

namespace refract::suites::kernels {
namespace {

std::string TileText(const GemmConfig& c) {
  return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) +
         " tiles of " + std::to_string(c.tm) + "x" + std::to_string(c.tn);
}

// A load count a thread: `elements` spread over `threads`, a whole number from 1 to 8.
bool WholeLoads(uint32_t elements, uint32_t threads) {
  return threads > 0 && elements % threads == 0 && elements / threads >= 1 &&
         elements / threads <= 8;
}

}  // namespace

std::optional<std::string> GemmConfigProblem(const gpu::Context& context, const GemmConfig& c,
                                             bool q4) {
  const std::string tiles = "the tuned GEMM's " + TileText(c);
  if ((c.tm != 4 && c.tm != 8) || (c.tn != 4 && c.tn != 8) || c.bm % c.tm != 0 ||
      c.bn % c.tn != 0 || c.a_pad % 4 != 0) {
    return tiles + " are not supported (a thread computes 4 or 8 rows and columns)";
  }
  const gpu::DeviceLimits& limits = context.limits();
  const uint32_t threads = c.Threads();
  if (threads > limits.max_compute_invocations_per_workgroup ||
      threads > limits.max_compute_workgroup_size_x) {
    return tiles + " need " + std::to_string(threads) + " threads a workgroup; the device allows " +
           std::to_string(limits.max_compute_invocations_per_workgroup);
  }
  const uint32_t b_elements = q4 ? c.bk * c.bn / 8 : c.bk * c.bn / 4;
  if (c.bk % (q4 ? 8 : 4) != 0 || !WholeLoads(c.bm * c.bk / 4, threads) ||
      !WholeLoads(b_elements, threads)) {
    return tiles + " are not a whole number (1 to 8) of loads a thread";
  }
  if (c.TileBytes() > limits.max_compute_workgroup_storage_size) {
    return tiles + " need " + std::to_string(c.TileBytes()) +
           " bytes of workgroup memory; the device allows " +
           std::to_string(limits.max_compute_workgroup_storage_size) +
           " (maxComputeWorkgroupStorageSize)";
  }
  return std::nullopt;
}

std::optional<std::string> GemvConfigProblem(const gpu::Context& context, const GemvConfig& c,
                                             bool q4) {
  const gpu::DeviceLimits& limits = context.limits();
  if (!std::has_single_bit(c.wg) || !std::has_single_bit(c.tpr) || c.tpr > c.wg || c.rows < 1 ||
      c.rows > 8) {
    return "the tuned GEMV needs power-of-two threads a workgroup and a row group, and 1 to 8 "
           "rows a thread (got " +
           std::to_string(c.wg) + ", " + std::to_string(c.tpr) + ", " + std::to_string(c.rows) +
           ")";
  }
  if (c.wg > limits.max_compute_invocations_per_workgroup ||
      c.wg > limits.max_compute_workgroup_size_x) {
    return "the tuned GEMV's " + std::to_string(c.wg) +
           " threads a workgroup exceed the device's " +
           std::to_string(limits.max_compute_invocations_per_workgroup);
  }
  // The row sums' scratch, and the q4 kernel's x staging (`xs`: 64 blocks of 9 vec4).
  constexpr uint32_t kQ4StagingBytes = 64 * 9 * 16;
  const uint32_t bytes = c.wg * c.rows * 4 + (q4 ? kQ4StagingBytes : 0);
  if (bytes > limits.max_compute_workgroup_storage_size) {
    return "the tuned GEMV needs " + std::to_string(bytes) +
           " bytes of workgroup memory; the device allows " +
           std::to_string(limits.max_compute_workgroup_storage_size);
  }
  return std::nullopt;
}

std::optional<std::string> BindingProblem(const gpu::Context& context, uint64_t bytes,
                                          std::string_view what) {
  const gpu::DeviceLimits& limits = context.limits();
  const uint64_t limit = std::min(limits.max_storage_buffer_binding_size, limits.max_buffer_size);
  if (bytes <= limit) return std::nullopt;
  return std::string(what) + " needs a " + std::to_string(bytes) +
         "-byte storage buffer; the device binds at most " + std::to_string(limit) + " bytes";
}

bool UseSubgroupReduction(const gpu::Context& context, const GemvConfig& config, bool portable) {
  const uint32_t smallest = context.description().subgroup_min_size;
  return !portable && context.HasFeature(gpu::Feature::kSubgroups) && smallest > 0 &&
         config.tpr <= smallest;
}

gpu::ComputePipeline CompileGemm(gpu::Context& context, std::string_view main_kernel,
                                 const GemmConfig& c, const std::string& label) {
  return CompileKernel(
      context, {"llm_gemm_core_part", main_kernel}, label, "main",
      {{"BM", c.bm}, {"BN", c.bn}, {"BK", c.bk}, {"TM", c.tm}, {"TN", c.tn}, {"A_PAD", c.a_pad}});
}

gpu::ComputePipeline CompileGemv(gpu::Context& context, std::string_view main_kernel,
                                 const GemvConfig& c, bool subgroups, const std::string& label) {
  const std::string_view reduce =
      subgroups ? "llm_gemv_reduce_subgroup_part" : "llm_gemv_reduce_workgroup_part";
  return CompileKernel(context, {reduce, "llm_gemv_common_part", main_kernel}, label, "main",
                       {{"WG", c.wg}, {"TPR", c.tpr}, {"ROWS", c.rows}});
}

results::Params GemmParams(const GemmConfig& c) {
  return {{"path", "gemm"}, {"bm", c.bm}, {"bn", c.bn},      {"bk", c.bk},
          {"tm", c.tm},     {"tn", c.tn}, {"a_pad", c.a_pad}};
}

results::Params GemvParams(const GemvConfig& c, bool subgroups) {
  return {{"path", "gemv"},
          {"wg", c.wg},
          {"tpr", c.tpr},
          {"rows", c.rows},
          {"reduction", subgroups ? "subgroup" : "workgroup"}};
}

VerificationRecord CheckMatmulOutput(const std::string& what, std::span<const float> gpu_c,
                                     uint32_t c_stride, const MatmulShape& shape,
                                     std::span<const float> a, std::span<const float> w,
                                     uint64_t seed) {
  const std::vector<size_t> indices =
      reference::MatmulCheckIndices(shape.m, shape.n, shape.k, seed);
  const std::vector<double> cpu = reference::MatmulOutputs(a, w, shape.k, shape.n, indices);
  const uint32_t n = shape.n;
  reference::Comparison comparison(
      what, reference::MatmulTolerance(reference::MaxMagnitude(cpu)),
      [n](size_t index) { return reference::MatmulIndexName(index, n); });
  if (gpu_c.size() < size_t{shape.m - 1} * c_stride + shape.n) {
    comparison.Fail("the output holds " + std::to_string(gpu_c.size()) + " values");
    return comparison.Finish();
  }
  for (size_t i = 0; i < indices.size(); ++i) {
    const size_t index = indices[i];
    comparison.Check(index, gpu_c[(index / n) * c_stride + index % n], cpu[i]);
  }
  return comparison.Finish();
}

bench::BenchmarkInfo MatmulInfo(std::string_view family, const MatmulShape& shape, Variant variant,
                                std::string description) {
  bench::BenchmarkInfo info;
  info.id = std::string(family) + "/" + shape.model + "/" + shape.op + "/m" +
            std::to_string(shape.m) + "/" + std::string(VariantName(variant));
  info.category = "matmul";
  info.description = std::move(description);
  info.params = {
      {"model", shape.model}, {"op", shape.op}, {"m", shape.m}, {"k", shape.k}, {"n", shape.n}};
  return info;
}

}  // namespace refract::suites::kernels
