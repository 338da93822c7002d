// A kernels-suite row that runs one family's op: the baseline kind for the baseline variant,
// the tuned kind for the tuned one (the options' settings fixed, the op's default rule for the
// rest). The row keeps what is its own (inputs, cold copies, CPU model); how the kernel runs is
// the op's.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ops/op.h"
#include "suites/kernels/kernel_benchmark.h"

namespace refract::suites::kernels {

/// Records one call of an op on a copy's buffers.
template <typename Buffers>
using Recorder = std::function<std::vector<gpu::Dispatch>(const Buffers&)>;

/// Compiles `kind`'s op at `config` (UsageError naming `label` when its rules refuse it) and
/// returns how a copy's buffers are recorded with it; the recorder keeps the op alive.
template <typename Shape, typename Config, typename Buffers>
Recorder<Buffers> CompileOp(gpu::Context& context, const ops::OpKind<Shape, Config, Buffers>& kind,
                            const Shape& shape, const Config& config, const std::string& label) {
  auto op = std::make_shared<ops::Op<Shape, Config, Buffers>>(kind, context, shape, config, label);
  return [op, &context](const Buffers& b) { return op->Record(context, b); };
}

template <typename Shape, typename Config, typename Buffers>
class OpRow : public KernelBenchmark {
 public:
  using BaselineKind = ops::OpKind<Shape, ops::NoConfig, Buffers>;
  using TunedKind = ops::OpKind<Shape, Config, Buffers>;

  /// A setting the tuned op has no axis for, then the variant's rules at its configuration.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override {
    const Shape shape = ShapeOn(limits);
    if (variant() == Variant::kBaseline) return baseline_.rules.Check({}, shape, limits);
    if (auto unknown = UnknownSettings({&tuned_.rules.axes().axes()})) return unknown;
    return tuned_.rules.Check(TunedConfig(shape, limits), shape, limits);
  }

  std::vector<ops::Axis> OpAxes() const override {
    if (variant() == Variant::kBaseline) return {};
    return tuned_.rules.axes().axes();
  }

 protected:
  OpRow(bench::BenchmarkInfo info, Variant variant, Metric metric, KernelCost cost,
        KernelOptions options, Shape shape, const ops::Family<Shape, Config, Buffers>& family)
      : KernelBenchmark(std::move(info), variant, metric, cost, std::move(options)),
        shape_(std::move(shape)),
        baseline_(family.baseline),
        tuned_(family.tuned) {}

  const Shape& shape() const { return shape_; }
  /// The op's problem on a device with `limits`: the row's shape, unless a row sizes its
  /// problem for the device (the embedding caps its table to what the device binds).
  virtual Shape ShapeOn(const DeviceLimits&) const { return shape_; }

  /// Compiles the row's op (a tuned row records its configuration's axes in params), after
  /// RequireRunnable.
  Recorder<Buffers> BuildOp(gpu::Context& context) {
    RequireRunnable(context);
    const Shape shape = ShapeOn(context.limits());
    if (variant() == Variant::kBaseline) {
      return CompileOp(context, baseline_, shape, ops::NoConfig{}, info().id);
    }
    const Config config = TunedConfig(shape, context.limits());
    SetAxes(tuned_.rules.axes().ValuesOf(config));
    return CompileOp(context, tuned_, shape, config, info().id);
  }

  /// The tuned configuration: the options' settings, the rules' default for the rest.
  Config TunedConfig(const Shape& shape, const DeviceLimits& limits) const {
    return tuned_.rules.Resolve(shape, limits, options().settings);
  }

 private:
  Shape shape_;
  const BaselineKind& baseline_;
  const TunedKind& tuned_;
};

}  // namespace refract::suites::kernels
