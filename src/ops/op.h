// An op on the GPU: a family-variant's rules and its kernel as one table (OpKind), and Op, which
// compiles that kernel at a configuration and records the dispatches of one call on the caller's
// buffers.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/op_rules.h"

namespace refract::ops {

/// A storage buffer one call writes and reads within itself (split partials, an intermediate).
struct Scratch {
  uint64_t bytes = 0;
  std::string label;
};

/// What an op compiled for one shape and configuration: its pipelines, the buffers every call
/// shares (uniforms, tables) and the scratch each call gets afresh. Op::Record appends a new
/// buffer per `scratch` entry to `buffers`, in order, so that `record` reads them after the
/// shared ones, and two calls share no written buffer: they need not wait for each other (as
/// two layers' calls on their own data) and each call is timed as the independent call every
/// other row times.
struct Kernel {
  std::vector<gpu::ComputePipeline> pipelines;
  std::vector<gpu::Buffer> buffers;
  std::vector<Scratch> scratch;
};

/// `kernel` with a fresh storage buffer for each of its scratch entries appended to its buffers.
Kernel WithFreshScratch(gpu::Context& context, const Kernel& kernel);

/// One family-variant's op: its rules, how it compiles its kernel, and how it records one call
/// on the caller's `Buffers`.
template <typename Shape, typename Config, typename Buffers>
struct OpKind {
  const OpRules<Shape, Config>& rules;
  Kernel (*compile)(gpu::Context& context, const Shape& shape, const Config& config,
                    const std::string& label);
  std::vector<gpu::Dispatch> (*record)(gpu::Context& context, const Kernel& kernel,
                                       const Shape& shape, const Config& config,
                                       const Buffers& buffers);
};

/// A family's two ops: the baseline (seed 003's kernel) and the tuned one.
template <typename Shape, typename Config, typename Buffers>
struct Family {
  OpKind<Shape, NoConfig, Buffers> baseline;
  OpKind<Shape, Config, Buffers> tuned;
};

template <typename Shape, typename Config, typename Buffers>
class Op {
 public:
  using Kind = OpKind<Shape, Config, Buffers>;

  /// Compiles `kind`'s kernel at `config` (UsageError naming `label` when the rules' Check
  /// refuses it on this device).
  Op(const Kind& kind, gpu::Context& context, Shape shape, Config config, const std::string& label)
      : kind_(&kind), shape_(std::move(shape)), config_(config) {
    ThrowIfRefused(kind.rules.Check(config_, shape_, context.limits()), label);
    kernel_ = kind.compile(context, shape_, config_, label);
  }

  /// The dispatches of one call, in order, on its own scratch.
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const Buffers& buffers) const {
    return kind_->record(context, WithFreshScratch(context, kernel_), shape_, config_, buffers);
  }
  const Config& config() const { return config_; }
  const Shape& shape() const { return shape_; }
  const Kernel& kernel() const { return kernel_; }

 private:
  const Kind* kind_;
  Shape shape_;
  Config config_;
  Kernel kernel_;
};

/// Compiles entry point `entry` of the concatenation of the named kernel files (in order, shared
/// parts first) with the given override constants; a WGSL error throws GpuError with Dawn's
/// message. The files' directives (`enable`, `requires` lines) go first, each once, so that
/// parts that each need one compose in any order.
gpu::ComputePipeline CompileKernel(gpu::Context& context, const std::vector<std::string_view>& files,
                                   const std::string& label, std::string_view entry = "main",
                                   std::map<std::string, double> constants = {});
inline gpu::ComputePipeline CompileKernel(gpu::Context& context,
                                          std::initializer_list<std::string_view> files,
                                          const std::string& label, std::string_view entry = "main",
                                          std::map<std::string, double> constants = {}) {
  return CompileKernel(context, std::vector<std::string_view>(files), label, entry,
                       std::move(constants));
}

/// One dispatch of `pipeline` binding `slices` at bindings 0, 1, 2, … (an empty slice leaves its
/// binding out) over the given workgroups (a count past the device's limit in x is split into
/// x × y).
gpu::Dispatch OneDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                          std::initializer_list<gpu::BufferSlice> slices, uint32_t groups_x,
                          uint32_t groups_y = 1, uint32_t groups_z = 1);

}  // namespace refract::ops
