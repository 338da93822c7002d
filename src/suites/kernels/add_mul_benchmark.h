// add and mul rows: output = a + b (the residual add) or a × b (the SwiGLU combine) over
// T × width f32 elements, as seed 003's scalar kernels (baseline) or in vec4 (tuned; buffers
// padded to whole vec4, see llm_add_mul_tuned.wgsl).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/op_kinds.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::kernels {

using ops::BinaryKind;

struct BinaryShape {
  std::string model;
  uint32_t tokens = 0;  ///< T
  uint32_t width = 0;   ///< elements a token (hidden for add, intermediate for mul)
  uint64_t Count() const { return uint64_t{tokens} * width; }
};

/// Cost: no FLOP counted (memory-bound); bytes: a and b read, the output written, count f32
/// each.
class AddMulBenchmark final
    : public OpRow<ops::BinaryShape, ops::BinaryConfig, ops::BinaryBuffers> {
 public:
  /// Tuned rows take the tuned op's axes (wg, vpt) from the options' settings.
  AddMulBenchmark(bench::BenchmarkInfo info, Variant variant, BinaryKind op, BinaryShape shape,
                  KernelOptions options = {});

  /// a and b uniform in [-1, 1); copies of a, b and the output as the cold footprint asks.
  void Prepare(gpu::Context& context) override;
  /// Copy 0's count outputs, exactly.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  std::vector<float> a_, b_;  ///< unpadded, for Verify
};

/// Both variants of the residual add at T × hidden: Qwen2.5-0.5B T = 1, 50, 2048,
/// EmbeddingGemma 2 T = 1, 128; ids "add/<model>/t<T>/<variant>".
std::vector<std::unique_ptr<KernelBenchmark>> AddBenchmarks(const KernelOptions& options = {});
/// The same for the SwiGLU combine at T × intermediate; ids "mul/<model>/t<T>/<variant>".
std::vector<std::unique_ptr<KernelBenchmark>> MulBenchmarks(const KernelOptions& options = {});

}  // namespace refract::suites::kernels
