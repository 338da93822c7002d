// texture-interp-builtin and texture-interp-manual (CEILINGS.md "Bandwidth"): the same linear
// interpolation of a small rgba32float texture by the sampler and by hand (two textureLoad +
// mix), to show what the texture unit's filtering is worth.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "suites/ceilings/catalog.h"
#include "suites/ceilings/ceiling_row.h"

namespace refract::suites::ceilings {

enum class Interpolation {
  kBuiltin,  ///< textureSampleLevel with a linear sampler (needs float32-filterable)
  kManual,   ///< two textureLoad and mix
};

/// The texture both rows read: 4096×1 rgba32float (64 KiB), texel i = ceil_fill_vec4's value i.
inline constexpr uint32_t kInterpTextureWidth = 4096;

/// One row: 1024 workgroups of 256 threads, each taking `iterations` samples (the work knob, in
/// [16, 1024]) at positions that depend on the thread and the loop. One dispatch counts
/// threads × iterations × 32 bytes (two 16-byte texels a sample).
class TextureInterpRow : public CeilingRow {
 public:
  static constexpr uint32_t kMinIterations = 16;
  static constexpr uint32_t kMaxIterations = 1024;

  explicit TextureInterpRow(Interpolation interpolation);
  ~TextureInterpRow() override;

  const RowInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  /// Runs the prepared kernel with 4096 threads and 19 samples each and compares every thread's
  /// sum with InterpModel: within 1e-6 relative for the manual row; for the builtin row that plus
  /// 2^-8 × Σ|b − a| over the thread's samples and lanes (a filter weight off by one step of 8
  /// bits of sub-texel precision; the weights are multiples of 1/32, so a device that keeps ≥ 5
  /// bits is exact).
  void Verify(gpu::Context& context) override;
  void Release() override;
  uint64_t Rows() const override;         ///< threads
  uint64_t BufferBytes() const override;  ///< the texture [bytes]

  bool HasWorkKnob() const override { return true; }
  uint64_t MinWork() const override { return kMinIterations; }
  uint64_t MaxWork() const override { return kMaxIterations; }
  uint64_t Work() const override { return iterations_; }
  void SetWork(uint64_t work) override;
  /// threads × iterations × 32 [bytes].
  double WorkPerDispatch() const override;
  std::span<const gpu::Dispatch> Dispatches() const override {
    return std::span<const gpu::Dispatch>(&dispatch_, 1);
  }

  /// Verify against a model that reads texels x0 + `texel_offset` and x0 + 1 + `texel_offset`;
  /// Verify passes 0. Tests use it to prove the check catches a kernel reading the wrong texels.
  void VerifyWithModelOffset(gpu::Context& context, int32_t texel_offset);

 private:
  std::vector<gpu::BindingEntry> Bindings(const gpu::Buffer& params, const gpu::Buffer& out) const;

  Interpolation interpolation_;
  RowInfo info_;
  uint32_t iterations_ = kMaxIterations;
  gpu::Context* context_ = nullptr;  // set by Prepare; outlives the row's use
  gpu::ComputePipeline pipeline_;
  gpu::Texture texture_;
  gpu::Sampler sampler_;
  gpu::Buffer params_;
  gpu::Dispatch dispatch_;
};

/// CPU model of both texture kernels: thread t's folded sum for t < threads, with the texels
/// read at x0 + texel_offset and x0 + 1 + texel_offset (clamped to the texture). Also returns,
/// per thread, Σ over its samples and the 4 lanes of |b − a| (the builtin's tolerance scale:
/// a filter weight off by δ moves the thread's sum by at most δ times it).
struct InterpModelOutput {
  std::vector<float> sums;
  std::vector<double> spread;
};
InterpModelOutput InterpModel(uint32_t threads, uint32_t iterations, int32_t texel_offset);

/// texture-interp-builtin, then texture-interp-manual.
std::vector<std::unique_ptr<CeilingRow>> MakeTextureRows(const CatalogOptions& options);

}  // namespace refract::suites::ceilings
