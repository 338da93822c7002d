// The base of the matmul rows (f32 and q4): the path a variant takes at a shape (seed
// baseline, tuned GEMM for M > 1, tuned GEMV for M = 1), its compilation, the copies of the
// cold rotation, and the output check against A · Wᵀ.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
  /// A buffer over the device's binding limit (the f32 LM head on lavapipe), or a tuned
  /// configuration the device cannot run.
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  /// Copy 0's product on MatmulCheckIndices' outputs (all of them up to 2^28 multiply-adds;
  /// else 3 whole rows, 3 whole columns and a 32 × 32 grid), within MatmulTolerance.
  VerificationRecord Verify(gpu::Context& context) override;

 protected:
  enum class Path { kBaseline, kGemm, kGemv };
  /// The kernel files of a family: the seed's, and the tuned GEMM's and GEMV's own files.
  struct KernelFiles {
    std::string_view baseline, gemm, gemv;
  };

  /// Knows the overrides of ParseMatmulOverrides (UsageError here for any other). `cost` and
  /// `largest_binding_bytes`: the family's, at the shape.
  MatmulBenchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape, KernelCost cost,
                  uint64_t largest_binding_bytes, KernelOptions options, bool q4,
                  KernelFiles files);

  Path path() const;
  /// The tuned GEMM's configuration: the overrides' or the default for the device.
  GemmConfig Gemm(const gpu::Context& context) const;
  /// The tuned GEMV's configuration: the overrides' or the default for the device.
  GemvConfig Gemv(const gpu::Context& context) const;
  const MatmulShape& shape() const { return shape_; }

  /// Compiles the path's kernel (recording its configuration in the params) and makes the
  /// copies: each dispatch binds fresh uploads of A (padded to whole vec4 rows on the tuned
  /// paths) at binding 0 and of `weights` at bindings 1, 2, …, then its own C and the shared
  /// `uniform`. `a` is A [M, K]; `w` is the dequantized B transposed, [N, K], kept for Verify.
  void Build(gpu::Context& context, std::vector<float> a, std::vector<float> w,
             const std::vector<std::span<const std::byte>>& weights, const gpu::Buffer& uniform);

 private:
  MatmulShape shape_;
  KernelFiles files_;
  bool q4_;
  std::optional<GemmConfig> gemm_;  ///< the overrides'; none: DefaultGemmConfig
  std::optional<GemvConfig> gemv_;  ///< the overrides'; none: DefaultGemvConfig
  std::vector<float> a_;
  std::vector<float> w_;
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
