#include "suites/ceilings/technique_rows.h"

#include "base/error.h"
#include "kernels/embedded_kernels.h"
#include "suites/ceilings/technique_rows_common.h"

namespace refract::suites::ceilings {
namespace technique {

gpu::ComputePipeline Compile(gpu::Context& context, std::string_view kernel,
                             std::string_view entry_point, const std::string& label,
                             std::map<std::string, double> constants) {
  return context.CreateComputePipeline({.wgsl = kernels::KernelSource(kernel),
                                        .label = label,
                                        .entry_point = std::string(entry_point),
                                        .constants = std::move(constants)});
}

void MismatchLog::Note(size_t index, double gpu, double cpu) {
  if (mismatches_++ < 3) {
    first_ << (mismatches_ > 1 ? "; " : "") << what_ << " " << index << ": GPU " << gpu << ", CPU "
           << cpu;
  }
}

void MismatchLog::ThrowIfAny(size_t total) const {
  if (mismatches_ == 0) return;
  throw VerificationError(id_ + ": " + std::to_string(mismatches_) + " of " +
                          std::to_string(total) +
                          " outputs disagree with the CPU model: " + first_.str());
}

}  // namespace technique

std::optional<std::string> TechniqueRow::MissingRequirement(const gpu::Context& context) const {
  static_cast<void>(context);
  return std::nullopt;
}

void TechniqueRow::Release() { dispatches_.clear(); }

void TechniqueRow::RequirePrepared(const gpu::ComputePipeline& pipeline) const {
  REFRACT_THROW_IF(!pipeline, Error, info_.id + ": Verify before Prepare");
}

std::vector<std::unique_ptr<CeilingRow>> MakeTechniqueRows() {
  std::vector<std::unique_ptr<CeilingRow>> rows;
  for (uint32_t size : {64u, 128u, 256u}) rows.push_back(std::make_unique<WorkgroupSizeRow>(size));
  for (reference::ParticleLayout layout :
       {reference::ParticleLayout::kAos, reference::ParticleLayout::kSoa,
        reference::ParticleLayout::kAosoa}) {
    rows.push_back(std::make_unique<LayoutRow>(layout));
  }
  for (TileVariant variant :
       {TileVariant::kDirect, TileVariant::kShared, TileVariant::kSharedPadded}) {
    rows.push_back(std::make_unique<TileRow>(variant));
  }
  for (ReductionVariant variant :
       {ReductionVariant::kSerial, ReductionVariant::kWorkgroup, ReductionVariant::kSubgroup}) {
    rows.push_back(std::make_unique<ReductionRow>(variant));
  }
  for (BranchVariant variant : {BranchVariant::kSelect, BranchVariant::kIf}) {
    rows.push_back(std::make_unique<BranchVec4Row>(variant));
  }
  for (AtomicVariant variant :
       {AtomicVariant::kDirect, AtomicVariant::kWorkgroup, AtomicVariant::kSharded}) {
    rows.push_back(std::make_unique<HistogramRow>(variant));
  }
  rows.push_back(std::make_unique<DependentChainRow>());
  return rows;
}

}  // namespace refract::suites::ceilings
