#include "suites/ceilings/technique_rows.h"

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::suites::ceilings {
gpu::ComputePipeline CompileKernel(gpu::Context& context, std::string_view kernel,
                                   std::string_view entry_point, const std::string& label,
                                   std::map<std::string, double> constants) {
  return context.CreateComputePipeline({.wgsl = wgsl::KernelSource(kernel),
                                        .label = label,
                                        .entry_point = std::string(entry_point),
                                        .constants = std::move(constants)});
}

reference::IndexNamer IndexNamer(std::string what) {
  return [what = std::move(what)](size_t index) { return what + " " + std::to_string(index); };
}

TechniqueRow::TechniqueRow(bench::BenchmarkInfo info, double work_per_dispatch, uint64_t rows,
                           uint64_t cols)
    : info_(std::move(info)), work_per_dispatch_(work_per_dispatch) {
  if (rows != 0) info_.params["rows"] = rows;
  if (cols != 0) info_.params["cols"] = cols;
}

std::optional<std::string> TechniqueRow::MissingRequirement(const gpu::Context& context) const {
  static_cast<void>(context);
  return std::nullopt;
}

void TechniqueRow::Release() { dispatches_.clear(); }

void TechniqueRow::RequirePrepared(const gpu::ComputePipeline& pipeline) const {
  REFRACT_THROW_IF(!pipeline, Error, info_.id + ": Verify before Prepare");
}

std::vector<std::unique_ptr<bench::Benchmark>> MakeTechniqueRows() {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
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
