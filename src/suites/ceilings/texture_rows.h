// texture-interp-builtin and texture-interp-manual (docs/CEILINGS.md "Bandwidth"): the same linear
// interpolation of a small rgba32float texture by the sampler and by hand (two textureLoad +
// mix), to show what the texture unit's filtering is worth.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/benchmark.h"
#include "suites/ceilings/catalog.h"
#include "suites/ceilings/loop_row.h"

namespace refract::suites::ceilings {

enum class Interpolation {
  kBuiltin,  ///< textureSampleLevel with a linear sampler (needs float32-filterable)
  kManual,   ///< two textureLoad and mix
};

/// One row: 1024 workgroups of 256 threads, each taking `iterations` samples (the work knob, in
/// [16, 1024]) at positions that depend on the thread and the loop. One dispatch counts
/// threads × iterations × 32 bytes (two 16-byte texels a sample).
/// (the texture: reference::kInterpTextureWidth × 1 rgba32float, 64 KiB). Params: threads,
/// texture_bytes.
class TextureInterpRow : public LoopRow {
 public:
  static constexpr uint32_t kMinIterations = 16;
  static constexpr uint32_t kMaxIterations = 1024;

  explicit TextureInterpRow(Interpolation interpolation);
  ~TextureInterpRow() override;

  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  /// Runs the prepared kernel with 4096 threads and 19 samples each and compares every thread's
  /// sum with reference::InterpModel: within 1e-6 relative for the manual row; for the builtin row
  /// that plus 2^-8 × Σ|b − a| over the thread's samples and lanes (a filter weight off by one step
  /// of 8 bits of sub-texel precision; the weights are multiples of 1/32, so a device that keeps ≥
  /// 5 bits is exact).
  VerificationRecord Verify(gpu::Context& context) override;
  void Release() override;
  /// threads × iterations × 32 [bytes].
  double WorkPerDispatch() const override;

 private:
  void WriteParams(gpu::Context& context, const gpu::Buffer& params) const override;
  /// The kernel's dispatch: `params` holds its sample count, `out` one float a thread.
  gpu::Dispatch MakeDispatch(gpu::Context& context, const gpu::Buffer& params,
                             const gpu::Buffer& out, uint32_t workgroups) const;

  Interpolation interpolation_;
  gpu::ComputePipeline pipeline_;
  gpu::Texture texture_;
  gpu::Sampler sampler_;
};

/// texture-interp-builtin, then texture-interp-manual.
std::vector<std::unique_ptr<bench::Benchmark>> MakeTextureRows(const CatalogOptions& options);

}  // namespace refract::suites::ceilings
