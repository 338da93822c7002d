// The embedding ops' axis, default rule and limit checks: pure, no GPU.
#include "ops/embedding_rules.h"

namespace refract::ops {
namespace {

Refusal BaselineCheck(const NoConfig&, const EmbeddingShape& s, const DeviceLimits& limits) {
  if (s.tokens == 0 || s.hidden == 0 || s.vocab == 0) {
    return "an embedding needs tokens, hidden and vocab above 0";
  }
  return FirstRefusal(
      {BindingRefusal(uint64_t{4} * s.vocab * s.hidden, "the embedding table", limits),
       BindingRefusal(uint64_t{4} * s.tokens * s.hidden, "the embedding output", limits)});
}

const AxisTable<EmbeddingConfig>& TunedAxes() {
  static const AxisTable<EmbeddingConfig> kAxes({{WorkgroupAxis(), &EmbeddingConfig::wg}});
  return kAxes;
}

Refusal TunedCheck(const EmbeddingConfig& c, const EmbeddingShape& s, const DeviceLimits& limits) {
  return FirstRefusal(
      {BaselineCheck({}, s, limits), WorkgroupRefusal(c.wg, 0, "the embedding", limits)});
}

}  // namespace

const char* EmbeddingPath(const EmbeddingShape& shape) {
  return shape.hidden % 4 == 0 ? "vec4" : "scalar";
}

const FamilyRules<EmbeddingShape, EmbeddingConfig> kEmbeddingRules{
    {"the seed's embedding", &NoAxes, &NoResolve<EmbeddingShape>, &BaselineCheck},
    {"the tuned embedding", &TunedAxes,
     &ResolveFromDefaults<EmbeddingShape, EmbeddingConfig, &TunedAxes>, &TunedCheck}};

}  // namespace refract::ops
