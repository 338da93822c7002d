// embedding rows: output[t, :] = table[ids[t], :] for T random token ids, as seed 003's flat
// gather (baseline, one element a thread) or in vec4 (tuned; a scalar path, four elements a
// thread, where hidden is not a multiple of 4). The table is allocated whole only where the
// device binds it; otherwise the largest vocabulary that fits is used and recorded ("vocab").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ops/op_kinds.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::kernels {

struct EmbeddingRowShape {
  std::string model;
  uint32_t tokens = 0;  ///< T
  uint32_t hidden = 0;  ///< row width [f32]
  uint32_t vocab = 0;   ///< rows of the model's table
};

/// Cost: no FLOP; bytes: the T ids, the T rows read, the T rows written.
class EmbeddingBenchmark final
    : public OpRow<ops::EmbeddingShape, ops::EmbeddingConfig, ops::EmbeddingBuffers> {
 public:
  /// Tuned rows take the tuned op's axis (wg) from the options' settings.
  /// `max_table_bytes` caps the table below the device's limit (0: no cap).
  EmbeddingBenchmark(bench::BenchmarkInfo info, Variant variant, EmbeddingRowShape shape,
                     KernelOptions options = {}, uint64_t max_table_bytes = 0);

  /// Not even one table row fits a storage binding, or the op's check at the usable vocabulary.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  /// The table capped to what the device binds (and max_table_bytes).
  ops::EmbeddingShape ShapeOn(const DeviceLimits& limits) const override;
  /// The table (uniform in [-1, 1)) of min(vocab, what the device binds) rows, shared by every
  /// copy; each copy has its own T ids, uniform over that vocabulary, and its own output.
  void Prepare(gpu::Context& context) override;
  /// Copy 0's whole output, exactly.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  uint64_t max_table_bytes_;
  std::vector<float> table_;
  std::vector<uint32_t> ids_;  ///< copy 0's
};

/// Both variants for Qwen2.5-0.5B at T = 1, 50, 2048 and EmbeddingGemma 2 at T = 1, 128; ids
/// "embedding/<model>/t<T>/<variant>".
std::vector<std::unique_ptr<KernelBenchmark>> EmbeddingBenchmarks(
    const KernelOptions& options = {});

}  // namespace refract::suites::kernels
