// The reduction families of the technique rows: segmented sums and the 32-bin histogram (see
// technique_rows.h).
#include <array>

#include "base/lookup.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "suites/ceilings/technique_rows.h"

namespace refract::suites::ceilings {
namespace {

using gpu::Download;
using gpu::Uniform;
using gpu::Upload;

// ---- reduction-* ----
constexpr uint32_t kSegmentLength = 256;  // docs/CEILINGS.md: 256 segments × 256 u32 …
constexpr uint32_t kSegmentsPerCopy = 256;
constexpr uint32_t kCopies = 64;  // … repeated 64 times, so a dispatch is not overhead
constexpr uint32_t kVerifyCopies = 4;
constexpr uint32_t kSerialWorkgroup = 64;  // ceil_reduction.wgsl's `serial`

struct ReductionParams {
  uint32_t segments;
  uint32_t padding[3];
};

// ---- atomic-* ----
constexpr uint32_t kKeys = 1u << 20;
constexpr uint32_t kVerifyKeys = 100003;  // not a multiple of the grid's 65,536 threads
constexpr uint32_t kHistogramWorkgroups = 256;
constexpr uint32_t kShards = 32;  // ceil_atomic.wgsl's kShards

struct HistogramParams {
  uint32_t count;
  uint32_t padding[3];
};

/// What tells a variant's row apart: its id, what it needs and how it goes about the work.
struct VariantFacts {
  const char* id;
  const char* needs;
  const char* how;
};

bench::BenchmarkInfo ReductionInfo(ReductionVariant variant) {
  static constexpr Entry<ReductionVariant, VariantFacts> kFacts[] = {
      {ReductionVariant::kSerial, {"reduction-serial", "", "one thread a segment looping over it"}},
      {ReductionVariant::kWorkgroup,
       {"reduction-workgroup", "", "a workgroup tree in workgroup memory"}},
      {ReductionVariant::kSubgroup,
       {"reduction-subgroup", "subgroups", "subgroupAdd, then a workgroup atomic a subgroup"}}};
  const VariantFacts facts = Lookup(kFacts, variant, VariantFacts{"", "", ""});
  return {facts.id, "algorithm", "elem/s", facts.needs,
          std::string("sum 64 copies of 256 segments x 256 u32 (16,384 segments), ") + facts.how +
              "; elem/s = 4,194,304 values / time"};
}

bench::BenchmarkInfo HistogramInfo(AtomicVariant variant) {
  static constexpr Entry<AtomicVariant, VariantFacts> kFacts[] = {
      {AtomicVariant::kDirect, {"atomic-direct", "", "atomicAdd to global bins"}},
      {AtomicVariant::kWorkgroup,
       {"atomic-workgroup", "", "per-workgroup bins in workgroup memory, then merged"}},
      {AtomicVariant::kSharded,
       {"atomic-sharded", "",
        "32 global copies (thread t uses copy t % 32), summed by a second pass"}}};
  const VariantFacts facts = Lookup(kFacts, variant, VariantFacts{"", "", ""});
  return {facts.id, "algorithm", "key/s", facts.needs,
          std::string("32-bin histogram of 1,048,576 keys, half to bin 0: ") + facts.how +
              "; key/s = 1,048,576 keys / time"};
}

}  // namespace

// ---- ReductionRow ----

namespace {

/// The pass that reduces `segments` segments of `data` into `sums`.
gpu::Dispatch ReductionDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                                ReductionVariant variant, uint32_t segments,
                                const gpu::Buffer& data, const gpu::Buffer& sums) {
  gpu::DispatchBuilder builder(context, pipeline);
  builder.Buffer(1, data).Buffer(2, sums);
  if (variant == ReductionVariant::kSerial) {
    builder.Buffer(0, Uniform(context, ReductionParams{segments, {}}));
    return builder.Groups(segments / kSerialWorkgroup).Build();
  }
  return builder.Groups(segments).Build();  // one a group
}

}  // namespace

ReductionRow::ReductionRow(ReductionVariant variant)
    : TechniqueRow(ReductionInfo(variant), double{kCopies} * kSegmentsPerCopy * kSegmentLength,
                   kCopies * kSegmentsPerCopy, kSegmentLength),
      variant_(variant) {}

std::optional<std::string> ReductionRow::MissingRequirement(const gpu::Context& context) const {
  if (variant_ == ReductionVariant::kSubgroup && !context.HasFeature(gpu::Feature::kSubgroups)) {
    return "needs subgroups, which this device lacks";
  }
  return std::nullopt;
}

void ReductionRow::Prepare(gpu::Context& context) {
  switch (variant_) {
    case ReductionVariant::kSerial:
      pipeline_ = CompileKernel(context, "ceil_reduction", "serial", info_.id);
      break;
    case ReductionVariant::kWorkgroup:
      pipeline_ = CompileKernel(context, "ceil_reduction", "workgroup_tree", info_.id);
      break;
    case ReductionVariant::kSubgroup:
      pipeline_ = CompileKernel(context, "ceil_reduction_subgroup", "main", info_.id);
      break;
  }
  constexpr uint32_t kSegments = kCopies * kSegmentsPerCopy;
  std::vector<uint32_t> values = reference::MakeSegments(kSegments, kSegmentLength);
  gpu::Buffer data =
      Upload(context, std::span<const uint32_t>(values), gpu::kUsageStorage, "segments");
  gpu::Buffer sums = context.CreateBuffer(uint64_t{kSegments} * 4, gpu::kUsageStorage, "sums");
  SetBufferBytes(data.size());
  dispatches_ = {ReductionDispatch(context, pipeline_, variant_, kSegments, data, sums)};
}

VerificationRecord ReductionRow::Verify(gpu::Context& context) {
  RequirePrepared(pipeline_);
  constexpr uint32_t kSegments = kVerifyCopies * kSegmentsPerCopy;
  std::vector<uint32_t> values = reference::MakeSegments(kSegments, kSegmentLength);
  gpu::Buffer data =
      Upload(context, std::span<const uint32_t>(values), gpu::kUsageStorage, "verify segments");
  gpu::Buffer sums = context.CreateBuffer(uint64_t{kSegments} * 4,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "verify sums");
  context.RunPass(ReductionDispatch(context, pipeline_, variant_, kSegments, data, sums), 1, false);
  std::vector<uint32_t> gpu = Download<uint32_t>(context, sums);
  std::vector<uint32_t> cpu = reference::SegmentSums(values, kSegmentLength);
  return reference::Compare(info_.id, gpu, cpu, Tolerance{}, IndexNamer("segment"));
}

// ---- HistogramRow ----

namespace {

/// The dispatches of one histogram of `count` keys: the histogram pass, and for the sharded
/// variant the merge pass writing `merged`.
std::vector<gpu::Dispatch> HistogramDispatches(gpu::Context& context, AtomicVariant variant,
                                               const gpu::ComputePipeline& pipeline,
                                               const gpu::ComputePipeline& merge, uint32_t count,
                                               const gpu::Buffer& keys, const gpu::Buffer& bins,
                                               const gpu::Buffer& merged) {
  std::vector<gpu::Dispatch> dispatches = {
      gpu::DispatchBuilder(context, pipeline)
          .Buffer(0, Uniform(context, HistogramParams{count, {}}))
          .Buffer(1, keys)
          .Buffer(2, bins)
          .Groups(kHistogramWorkgroups)
          .Build()};
  if (variant == AtomicVariant::kSharded) {
    dispatches.push_back(
        gpu::DispatchBuilder(context, merge).Buffer(2, bins).Buffer(3, merged).Build());
  }
  return dispatches;
}

uint64_t BinWords(AtomicVariant variant) {
  return variant == AtomicVariant::kSharded ? uint64_t{kShards} * reference::kHistogramBins
                                            : reference::kHistogramBins;
}

}  // namespace

HistogramRow::HistogramRow(AtomicVariant variant, HistogramModel model)
    : TechniqueRow(HistogramInfo(variant), kKeys, kKeys, reference::kHistogramBins),
      variant_(variant),
      model_(std::move(model)) {}

void HistogramRow::Prepare(gpu::Context& context) {
  constexpr std::array<const char*, 3> kEntries = {"direct", "workgroup_private", "sharded"};
  pipeline_ =
      CompileKernel(context, "ceil_atomic", kEntries[static_cast<size_t>(variant_)], info_.id);
  if (variant_ == AtomicVariant::kSharded) {
    merge_ = CompileKernel(context, "ceil_atomic", "merge_shards", info_.id + " merge");
  }
  std::vector<uint32_t> values = reference::MakeHistogramKeys(kKeys);
  gpu::Buffer keys = Upload(context, std::span<const uint32_t>(values), gpu::kUsageStorage, "keys");
  gpu::Buffer bins = context.CreateBuffer(BinWords(variant_) * 4, gpu::kUsageStorage, "bins");
  gpu::Buffer merged =
      context.CreateBuffer(uint64_t{reference::kHistogramBins} * 4, gpu::kUsageStorage, "merged");
  SetBufferBytes(keys.size());
  dispatches_ =
      HistogramDispatches(context, variant_, pipeline_, merge_, kKeys, keys, bins, merged);
}

VerificationRecord HistogramRow::Verify(gpu::Context& context) {
  RequirePrepared(pipeline_);
  std::vector<uint32_t> values = reference::MakeHistogramKeys(kVerifyKeys);
  gpu::Buffer keys =
      Upload(context, std::span<const uint32_t>(values), gpu::kUsageStorage, "verify keys");
  // New buffers start zeroed.
  gpu::Buffer bins = context.CreateBuffer(BinWords(variant_) * 4,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "verify bins");
  gpu::Buffer merged =
      context.CreateBuffer(uint64_t{reference::kHistogramBins} * 4,
                           gpu::kUsageStorage | gpu::kUsageCopySrc, "verify merged");
  std::vector<gpu::Dispatch> dispatches =
      HistogramDispatches(context, variant_, pipeline_, merge_, kVerifyKeys, keys, bins, merged);
  context.RunPass(dispatches, 1, false);
  std::vector<uint32_t> gpu =
      Download<uint32_t>(context, variant_ == AtomicVariant::kSharded ? merged : bins);
  std::vector<uint32_t> cpu = model_(values);
  return reference::Compare(info_.id, gpu, cpu, Tolerance{}, IndexNamer("bin"));
}

}  // namespace refract::suites::ceilings
