#include "cli/decode_profile.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "cli/kernels_profile.h"
#include "kernels/embedded_kernels.h"
#include "ops/op_kinds.h"

namespace refract::cli {
namespace {

/// Where `key`'s configuration comes from, and (when from the profile) the configuration.
struct GemvSource {
  std::optional<ops::GemvConfig> config;
  std::string source;
};

/// Why `entry` is stale for an op that compiles `compiled`, or nothing. The sweep row that measured
/// it compiled the op's kernel files and, for a q8 GEMV, the quantizer its check runs; so the
/// entry must name every file the op compiles, and none of the files it names may have changed
/// since (nor Dawn, nor the op's axes).
std::optional<std::string> StaleForOp(const profile::Entry& entry,
                                      const std::vector<std::string>& compiled,
                                      const std::vector<ops::Axis>& axes) {
  const std::vector<std::string>& measured = entry.stamp.kernels;
  for (const std::string& name : compiled) {
    if (std::find(measured.begin(), measured.end(), name) == measured.end()) {
      return "its measurement did not compile " + name + ", which this GEMV compiles";
    }
  }
  const profile::Query expect{.dawn_package = REFRACT_DAWN_PACKAGE,
                              .kernel_hash = wgsl::KernelsHash(measured),
                              .axes_hash = ops::AxesHashOf(axes)};
  return profile::StaleReason(entry, expect);
}

GemvSource ChooseOne(const profile::Store& store, gpu::Context& context, const std::string& adapter,
                     const decode::GemvKey& key) {
  const auto& rules = key.q8 ? ops::kGemvQ8Rules : ops::kGemvRules;
  const std::vector<ops::Axis>& axes = rules.axes().axes();
  const profile::Query query{.adapter_key = adapter,
                             .kernel = "matmul-q4",
                             .variant = key.q8 ? "tuned-q8" : "tuned",
                             .problem = "",
                             .shape = {{"m", 1}, {"n", key.n}, {"k", key.k}},
                             .default_limits = false,
                             .dawn_package = REFRACT_DAWN_PACKAGE,
                             .kernel_hash = "",
                             .axes_hash = ops::AxesHashOf(axes)};
  const profile::Answer answer = profile::Lookup(store, query);
  if (!answer.choice || answer.entry == nullptr) return {{}, "built-in default: " + answer.note};
  if (!answer.exact) return {{}, "built-in default: no entry of this shape (" + answer.note + ")"};
  const profile::Entry& entry = *answer.entry;
  if (const auto refusal = EntryRefusal(entry, axes)) {
    return {{}, "built-in default: the profile entry is refused: " + *refusal};
  }
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4,
                               .dims = {.m = 1, .k = key.k, .n = key.n}};
  const ops::Settings settings(entry.winner.params.begin(), entry.winner.params.end());
  const ops::GemvConfig config = rules.Resolve(shape, context.limits(), settings);
  std::vector<std::string> compiled;
  try {
    wgsl::TakeKernelsUsed();  // only this op's compiles count below
    const ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers> probe(
        key.q8 ? ops::kGemvQ8 : ops::kGemv, context, shape, config, "decode profile probe");
    compiled = wgsl::TakeKernelsUsed();
  } catch (const DeviceLostError&) {
    throw;
  } catch (const Error& error) {
    return {{},
            "built-in default: the profile entry is refused: its configuration does not "
            "compile here: " +
                std::string(error.what())};
  }
  if (const auto stale = StaleForOp(entry, compiled, axes)) {
    return {{}, "built-in default: the profile entry is stale: " + *stale};
  }
  return {config, fmt::format("profile: the {} sweep's winner ({}), measured {}", entry.sweep,
                              entry.winner.row, entry.stamp.measured_at)};
}

}  // namespace

DecodeGemvChoices ChooseDecodeGemvs(const profile::Store& store, gpu::Context& context,
                                    const std::vector<decode::GemvKey>& keys) {
  const std::string adapter = IdentityOf(context.description()).Key();
  DecodeGemvChoices choices;
  for (const decode::GemvKey& key : keys) {
    GemvSource choice = ChooseOne(store, context, adapter, key);
    if (choice.config) choices.configs[key] = *choice.config;
    choices.sources.push_back(fmt::format("GEMV {} x {} on {} activations: {}", key.n, key.k,
                                          key.q8 ? "q8" : "f32", choice.source));
  }
  context.Settle();
  return choices;
}

}  // namespace refract::cli
