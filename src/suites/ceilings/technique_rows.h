// The technique comparisons of the ceilings catalog (docs/CEILINGS.md "Technique comparisons",
// category "algorithm"): seven families, each running one fixed problem several ways. There is
// no work knob; the engine only calibrates how many dispatches a batch holds. Every row checks
// its kernel against a CPU model (src/reference/technique_models.h) before it is timed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bench/benchmark.h"
#include "reference/compare.h"
#include "reference/technique_models.h"

namespace refract::suites::ceilings {

/// Compiles `entry_point` of src/kernels/<kernel>.wgsl with the given override constants.
gpu::ComputePipeline CompileKernel(gpu::Context& context, std::string_view kernel,
                                   std::string_view entry_point, const std::string& label,
                                   std::map<std::string, double> constants = {});

/// Names an output index for mismatch messages: "<what> <index>" ("segment 12").
reference::IndexNamer IndexNamer(std::string what);

/// What the technique rows share: metadata, the prepared dispatches and the fixed work of one.
/// Params: rows and cols (the problem's grid as docs/CEILINGS.md shows it) and, after Prepare,
/// buffer_bytes (the timed problem's main buffer).
class TechniqueRow : public bench::Benchmark {
 public:
  const bench::BenchmarkInfo& info() const override { return info_; }
  /// Nothing by default: every kernel stays within WebGPU's default limits.
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Release() override;

  /// Metric units (elements, particles, pixels, keys, hops…) one dispatch processes; fixed.
  double WorkPerDispatch() const override { return work_per_dispatch_; }
  std::span<const gpu::Dispatch> Dispatches() const override { return dispatches_; }

 protected:
  TechniqueRow(bench::BenchmarkInfo info, double work_per_dispatch, uint64_t rows, uint64_t cols);
  /// Throws Error when Verify runs before Prepare compiled `pipeline`.
  void RequirePrepared(const gpu::ComputePipeline& pipeline) const;
  /// Records the timed problem's main buffer size [bytes] in params.
  void SetBufferBytes(uint64_t bytes) { info_.params["buffer_bytes"] = bytes; }

  bench::BenchmarkInfo info_;
  double work_per_dispatch_;
  std::vector<gpu::Dispatch> dispatches_;  ///< set by Prepare
};

/// workgroup-64 / -128 / -256: y = x × a + b over 1,048,576 vec4; the workgroup size is the
/// kernel's override `wg`. Unit elem/s: 4,194,304 f32 elements a dispatch.
class WorkgroupSizeRow final : public TechniqueRow {
 public:
  explicit WorkgroupSizeRow(uint32_t workgroup_size);
  void Prepare(gpu::Context& context) override;
  /// 10,007 vec4 (a partial last workgroup), compared exactly.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  uint32_t workgroup_size_;
  gpu::ComputePipeline pipeline_;
};

/// layout-aos / -soa / -aosoa: p += v × dt for 65,536 particles of 8 f32 fields. Unit
/// particle/s: 65,536 particles a dispatch.
class LayoutRow final : public TechniqueRow {
 public:
  explicit LayoutRow(reference::ParticleLayout layout);
  void Prepare(gpu::Context& context) override;
  /// The full 65,536 particles on fresh buffers, one update, every field compared exactly.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  reference::ParticleLayout layout_;
  gpu::ComputePipeline pipeline_;
};

enum class TileVariant { kDirect, kShared, kSharedPadded };

/// tile-direct / -shared / -shared-padded: a 3×3 box filter over a 2048×2048 f32 image. Unit
/// px/s: 4,194,304 output pixels a dispatch.
class TileRow final : public TechniqueRow {
 public:
  explicit TileRow(TileVariant variant);
  void Prepare(gpu::Context& context) override;
  /// A 100×70 image (partial tiles in both directions), within 1e-6 relative.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  TileVariant variant_;
  gpu::ComputePipeline pipeline_;
};

enum class ReductionVariant { kSerial, kWorkgroup, kSubgroup };

/// reduction-serial / -workgroup / -subgroup: the sums of 64 copies of 256 segments × 256 u32.
/// Unit elem/s: 4,194,304 values summed a dispatch.
class ReductionRow final : public TechniqueRow {
 public:
  explicit ReductionRow(ReductionVariant variant);
  /// The subgroup variant needs the subgroups feature.
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  /// 4 copies (1024 segments), every sum compared exactly.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  ReductionVariant variant_;
  gpu::ComputePipeline pipeline_;
};

enum class BranchVariant { kSelect, kIf };

/// branch-vec4-select / -if: 64 conditional steps on each lane of 262,144 vec4. Unit step/s:
/// 67,108,864 lane-steps a dispatch.
class BranchVec4Row final : public TechniqueRow {
 public:
  explicit BranchVec4Row(BranchVariant variant);
  void Prepare(gpu::Context& context) override;
  /// 4,099 vec4 at the full 64 steps, compared exactly.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  BranchVariant variant_;
  gpu::ComputePipeline pipeline_;
};

enum class AtomicVariant { kDirect, kWorkgroup, kSharded };

/// The histogram a HistogramRow's check expects of `keys` (kHistogramBins counts).
using HistogramModel = std::function<std::vector<uint32_t>(std::span<const uint32_t> keys)>;

/// atomic-direct / -workgroup / -sharded: a 32-bin histogram of 1,048,576 keys, half of them
/// bin 0. Unit key/s: 1,048,576 keys a dispatch (for sharded: the histogram and merge passes).
class HistogramRow final : public TechniqueRow {
 public:
  /// `model`: the check's expectation (tests plant a wrong one).
  explicit HistogramRow(AtomicVariant variant, HistogramModel model = reference::Histogram32);
  void Prepare(gpu::Context& context) override;
  /// 100,003 keys on fresh zero bins, the 32 counts compared exactly.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  AtomicVariant variant_;
  HistogramModel model_;
  gpu::ComputePipeline pipeline_;
  gpu::ComputePipeline merge_;  // sharded only
};

/// The chain ends a DependentChainRow's check expects (see reference::ChainEnds).
using ChainModel = std::function<std::vector<uint32_t>(
    std::span<const uint32_t> next, uint32_t chains, uint32_t start_stride, uint32_t hops)>;

/// read-dependent-chain: 1024 chains of 4096 dependent loads through a single-cycle
/// permutation of 1,048,576 u32 (4 MiB). Unit hop/s: 4,194,304 hops a dispatch.
class DependentChainRow final : public TechniqueRow {
 public:
  /// `model`: the check's expectation (tests plant a wrong one).
  explicit DependentChainRow(ChainModel model = reference::ChainEnds);
  void Prepare(gpu::Context& context) override;
  /// The timed permutation, the full 1024 chains × 4096 hops, every end index exactly.
  VerificationRecord Verify(gpu::Context& context) override;
  void Release() override;

 private:
  ChainModel model_;
  std::vector<uint32_t> next_;  // the permutation, kept for the check
  gpu::Buffer next_buffer_;
  gpu::ComputePipeline pipeline_;
};

/// The 18 technique rows of docs/CEILINGS.md, in catalog order.
std::vector<std::unique_ptr<bench::Benchmark>> MakeTechniqueRows();

}  // namespace refract::suites::ceilings
