// embedding rows: output[t, :] = table[ids[t], :] for T random token ids, as seed 003's flat
// gather (baseline, one element a thread) or in vec4 (tuned; a scalar path, four elements a
// thread, where hidden is not a multiple of 4). The table is allocated whole only where the
// device binds it; otherwise the largest vocabulary that fits is used and recorded ("vocab").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "suites/kernels/kernel_benchmark.h"

namespace refract::suites::kernels {

struct EmbeddingShape {
  std::string model;
  uint32_t tokens = 0;  ///< T
  uint32_t hidden = 0;  ///< row width [f32]
  uint32_t vocab = 0;   ///< rows of the model's table
};

struct EmbeddingOptions {
  uint64_t cold_footprint_bytes = 0;  ///< the copies' span [bytes]; 0: the device's default
  uint64_t seed = 1;
  uint64_t max_table_bytes = 0;  ///< cap on the table below the device's limit; 0: none
  uint32_t workgroup = 256;      ///< tuned kernel's WG
};

class EmbeddingBenchmark final : public KernelBenchmark {
 public:
  EmbeddingBenchmark(bench::BenchmarkInfo info, Variant variant, EmbeddingShape shape,
                     EmbeddingOptions options = {});

  /// Not even one table row, or the output, fits a storage binding.
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  /// The table (uniform in [-1, 1)) of min(vocab, what the device binds) rows, shared by every
  /// copy; each copy has its own T ids, uniform over that vocabulary, and its own output.
  void Prepare(gpu::Context& context) override;
  /// Copy 0's whole output, exactly.
  VerificationRecord Verify(gpu::Context& context) override;
  std::span<const gpu::Dispatch> Dispatches() const override { return dispatches_; }
  void Release() override;
  /// No FLOP; bytes: the T ids, the T rows read, the T rows written.
  KernelCost Cost() const override;

 private:
  uint32_t UsableVocab(const gpu::Context& context) const;

  EmbeddingShape shape_;
  EmbeddingOptions options_;
  std::vector<float> table_;
  std::vector<uint32_t> ids_;  ///< copy 0's
  std::vector<gpu::Buffer> outputs_;
  std::vector<gpu::Dispatch> dispatches_;
};

/// Both variants for Qwen2.5-0.5B at T = 1, 50, 2048 and EmbeddingGemma 2 at T = 1, 128; ids
/// "embedding/<model>/t<T>/<variant>".
std::vector<std::unique_ptr<KernelBenchmark>> EmbeddingBenchmarks(
    const EmbeddingOptions& options = {});

}  // namespace refract::suites::kernels
