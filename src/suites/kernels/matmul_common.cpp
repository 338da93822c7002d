#include "suites/kernels/matmul_common.h"

#include <algorithm>

#include "reference/compare.h"
#include "reference/llm_matmul.h"

namespace refract::suites::kernels {

const std::vector<double>& MatmulInputs::Products(uint32_t k, uint32_t n,
                                                  std::span<const size_t> indices) const {
  const bool same = products_ && std::ranges::equal(products_->first, indices);
  if (!same) {
    products_.reset();
    products_.emplace(std::vector<size_t>(indices.begin(), indices.end()),
                      reference::MatmulOutputs(a_, w_, k, n, indices));
  }
  return products_->second;
}

VerificationRecord CheckMatmulOutput(const std::string& what, std::span<const float> gpu_c,
                                     uint32_t c_stride, const MatmulShape& shape,
                                     const MatmulInputs& inputs, uint64_t seed) {
  const std::vector<size_t> indices =
      reference::MatmulCheckIndices(shape.m, shape.n, shape.k, seed);
  const std::vector<double>& cpu = inputs.Products(shape.k, shape.n, indices);
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
  info.params = {{"op", shape.op}, {"m", shape.m}, {"k", shape.k}, {"n", shape.n}};
  info.identity = {.model = shape.model, .dimensions = {"k", "m", "n"}};
  return info;
}

}  // namespace refract::suites::kernels
