#include "suites/ceilings/alu_row.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::suites::ceilings {
namespace {

constexpr uint32_t kWorkgroupSize = 64;  // the contract of every raw-ALU kernel
// Threads and iterations the run-time check uses: small enough to be quick on any device, an
// odd iteration count so a kernel that ignores part of the loop bound disagrees.
constexpr uint32_t kVerifyThreads = 1024;
constexpr uint32_t kVerifyIterationsAboveMin = 3;

struct Params {
  uint32_t threads;
  uint32_t iterations;
  uint32_t padding[2];  // uniform buffers are bound in 16-byte units
};

gpu::Buffer MakeParams(gpu::Context& context, uint32_t threads, uint32_t iterations) {
  gpu::Buffer buffer =
      context.CreateBuffer(sizeof(Params), gpu::kUsageUniform | gpu::kUsageCopyDst, "params");
  Params params{threads, iterations, {0, 0}};
  context.WriteBuffer(buffer, 0, std::as_bytes(std::span(&params, 1)));
  return buffer;
}

gpu::Dispatch MakeDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                           const gpu::Buffer& params, const gpu::Buffer& output, uint32_t threads) {
  gpu::Dispatch dispatch;
  dispatch.pipeline = pipeline;
  dispatch.bind_groups = {context.CreateBindGroup(
      pipeline, 0, {{0, gpu::BufferBinding{params}}, {1, gpu::BufferBinding{output}}})};
  dispatch.groups_x = (threads + kWorkgroupSize - 1) / kWorkgroupSize;
  return dispatch;
}

gpu::ComputePipeline Compile(gpu::Context& context, const AluRowSpec& spec) {
  std::string_view wgsl =
      spec.source.empty() ? kernels::KernelSource(spec.kernel) : std::string_view(spec.source);
  return context.CreateComputePipeline({.wgsl = wgsl, .label = spec.id});
}

std::vector<double> DecodeOutput(const std::vector<std::byte>& raw, OutputType type) {
  std::vector<double> values(raw.size() / 4);
  for (size_t i = 0; i < values.size(); ++i) {
    const std::byte* word = raw.data() + 4 * i;
    switch (type) {
      case OutputType::kF32: {
        float value;
        std::memcpy(&value, word, 4);
        values[i] = value;
        break;
      }
      case OutputType::kU32: {
        uint32_t value;
        std::memcpy(&value, word, 4);
        values[i] = value;
        break;
      }
      case OutputType::kI32: {
        int32_t value;
        std::memcpy(&value, word, 4);
        values[i] = value;
        break;
      }
    }
  }
  return values;
}

void CompareWithModel(const AluRowSpec& spec, const std::vector<double>& gpu,
                      const std::vector<double>& cpu, uint32_t iterations) {
  REFRACT_THROW_IF(gpu.size() != cpu.size(), VerificationError,
                   spec.id + ": the model gives " + std::to_string(cpu.size()) +
                       " values, the kernel " + std::to_string(gpu.size()));
  size_t mismatches = 0;
  std::ostringstream first;
  for (size_t i = 0; i < gpu.size(); ++i) {
    double allowed = spec.abs_tolerance + spec.rel_tolerance * std::fabs(cpu[i]);
    // NaN on either side never passes.
    if (std::fabs(gpu[i] - cpu[i]) <= allowed) continue;
    if (mismatches < 3) {
      first << (mismatches ? "; " : "") << "thread " << i << ": GPU " << gpu[i] << ", CPU "
            << cpu[i];
    }
    ++mismatches;
  }
  if (mismatches > 0) {
    throw VerificationError(spec.id + ": " + std::to_string(mismatches) + " of " +
                            std::to_string(gpu.size()) + " outputs disagree with the CPU model (" +
                            std::to_string(iterations) + " iterations): " + first.str());
  }
}

void RunAndCompare(gpu::Context& context, const AluRowSpec& spec,
                   const gpu::ComputePipeline& pipeline, uint32_t threads, uint32_t iterations) {
  gpu::Buffer params = MakeParams(context, threads, iterations);
  gpu::Buffer output = context.CreateBuffer(uint64_t{threads} * 4,
                                            gpu::kUsageStorage | gpu::kUsageCopySrc, "verify out");
  context.RunPass(MakeDispatch(context, pipeline, params, output, threads), 1, false);
  CompareWithModel(spec, DecodeOutput(context.ReadBuffer(output, 0, output.size()), spec.output),
                   spec.model(threads, iterations), iterations);
}

std::string NeedsText(const AluRowSpec& spec) {
  std::string needs;
  for (gpu::Feature feature : spec.needs_features) {
    needs += (needs.empty() ? "" : ", ") + std::string(gpu::FeatureName(feature));
  }
  for (const std::string& feature : spec.needs_language_features) {
    needs += (needs.empty() ? "" : ", ") + feature;
  }
  return needs;
}

}  // namespace

std::optional<std::string> MissingRequirement(const gpu::Context& context, const AluRowSpec& spec) {
  for (gpu::Feature feature : spec.needs_features) {
    if (!context.HasFeature(feature)) {
      return "needs " + std::string(gpu::FeatureName(feature)) + ", which this device lacks";
    }
  }
  for (const std::string& feature : spec.needs_language_features) {
    if (!context.HasWgslLanguageFeature(feature)) {
      return "needs the WGSL language feature " + feature + ", which this device lacks";
    }
  }
  return std::nullopt;
}

void VerifyAluKernel(gpu::Context& context, const AluRowSpec& spec, uint32_t threads,
                     uint32_t iterations) {
  RunAndCompare(context, spec, Compile(context, spec), threads, iterations);
}

AluRow::AluRow(AluRowSpec spec)
    : spec_(std::move(spec)),
      info_{spec_.id, spec_.category, spec_.unit, NeedsText(spec_), spec_.description},
      iterations_(spec_.default_iterations) {}

AluRow::~AluRow() = default;

std::optional<std::string> AluRow::MissingRequirement(const gpu::Context& context) const {
  return ceilings::MissingRequirement(context, spec_);
}

void AluRow::Prepare(gpu::Context& context) {
  context_ = &context;
  gpu::ComputePipeline pipeline = Compile(context, spec_);
  params_ = MakeParams(context, spec_.threads, iterations_);
  output_ = context.CreateBuffer(uint64_t{spec_.threads} * 4, gpu::kUsageStorage, spec_.id);
  dispatch_ = MakeDispatch(context, pipeline, params_, output_, spec_.threads);
}

void AluRow::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!dispatch_.pipeline, Error, spec_.id + ": Verify before Prepare");
  RunAndCompare(context, spec_, dispatch_.pipeline, kVerifyThreads,
                spec_.min_iterations + kVerifyIterationsAboveMin);
}

void AluRow::Release() {
  dispatch_ = {};
  params_ = {};
  output_ = {};
}

void AluRow::SetWork(uint64_t work) {
  REFRACT_THROW_IF(work < MinWork() || work > MaxWork(), Error,
                   spec_.id + ": iterations " + std::to_string(work) + " out of range");
  iterations_ = static_cast<uint32_t>(work);
  if (context_ && params_) {
    Params params{spec_.threads, iterations_, {0, 0}};
    context_->WriteBuffer(params_, 0, std::as_bytes(std::span(&params, 1)));
  }
}

double AluRow::WorkPerDispatch() const {
  return static_cast<double>(spec_.threads) * iterations_ * spec_.ops_per_iteration;
}

std::span<const gpu::Dispatch> AluRow::Dispatches() const {
  return std::span<const gpu::Dispatch>(&dispatch_, 1);
}

}  // namespace refract::suites::ceilings
