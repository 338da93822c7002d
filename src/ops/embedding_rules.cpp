// The embedding ops' axis, default rule and limit checks: pure, no GPU.
#include "ops/embedding_op.h"

namespace refract::ops {
namespace {

Problem ShapeProblem(const EmbeddingShape& s, const DeviceLimits& limits) {
  if (s.tokens == 0 || s.hidden == 0 || s.vocab == 0) {
    return "an embedding needs tokens, hidden and vocab above 0";
  }
  return FirstProblem(
      {BindingProblem(uint64_t{4} * s.vocab * s.hidden, "the embedding table", limits),
       BindingProblem(uint64_t{4} * s.tokens * s.hidden, "the embedding output", limits)});
}

}  // namespace

Problem EmbeddingBaselineOp::Check(const EmbeddingShape& shape, const DeviceLimits& limits) {
  return ShapeProblem(shape, limits);
}

const AxisTable<EmbeddingConfig>& EmbeddingTunedOp::Axes() {
  static const AxisTable<EmbeddingConfig> kAxes({
      {{.name = "wg",
        .meaning = "invocations a workgroup",
        .default_rule = "256",
        .min = 32,
        .max = 1024,
        .power_of_two = true,
        .grid = {64, 128, 256, 512}},
       &EmbeddingConfig::wg},
  });
  return kAxes;
}

EmbeddingConfig EmbeddingTunedOp::Resolve(const EmbeddingShape&, const DeviceLimits&,
                                          const Settings& settings) {
  return Axes().With(EmbeddingConfig{}, settings);
}

Problem EmbeddingTunedOp::Check(const EmbeddingConfig& c, const EmbeddingShape& shape,
                                const DeviceLimits& limits) {
  if (auto problem = Axes().Disallowed(c)) return "the tuned embedding's " + *problem;
  return FirstProblem(
      {ShapeProblem(shape, limits), WorkgroupProblem(c.wg, 0, "the embedding", limits)});
}

const char* EmbeddingTunedOp::PathOf(const EmbeddingShape& shape) {
  return shape.hidden % 4 == 0 ? "vec4" : "scalar";
}

}  // namespace refract::ops
