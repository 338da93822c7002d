// add and mul rows: output = a + b (the residual add) or a × b (the SwiGLU combine) over
// T × width f32 elements, as seed 003's scalar kernels (baseline) or in vec4 (tuned; buffers
// padded to whole vec4, see llm_add_mul_tuned.wgsl).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "suites/kernels/kernel_benchmark.h"

namespace refract::suites::kernels {

enum class BinaryOp { kAdd, kMul };

struct BinaryShape {
  std::string model;
  uint32_t tokens = 0;  ///< T
  uint32_t width = 0;   ///< elements a token (hidden for add, intermediate for mul)
  uint64_t Count() const { return uint64_t{tokens} * width; }
};

struct BinaryOptions {
  uint64_t cold_footprint_bytes = 0;  ///< the copies' span [bytes]; 0: the device's default
  uint64_t seed = 1;
  uint32_t workgroup = 256;      ///< tuned kernel's WG
  uint32_t vec4_per_thread = 1;  ///< tuned kernel's VPT
};

class AddMulBenchmark final : public KernelBenchmark {
 public:
  AddMulBenchmark(bench::BenchmarkInfo info, Variant variant, BinaryOp op, BinaryShape shape,
                  BinaryOptions options = {});

  /// The buffers exceed a storage binding.
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  /// a and b uniform in [-1, 1); copies of a, b and the output as the cold footprint asks.
  void Prepare(gpu::Context& context) override;
  /// Copy 0's count outputs, exactly.
  VerificationRecord Verify(gpu::Context& context) override;
  std::span<const gpu::Dispatch> Dispatches() const override { return dispatches_; }
  void Release() override;
  /// No FLOP counted (memory-bound); bytes: a and b read, the output written, count f32 each.
  KernelCost Cost() const override;

 private:
  BinaryOp op_;
  BinaryShape shape_;
  BinaryOptions options_;
  std::vector<float> a_, b_;  ///< unpadded, for Verify
  std::vector<gpu::Buffer> outputs_;
  std::vector<gpu::Dispatch> dispatches_;
};

/// Both variants of the residual add at T × hidden: Qwen2.5-0.5B T = 1, 50, 2048,
/// EmbeddingGemma 2 T = 1, 128; ids "add/<model>/t<T>/<variant>".
std::vector<std::unique_ptr<KernelBenchmark>> AddBenchmarks(const BinaryOptions& options = {});
/// The same for the SwiGLU combine at T × intermediate; ids "mul/<model>/t<T>/<variant>".
std::vector<std::unique_ptr<KernelBenchmark>> MulBenchmarks(const BinaryOptions& options = {});

}  // namespace refract::suites::kernels
