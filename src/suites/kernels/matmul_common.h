// What the f32 and q4 matmul rows share: their identity and the output check.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/verification.h"
#include "bench/benchmark.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/matmul_config.h"

namespace refract::suites::kernels {

/// A matmul problem's model inputs, A [M, K] and W [N, K] (B transposed; dequantized for q4),
/// which every path's layout is made from, and the CPU reference of their product, computed
/// once for a set of outputs: a sweep verifies every configuration of one problem against the
/// same values (the 128 × 2048 × 512 product took 0.5 s a configuration on the H200's host).
/// Not for use from several threads.
class MatmulInputs {
 public:
  MatmulInputs(std::vector<float> a, std::vector<float> w) : a_(std::move(a)), w_(std::move(w)) {}
  const std::vector<float>& a() const { return a_; }
  const std::vector<float>& w() const { return w_; }
  /// (A · Wᵀ) at flat `indices` (m × `n` + column; A's rows `k` long), in double; the values
  /// of the last indices asked for are kept and returned again for the same indices.
  const std::vector<double>& Products(uint32_t k, uint32_t n,
                                      std::span<const size_t> indices) const;

 private:
  std::vector<float> a_;
  std::vector<float> w_;
  mutable std::optional<std::pair<std::vector<size_t>, std::vector<double>>> products_;
};

/// The value made for the last key asked for, made again only when the key changes (the old
/// one freed first): a sweep asks for one problem's inputs configuration after configuration,
/// and the largest (the LM head's 136 M weights) take about a second to make.
template <typename Key, typename Value>
class LastMade {
 public:
  std::shared_ptr<const Value> Get(const Key& key, const std::function<Value()>& make) {
    if (value_ && key_ == key) return value_;
    value_.reset();
    value_ = std::make_shared<const Value>(make());
    key_ = key;
    return value_;
  }

 private:
  std::optional<Key> key_;
  std::shared_ptr<const Value> value_;
};

/// Compares the GPU's C (rows `c_stride` floats apart) with A · Wᵀ of `inputs` on
/// MatmulCheckIndices' outputs, within MatmulTolerance of the largest reference value checked.
VerificationRecord CheckMatmulOutput(const std::string& what, std::span<const float> gpu_c,
                                     uint32_t c_stride, const MatmulShape& shape,
                                     const MatmulInputs& inputs, uint64_t seed);

/// "<family>/<model>/<op>/m<M>/<variant>" with the shape's params.
bench::BenchmarkInfo MatmulInfo(std::string_view family, const MatmulShape& shape, Variant variant,
                                std::string description);

}  // namespace refract::suites::kernels
