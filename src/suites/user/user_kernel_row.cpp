#include "suites/user/user_kernel_row.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "base/error.h"
#include "ops/op_support.h"
#include "reference/compare.h"
#include "reference/random_data.h"
#include "suites/sweeps/sweep_review.h"

namespace refract::suites::user {
namespace {

using tune::BindingKind;
using tune::BindingSpec;
using tune::Contents;
using tune::ElementType;
using tune::KernelSpec;
using tune::OutputSpec;
using tune::UserKernel;

template <typename T>
void Put(std::vector<std::byte>& bytes, size_t index, T value) {
  std::memcpy(bytes.data() + index * sizeof(T), &value, sizeof(T));
}

/// One element of `type` from a double (the spec's constant, or a random draw).
void PutElement(std::vector<std::byte>& bytes, size_t index, ElementType type, double value) {
  switch (type) {
    case ElementType::kF32:
      Put(bytes, index, static_cast<float>(value));
      break;
    case ElementType::kI32:
      Put(bytes, index, static_cast<int32_t>(value));
      break;
    case ElementType::kU32:
      Put(bytes, index, static_cast<uint32_t>(value));
      break;
    case ElementType::kU8:
      Put(bytes, index, static_cast<uint8_t>(value));
      break;
  }
}

/// FNV-1a of `name`: the same on every platform, so a seed gives the same inputs everywhere.
uint64_t NameHash(const std::string& name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : name) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

std::vector<std::byte> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot be opened");
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

/// A binding's contents at `problem`, `bytes` long; random draws seeded by the run's seed, the
/// problem and the binding.
std::vector<std::byte> ContentsOf(const BindingSpec& binding, uint64_t bytes,
                                  const tune::ProblemSpec& problem, uint64_t seed) {
  std::vector<std::byte> data(bytes);
  const Contents& contents = binding.contents;
  const size_t count = bytes / tune::ElementBytes(contents.type);
  switch (contents.kind) {
    case Contents::Kind::kZeros:
      break;
    case Contents::Kind::kConstant:
      for (size_t i = 0; i < count; ++i) PutElement(data, i, contents.type, contents.value);
      break;
    case Contents::Kind::kRandom: {
      reference::RandomStream random(seed * 0x9E3779B97F4A7C15ull + binding.group * 64 +
                                     binding.binding + NameHash(problem.name));
      const bool real = contents.type == ElementType::kF32;
      const double span = std::floor(contents.max) - std::ceil(contents.min) + 1;
      for (size_t i = 0; i < count; ++i) {
        const double value =
            real ? random.NextFloat(static_cast<float>(contents.min), static_cast<float>(contents.max))
                 : std::ceil(contents.min) + random.NextBelow(static_cast<uint64_t>(span));
        PutElement(data, i, contents.type, value);
      }
      break;
    }
    case Contents::Kind::kSizes:
      for (size_t i = 0; i < contents.names.size(); ++i) {
        Put(data, i, static_cast<uint32_t>(problem.sizes.at(contents.names[i])));
      }
      break;
    case Contents::Kind::kFile:
      data = ReadBytes(tune::ProblemPath(contents.path, problem.name));
      REFRACT_THROW_IF(data.size() != bytes, UsageError,
                       binding.field + ": the file changed size since the spec was checked");
      break;
  }
  return data;
}

uint32_t UsageOf(BindingKind kind) {
  return kind == BindingKind::kUniform
             ? gpu::kUsageUniform | gpu::kUsageCopyDst
             : gpu::kUsageStorage | gpu::kUsageCopySrc | gpu::kUsageCopyDst;
}

/// A buffer of each binding holding its contents.
std::vector<gpu::Buffer> Buffers(gpu::Context& context, const KernelSpec& spec,
                                 const std::vector<std::vector<std::byte>>& contents) {
  std::vector<gpu::Buffer> buffers;
  for (size_t b = 0; b < spec.bindings.size(); ++b) {
    const BindingSpec& binding = spec.bindings[b];
    gpu::Buffer buffer = context.CreateBuffer(contents[b].size(), UsageOf(binding.kind),
                                              fmt::format("{}:{}", binding.group, binding.binding));
    context.WriteBuffer(buffer, 0, contents[b]);
    buffers.push_back(std::move(buffer));
  }
  return buffers;
}

/// A dispatch of `pipeline` over `grid` with `buffers` bound, each group's bindings that its
/// shader declares (`declared`).
gpu::Dispatch DispatchOf(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                         const KernelSpec& spec, const tune::WgslDeclarations& declared,
                         const std::vector<gpu::Buffer>& buffers, std::array<uint64_t, 3> grid) {
  std::map<uint32_t, std::vector<gpu::BindingEntry>> groups;
  for (size_t b = 0; b < spec.bindings.size(); ++b) {
    const BindingSpec& binding = spec.bindings[b];
    if (!declared.bindings.contains({binding.group, binding.binding})) continue;
    groups[binding.group].push_back({.binding = binding.binding,
                                     .resource = gpu::BufferBinding{.buffer = buffers[b]}});
  }
  gpu::Dispatch dispatch{.pipeline = pipeline,
                         .groups_x = static_cast<uint32_t>(grid[0]),
                         .groups_y = static_cast<uint32_t>(grid[1]),
                         .groups_z = static_cast<uint32_t>(grid[2])};
  for (const auto& [group, entries] : groups) {
    dispatch.bind_groups.resize(group + 1);
    dispatch.bind_groups[group] = context.CreateBindGroup(pipeline, group, entries);
  }
  return dispatch;
}

size_t BindingIndex(const KernelSpec& spec, const OutputSpec& output) {
  for (size_t b = 0; b < spec.bindings.size(); ++b) {
    if (spec.bindings[b].group == output.group && spec.bindings[b].binding == output.binding) return b;
  }
  throw Error(output.field + ": no binding");  // ParseSpec refuses such a spec
}

template <typename T>
T ElementAt(const std::vector<std::byte>& bytes, size_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

/// The spacing of f32 values at |value|: an output's "unit in the last place".
double UlpOf(double value) {
  const float magnitude = std::fabs(static_cast<float>(value));
  return std::nextafter(magnitude, INFINITY) - magnitude;
}

/// `settings`, or the spec's default configuration when empty.
ops::Settings Chosen(const UserKernel& user, const ops::Settings& settings) {
  return settings.empty() ? tune::DefaultSettings(user.spec) : settings;
}

}  // namespace

UserProblem::UserProblem(std::shared_ptr<const UserKernel> user, size_t problem, uint64_t seed)
    : user_(std::move(user)), problem_(problem), seed_(seed) {}

const tune::ProblemSpec& UserProblem::spec() const {
  return user_->spec.problems[problem_];
}

const std::vector<std::vector<std::byte>>& UserProblem::Inputs() {
  if (!inputs_) {
    const KernelSpec& spec = user_->spec;
    const tune::Evaluated sizes =
        tune::Evaluate(spec, this->spec(), tune::DefaultSettings(spec));
    inputs_.emplace();
    for (size_t b = 0; b < spec.bindings.size(); ++b) {
      inputs_->push_back(ContentsOf(spec.bindings[b], sizes.binding_bytes[b], this->spec(), seed_));
    }
  }
  return *inputs_;
}

const std::vector<std::vector<std::byte>>& UserProblem::Expected(gpu::Context& context) {
  if (expected_) return *expected_;
  const KernelSpec& spec = user_->spec;
  std::vector<std::vector<std::byte>> expected;
  if (spec.reference.FromFiles()) {
    for (const OutputSpec& output : spec.outputs) {
      expected.push_back(ReadBytes(tune::ProblemPath(
          spec.reference.files.at({output.group, output.binding}), this->spec().name)));
    }
  } else {
    const tune::Names sizes = tune::NamesOf(this->spec(), {});
    gpu::PipelineSpec pipeline_spec{.wgsl = user_->reference.text,
                                    .label = "reference " + spec.reference.entry,
                                    .entry_point = spec.reference.entry};
    for (const auto& [name, expression] : spec.reference.constants) {
      pipeline_spec.constants[name] =
          tune::Evaluate(expression, sizes, "spec.reference.constants." + name);
    }
    std::array<uint64_t, 3> grid{};
    for (size_t i = 0; i < 3; ++i) {
      grid[i] = tune::EvaluateWhole(spec.reference.grid[i], sizes,
                                             fmt::format("spec.reference.grid[{}]", i));
    }
    const gpu::ComputePipeline pipeline = context.CreateComputePipeline(pipeline_spec);
    const std::vector<gpu::Buffer> buffers = Buffers(context, spec, Inputs());
    context.RunPass(DispatchOf(context, pipeline, spec, user_->reference.declared, buffers, grid), 1,
                    false);
    for (const OutputSpec& output : spec.outputs) {
      const gpu::Buffer& buffer = buffers[BindingIndex(spec, output)];
      expected.push_back(context.ReadBuffer(buffer, 0, buffer.size()));
    }
  }
  expected_ = std::move(expected);
  return *expected_;
}

UserKernelRow::UserKernelRow(std::shared_ptr<const UserKernel> user,
                             std::shared_ptr<UserProblem> problem, const ops::Settings& settings,
                             kernels::KernelOptions options)
    : UserKernelRow(user, problem, Chosen(*user, settings), std::move(options),
                    tune::Evaluate(user->spec, problem->spec(), Chosen(*user, settings))) {}

UserKernelRow::UserKernelRow(std::shared_ptr<const UserKernel> user,
                             std::shared_ptr<UserProblem> problem, const ops::Settings& settings,
                             kernels::KernelOptions options, tune::Evaluated evaluated)
    : KernelBenchmark(
          {.description = "user kernel " + user->kernel.name + " (" + user->spec.entry + ")"},
          kernels::Variant::kTuned,
          evaluated.flop > 0 ? kernels::Metric::kFlops : kernels::Metric::kBytes,
          {.flops = evaluated.flop, .bytes = evaluated.bytes}, std::move(options)),
      user_(std::move(user)),
      problem_(std::move(problem)),
      settings_(settings),
      evaluated_(std::move(evaluated)) {
  identity().kernel = user_->spec.name;
  identity().variant = "user";
}

ops::Refusal UserKernelRow::CheckOn(const DeviceLimits& limits) const {
  const auto& size = evaluated_.workgroup_size;
  const uint64_t invocations = size[0] * size[1] * size[2];
  ops::Refusal workgroup;
  if (size[0] == 0 || size[1] == 0 || size[2] == 0) {
    workgroup = fmt::format("a workgroup of {}x{}x{} invocations is empty", size[0], size[1], size[2]);
  } else if (invocations > limits.max_compute_invocations_per_workgroup ||
             size[0] > limits.max_compute_workgroup_size_x ||
             size[1] > limits.max_compute_workgroup_size_y ||
             size[2] > limits.max_compute_workgroup_size_z) {
    workgroup = fmt::format(
        "a workgroup of {}x{}x{} invocations; the device allows {} ({}x{}x{} at most)", size[0],
        size[1], size[2], limits.max_compute_invocations_per_workgroup,
        limits.max_compute_workgroup_size_x, limits.max_compute_workgroup_size_y,
        limits.max_compute_workgroup_size_z);
  } else if (evaluated_.workgroup_bytes > limits.max_compute_workgroup_storage_size) {
    workgroup = fmt::format("{} bytes of workgroup memory; the device allows {}",
                            evaluated_.workgroup_bytes, limits.max_compute_workgroup_storage_size);
  }
  ops::Refusal grid;
  for (size_t i = 0; i < 3 && !grid; ++i) {
    if (evaluated_.grid[i] == 0 || evaluated_.grid[i] > limits.max_compute_workgroups_per_dimension) {
      grid = fmt::format("a grid of {}x{}x{} workgroups; the device allows 1 to {} a dimension",
                         evaluated_.grid[0], evaluated_.grid[1], evaluated_.grid[2],
                         limits.max_compute_workgroups_per_dimension);
    }
  }
  ops::Refusal binding;
  const KernelSpec& spec = user_->spec;
  for (size_t b = 0; b < spec.bindings.size() && !binding; ++b) {
    const uint64_t bytes = evaluated_.binding_bytes[b];
    if (spec.bindings[b].kind == BindingKind::kUniform) {
      if (bytes > limits.max_uniform_buffer_binding_size) {
        binding = fmt::format("{} needs a uniform binding of {} bytes; the device binds at most {}",
                              spec.bindings[b].field, bytes, limits.max_uniform_buffer_binding_size);
      }
    } else {
      binding = ops::BindingRefusal(bytes, spec.bindings[b].field, limits);
    }
  }
  return ops::FirstRefusal({workgroup, grid, binding});
}

std::vector<ops::Axis> UserKernelRow::OpAxes() const { return tune::AxesOf(user_->spec); }

void UserKernelRow::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  SetAxes(settings_);
  const KernelSpec& spec = user_->spec;
  gpu::PipelineSpec pipeline_spec{.wgsl = user_->kernel.text,
                                  .label = info().id,
                                  .entry_point = spec.entry,
                                  .constants = evaluated_.constants};
  const gpu::ComputePipeline pipeline = context.CreateComputePipeline(pipeline_spec);
  const std::vector<std::vector<std::byte>>& inputs = problem_->Inputs();
  uint64_t input_bytes = 0;
  for (const auto& contents : inputs) input_bytes += contents.size();
  BuildCopies(context, input_bytes, [&](uint32_t) {
    const std::vector<gpu::Buffer> buffers = Buffers(context, spec, inputs);
    Copy copy{.dispatches = {DispatchOf(context, pipeline, spec, user_->kernel.declared, buffers,
                                        evaluated_.grid)}};
    for (const OutputSpec& output : spec.outputs) copy.kept.push_back(buffers[BindingIndex(spec, output)]);
    return copy;
  });
  std::string names;
  for (const std::string& name : user_->StampNames()) names += (names.empty() ? "" : ",") + name;
  SetParam(sweeps::kKernelsParam, names);
  SetParam(sweeps::kKernelHashParam, user_->StampHash());
  SetParam("workgroup_size", fmt::format("{}x{}x{}", evaluated_.workgroup_size[0],
                                         evaluated_.workgroup_size[1], evaluated_.workgroup_size[2]));
  SetParam("grid", fmt::format("{}x{}x{}", evaluated_.grid[0], evaluated_.grid[1], evaluated_.grid[2]));
}

VerificationRecord UserKernelRow::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const KernelSpec& spec = user_->spec;
  const std::vector<std::vector<std::byte>>& expected = problem_->Expected(context);
  VerificationRecord total;
  for (size_t o = 0; o < spec.outputs.size(); ++o) {
    const OutputSpec& output = spec.outputs[o];
    const gpu::Buffer& buffer = FirstCopyBuffer(o);
    const std::vector<std::byte> got = context.ReadBuffer(buffer, 0, buffer.size());
    const std::string what = fmt::format("{} output @group({}) @binding({})", info().id,
                                         output.group, output.binding);
    reference::Comparison comparison(what, {.absolute = output.absolute, .relative = output.relative},
                                     {}, {.phrase = "the reference", .label = "reference"});
    if (got.size() != expected[o].size()) {
      comparison.Fail(fmt::format("the kernel's output holds {} bytes, the reference's {}",
                                  got.size(), expected[o].size()));
    } else {
      const size_t count = got.size() / tune::ElementBytes(output.type);
      for (size_t i = 0; i < count; ++i) {
        switch (output.type) {
          case ElementType::kF32: {
            const float reference = ElementAt<float>(expected[o], i);
            comparison.Check(i, ElementAt<float>(got, i), reference, output.ulps * UlpOf(reference));
            break;
          }
          case ElementType::kI32:
            comparison.Check(i, ElementAt<int32_t>(got, i), ElementAt<int32_t>(expected[o], i));
            break;
          case ElementType::kU32:
          case ElementType::kU8:
            comparison.Check(i, ElementAt<uint32_t>(got, i), ElementAt<uint32_t>(expected[o], i));
            break;
        }
      }
    }
    const VerificationRecord record = comparison.Finish();  // throws on a mismatch
    if (o == 0) total.tolerance = record.tolerance;
    total.elements += record.elements;
    total.max_abs_error = std::max(total.max_abs_error, record.max_abs_error);
  }
  return total;
}

}  // namespace refract::suites::user
