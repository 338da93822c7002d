// The control-flow and latency families of the technique rows: select versus if on vec4 data,
// and the dependent-load chain (see technique_rows.h).
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "suites/ceilings/technique_rows.h"

namespace refract::suites::ceilings {
namespace {

using gpu::Download;
using gpu::Uniform;
using gpu::Upload;

// ---- branch-vec4-* ----
constexpr uint32_t kBranchVec4s = 1u << 18;  // 4 MiB
constexpr uint32_t kBranchSteps = 64;
constexpr uint32_t kBranchVerifyVec4s = 4099;  // a partial last workgroup
constexpr uint32_t kBranchWorkgroup = 256;

struct BranchParams {
  uint32_t count;
  uint32_t steps;
  uint32_t padding[2];
};

// ---- read-dependent-chain ----
constexpr uint32_t kChainIndices = 1u << 20;  // 4 MiB of u32
constexpr uint32_t kChains = 1024;
constexpr uint32_t kChainStartStride = kChainIndices / kChains;
constexpr uint32_t kHops = 4096;
constexpr uint32_t kChainWorkgroup = 64;
constexpr uint64_t kChainSeed = 0x5a77010ull;

struct ChainParams {
  uint32_t hops;
  uint32_t start_stride;
  uint32_t padding[2];
};

bench::BenchmarkInfo BranchInfo(BranchVariant variant) {
  constexpr const char* kCommon =
      "64 steps of x = x < 1024 ? 2x + 1 : 2x - 2048 on every lane of 262,144 vec4 (lanes "
      "diverge), ";
  constexpr const char* kMetric = "; step/s = 262,144 vec4 x 4 lanes x 64 steps / time";
  if (variant == BranchVariant::kSelect) {
    return {"branch-vec4-select", "algorithm", "step/s", "",
            std::string(kCommon) + "one select() on the vec4" + kMetric};
  }
  return {"branch-vec4-if", "algorithm", "step/s", "",
          std::string(kCommon) + "an if/else per component" + kMetric};
}

gpu::Dispatch BranchDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                             uint32_t count, const gpu::Buffer& data) {
  return gpu::DispatchBuilder(context, pipeline)
      .Buffer(0, Uniform(context, BranchParams{count, kBranchSteps, {0, 0}}))
      .Buffer(1, data)
      .Groups(gpu::GroupsFor(count, kBranchWorkgroup))
      .Build();
}

gpu::Dispatch ChainDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                            const gpu::Buffer& next, const gpu::Buffer& ends) {
  return gpu::DispatchBuilder(context, pipeline)
      .Buffer(0, Uniform(context, ChainParams{kHops, kChainStartStride, {0, 0}}))
      .Buffer(1, next)
      .Buffer(2, ends)
      .Groups(kChains / kChainWorkgroup)
      .Build();
}

}  // namespace

// ---- BranchVec4Row ----

BranchVec4Row::BranchVec4Row(BranchVariant variant)
    : TechniqueRow(BranchInfo(variant), double{kBranchVec4s} * 4 * kBranchSteps, kBranchVec4s, 4),
      variant_(variant) {}

void BranchVec4Row::Prepare(gpu::Context& context) {
  pipeline_ =
      CompileKernel(context, "ceil_branch_vec4",
                    variant_ == BranchVariant::kSelect ? "with_select" : "with_if", info_.id);
  std::vector<float> lanes = reference::MakeBranchLanes(kBranchVec4s * 4);
  gpu::Buffer data = Upload(context, std::span<const float>(lanes), gpu::kUsageStorage, "lanes");
  SetBufferBytes(data.size());
  dispatches_ = {BranchDispatch(context, pipeline_, kBranchVec4s, data)};
}

VerificationRecord BranchVec4Row::Verify(gpu::Context& context) {
  RequirePrepared(pipeline_);
  std::vector<float> lanes = reference::MakeBranchLanes(kBranchVerifyVec4s * 4);
  gpu::Buffer data = Upload(context, std::span<const float>(lanes),
                            gpu::kUsageStorage | gpu::kUsageCopySrc, "verify lanes");
  context.RunPass(BranchDispatch(context, pipeline_, kBranchVerifyVec4s, data), 1, false);
  std::vector<float> gpu = Download<float>(context, data);
  std::vector<float> cpu = reference::BranchModel(lanes, kBranchSteps);
  return reference::Compare(info_.id, gpu, cpu, Tolerance{},
                            IndexNamer("lane"));  // exact: integers below 2^12
}

// ---- DependentChainRow ----

DependentChainRow::DependentChainRow(ChainModel model)
    : TechniqueRow({"read-dependent-chain", "algorithm", "hop/s", "",
                    "1024 chains x 4096 dependent u32 loads through a single-cycle permutation "
                    "of 4 MiB (latency-bound); hop/s = 4,194,304 hops / time"},
                   double{kChains} * kHops, kChains, kHops),
      model_(std::move(model)) {}

void DependentChainRow::Prepare(gpu::Context& context) {
  pipeline_ = CompileKernel(context, "ceil_read_dependent_chain", "main", info_.id);
  next_ = reference::SattoloPermutation(kChainIndices, kChainSeed);
  next_buffer_ = Upload(context, std::span<const uint32_t>(next_), gpu::kUsageStorage, "next");
  gpu::Buffer ends = context.CreateBuffer(uint64_t{kChains} * 4, gpu::kUsageStorage, "ends");
  SetBufferBytes(next_buffer_.size());
  dispatches_ = {ChainDispatch(context, pipeline_, next_buffer_, ends)};
}

VerificationRecord DependentChainRow::Verify(gpu::Context& context) {
  RequirePrepared(pipeline_);
  gpu::Buffer ends = context.CreateBuffer(uint64_t{kChains} * 4,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "verify ends");
  context.RunPass(ChainDispatch(context, pipeline_, next_buffer_, ends), 1, false);
  std::vector<uint32_t> gpu = Download<uint32_t>(context, ends);
  std::vector<uint32_t> cpu = model_(next_, kChains, kChainStartStride, kHops);
  return reference::Compare(info_.id, gpu, cpu, Tolerance{}, IndexNamer("chain"));
}

void DependentChainRow::Release() {
  TechniqueRow::Release();
  next_.clear();
  next_.shrink_to_fit();
  next_buffer_ = {};
}

}  // namespace refract::suites::ceilings
