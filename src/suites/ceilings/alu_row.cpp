#include "suites/ceilings/alu_row.h"

#include <cstring>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "kernels/embedded_kernels.h"
#include "reference/compare.h"

namespace refract::suites::ceilings {
namespace {

// Threads and iterations the run-time check uses: small enough to be quick on any device, an
// odd iteration count so a kernel that ignores part of the loop bound disagrees.
constexpr uint32_t kVerifyThreads = 1024;
constexpr uint32_t kVerifyIterationsAboveMin = 3;

struct Params {
  uint32_t threads;
  uint32_t iterations;
  uint32_t padding[2];  // uniform buffers are bound in 16-byte units
};

gpu::Dispatch MakeDispatch(gpu::Context& context, const AluRowSpec& spec,
                           const gpu::ComputePipeline& pipeline, const gpu::Buffer& params,
                           const gpu::Buffer& output, uint32_t threads) {
  return gpu::DispatchBuilder(context, pipeline)
      .Buffer(0, params)
      .Buffer(1, output)
      .Groups(gpu::GroupsFor(threads, spec.workgroup_size))
      .Build();
}

gpu::ComputePipeline Compile(gpu::Context& context, const AluRowSpec& spec) {
  std::string_view wgsl =
      spec.source.empty() ? wgsl::KernelSource(spec.kernel) : std::string_view(spec.source);
  return context.CreateComputePipeline({.wgsl = wgsl, .label = spec.id});
}

/// The output words as the values they hold.
std::vector<double> DecodeOutput(const std::vector<uint32_t>& words, OutputType type) {
  std::vector<double> values(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    switch (type) {
      case OutputType::kF32: {
        float value;
        std::memcpy(&value, &words[i], 4);
        values[i] = value;
        break;
      }
      case OutputType::kU32:
        values[i] = words[i];
        break;
      case OutputType::kI32:
        values[i] = static_cast<int32_t>(words[i]);
        break;
    }
  }
  return values;
}

VerificationRecord RunAndCompare(gpu::Context& context, const AluRowSpec& spec,
                                 const gpu::ComputePipeline& pipeline, uint32_t threads,
                                 uint32_t iterations) {
  gpu::Buffer params = gpu::Uniform(context, Params{threads, iterations, {0, 0}});
  gpu::Buffer output = context.CreateBuffer(uint64_t{threads} * 4,
                                            gpu::kUsageStorage | gpu::kUsageCopySrc, "verify out");
  context.RunPass(MakeDispatch(context, spec, pipeline, params, output, threads), 1, false);
  return reference::Compare(spec.id + " (" + std::to_string(iterations) + " iterations)",
                            DecodeOutput(gpu::Download<uint32_t>(context, output), spec.output),
                            spec.model(threads, iterations), spec.tolerance,
                            [](size_t index) { return "thread " + std::to_string(index); });
}

}  // namespace

VerificationRecord VerifyAluKernel(gpu::Context& context, const AluRowSpec& spec, uint32_t threads,
                                   uint32_t iterations) {
  return RunAndCompare(context, spec, Compile(context, spec), threads, iterations);
}

AluRow::AluRow(AluRowSpec spec)
    : LoopRow({.id = spec.id,
               .category = spec.category,
               .unit = spec.unit,
               .needs = bench::NeedsText(spec.needs),
               .description = spec.description,
               .params = {{"threads", spec.threads}}},
              spec.min_iterations, spec.default_iterations),
      spec_(std::move(spec)) {}

AluRow::~AluRow() = default;

std::optional<std::string> AluRow::MissingRequirement(const gpu::Context& context) const {
  return bench::MissingRequirement(context, spec_.needs);
}

void AluRow::Prepare(gpu::Context& context) {
  gpu::ComputePipeline pipeline = Compile(context, spec_);
  gpu::Buffer params = gpu::Uniform(context, Params{spec_.threads, iterations(), {0, 0}});
  gpu::Buffer output =
      context.CreateBuffer(uint64_t{spec_.threads} * 4, gpu::kUsageStorage, spec_.id);
  gpu::Dispatch dispatch = MakeDispatch(context, spec_, pipeline, params, output, spec_.threads);
  SetPrepared(context, std::move(params), std::move(dispatch));
}

VerificationRecord AluRow::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!dispatch().pipeline, Error, spec_.id + ": Verify before Prepare");
  return RunAndCompare(context, spec_, dispatch().pipeline, kVerifyThreads,
                       spec_.min_iterations + kVerifyIterationsAboveMin);
}

void AluRow::WriteParams(gpu::Context& context, const gpu::Buffer& params) const {
  gpu::WriteUniform(context, params, Params{spec_.threads, iterations(), {0, 0}});
}

double AluRow::WorkPerDispatch() const {
  return static_cast<double>(spec_.threads) * iterations() * spec_.ops_per_iteration;
}

}  // namespace refract::suites::ceilings
