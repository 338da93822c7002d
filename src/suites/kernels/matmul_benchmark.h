// The base of the matmul rows (f32 and q4): the path a variant takes at a shape (seed
// baseline, tuned GEMM for M > 1, tuned GEMV for M = 1), its op, the copies of the cold
// rotation, and the output check against A · Wᵀ.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op_kinds.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/matmul_common.h"

namespace refract::suites::kernels {

/// `values` as the bytes MatmulBenchmark::Build uploads.
template <typename T>
std::span<const std::byte> Bytes(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

class MatmulBenchmark : public KernelBenchmark {
 public:
  /// The path's op check: the seed's bindings, or the tuned GEMM's or GEMV's configuration.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  /// The GEMV's axes at M = 1 (the q8 GEMV's for tuned-q8), the GEMM's above; none for the
  /// baseline.
  std::vector<ops::Axis> OpAxes() const override;
  /// Copy 0's product on MatmulCheckIndices' outputs (all of them up to 2^28 multiply-adds;
  /// else 3 whole rows, 3 whole columns and a 32 × 32 grid), within MatmulTolerance.
  VerificationRecord Verify(gpu::Context& context) override;

 protected:
  enum class Path { kBaseline, kGemm, kGemv, kGemvQ8 };

  /// Tuned rows take the GEMV's (wg, tpr, rows, subgroups) or the GEMM's (bm, bn, bk, tm, tn,
  /// a_pad) axes from the options' settings. `cost`: the family's, at the shape.
  MatmulBenchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape, KernelCost cost,
                  KernelOptions options, ops::Weights weights);

  /// The op's problem.
  ops::MatmulShape OpShape() const { return {.weights = weights_, .dims = shape_.Dims()}; }

  Path path() const;
  const MatmulShape& shape() const { return shape_; }

  /// Builds the path's op (recording its configuration in the params) and makes the copies:
  /// each dispatch binds fresh uploads of A (padded to whole vec4 rows on the tuned paths) and
  /// of `weights` (the op's B or W, then its scales, then the seed's zeros), and its own C.
  /// `inputs` (A and the dequantized B transposed) are kept for Verify.
  void Build(gpu::Context& context, std::shared_ptr<const MatmulInputs> inputs,
             const std::vector<std::span<const std::byte>>& weights);

 private:
  MatmulShape shape_;
  ops::Weights weights_;
  std::shared_ptr<const MatmulInputs> inputs_;
  uint32_t c_stride_ = 0;
};

/// Both variants of a matmul family's `Row`s at every MatmulCatalogShapes() shape, with
/// MatmulInfo's ids and `describe(variant, shape)` as their descriptions.
template <typename Row>
std::vector<std::unique_ptr<KernelBenchmark>> MatmulRows(
    std::string_view family, std::string (*describe)(Variant, const MatmulShape&),
    const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const MatmulShape& shape : MatmulCatalogShapes()) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      rows.push_back(std::make_unique<Row>(
          MatmulInfo(family, shape, variant, describe(variant, shape)), variant, shape, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
