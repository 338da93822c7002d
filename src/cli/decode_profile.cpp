#include "cli/decode_profile.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "cli/kernels_profile.h"
#include "decode/fused_gemvs.h"
#include "kernels/embedded_kernels.h"
#include "ops/attention_rules.h"
#include "ops/op_kinds.h"
#include "suites/kernels/qkv_rope_benchmark.h"

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
      return "its measurement did not compile " + name + ", which this op compiles";
    }
  }
  const profile::Query expect{.dawn_package = REFRACT_DAWN_PACKAGE,
                              .kernel_hash = wgsl::KernelsHash(measured),
                              .axes_hash = ops::AxesHashOf(axes)};
  return profile::StaleReason(entry, expect);
}

/// The kernels-suite row a GEMV of the step is swept as: its kernel, variant and shape (the
/// row's dimensions less the op's axes).
struct SweptAs {
  std::string kernel, variant;
  std::map<std::string, double> shape;
};

SweptAs SweptAsOf(const reference::DecoderShape& s, const decode::GemvKey& key) {
  using decode::GemvFusion;
  using suites::kernels::QkvRopeBenchmark;
  switch (key.fusion) {
    case GemvFusion::kNormQkvRope:
      return {"qkv-rope",
              "tuned",
              {{"n", key.n},
               {"k", key.k},
               {"heads", s.heads},
               {"kv_heads", s.kv_heads},
               {"head_dim", s.head_dim},
               {"position", QkvRopeBenchmark::kPosition},
               {"t", 1}}};
    case GemvFusion::kNormGateUpSilu:
      return {"gate-up-silu", "tuned", {{"n", key.n}, {"k", key.k}, {"t", 1}}};
    case GemvFusion::kNormGateUpDown:
      return {"gate-up-down", "tuned", {{"n", key.n}, {"k", key.k}, {"t", 1}}};
    case GemvFusion::kHeadArgmax:
      return {"lm-head-argmax", "tuned", {{"n", key.n}, {"k", key.k}, {"t", 1}}};
    case GemvFusion::kNone:
      break;
  }
  return {"matmul-q4", key.q8 ? "tuned-q8" : "tuned", {{"m", 1}, {"n", key.n}, {"k", key.k}}};
}

/// Compiles the op `key` names at `config` (a probe: whether it compiles here, and which kernel
/// files it compiles); GpuError when it does not.
void CompileProbe(gpu::Context& context, const reference::DecoderShape& s,
                  const decode::GemvKey& key, const ops::GemvConfig& config) {
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4,
                               .dims = {.m = 1, .k = key.k, .n = key.n}};
  switch (key.fusion) {
    case decode::GemvFusion::kNormQkvRope:
      decode::FusedQkv(context, s, config);
      return;
    case decode::GemvFusion::kNormGateUpSilu:
      decode::FusedGateUp(context, s, config);
      return;
    case decode::GemvFusion::kNormGateUpDown:
      decode::FusedGateUpDown(context, s, config);
      return;
    case decode::GemvFusion::kHeadArgmax:
      decode::FusedHeadArgmax(context, s, config);
      return;
    case decode::GemvFusion::kNone:
      break;
  }
  const ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers> probe(
      key.q8 ? ops::kGemvQ8 : ops::kGemv, context, shape, config, "decode profile probe");
}

/// `settings` resolved for the op `key` names: the GEMV's rules, then (fused) fitted to the
/// fused kernel; nothing when the fused kernel cannot take it here.
std::optional<ops::GemvConfig> ConfigOf(gpu::Context& context, const reference::DecoderShape& s,
                                        const decode::GemvKey& key, const ops::Settings& settings) {
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4,
                               .dims = {.m = 1, .k = key.k, .n = key.n}};
  const ops::GemvConfig config =
      (key.q8 ? ops::kGemvQ8Rules : ops::kGemvRules).Resolve(shape, context.limits(), settings);
  switch (key.fusion) {
    case decode::GemvFusion::kNormQkvRope:
      return decode::FusedQkv::ConfigFor(config, s, context.limits());
    case decode::GemvFusion::kNormGateUpSilu:
      return decode::FusedGateUp::ConfigFor(config, s, context.limits());
    case decode::GemvFusion::kNormGateUpDown:
      return decode::FusedGateUpDown::ConfigFor(config, s, context.limits());
    case decode::GemvFusion::kHeadArgmax:
      return decode::FusedHeadArgmax::ConfigFor(config, s, context.limits());
    case decode::GemvFusion::kNone:
      break;
  }
  return config;
}

GemvSource ChooseOne(const profile::Store& store, gpu::Context& context, const std::string& adapter,
                     const reference::DecoderShape& s, const decode::GemvKey& key) {
  const auto& rules = key.q8 ? ops::kGemvQ8Rules : ops::kGemvRules;
  const std::vector<ops::Axis>& axes = rules.axes().axes();
  SweptAs swept = SweptAsOf(s, key);
  const profile::Query query{.adapter_key = adapter,
                             .kernel = swept.kernel,
                             .variant = swept.variant,
                             .problem = "",
                             .shape = std::move(swept.shape),
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
  const ops::Settings settings(entry.winner.params.begin(), entry.winner.params.end());
  const std::optional<ops::GemvConfig> config = ConfigOf(context, s, key, settings);
  if (!config) {
    return {{},
            "built-in default: the profile entry is refused: the fused kernel does not fit "
            "its configuration on this device"};
  }
  std::vector<std::string> compiled;
  try {
    wgsl::TakeKernelsUsed();  // only this op's compiles count below
    CompileProbe(context, s, key, *config);
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
  return {*config, fmt::format("profile: the {} sweep's winner ({}), measured {}", entry.sweep,
                               entry.winner.row, entry.stamp.measured_at)};
}

/// "GEMV 896 x 4864 on q8 activations", with what a fused one adds.
std::string GemvName(const decode::GemvKey& key) {
  const std::string plain =
      fmt::format("GEMV {} x {} on {} activations", key.n, key.k, key.q8 ? "q8" : "f32");
  switch (key.fusion) {
    case decode::GemvFusion::kNormQkvRope:
      return plain + " (fused: norm, q/k/v, RoPE, KV append)";
    case decode::GemvFusion::kNormGateUpSilu:
      return plain + " (fused: norm, gate/up, silu-mul)";
    case decode::GemvFusion::kNormGateUpDown:
      return plain + " (fused: norm, gate/up, silu-mul, down)";
    case decode::GemvFusion::kHeadArgmax:
      return plain + " (fused: the argmax's first stage)";
    case decode::GemvFusion::kNone:
      break;
  }
  return plain;
}

/// Why `settings` cannot configure the step's decode attention of `shape` (at its capacity),
/// or nothing; `compiled` gets the kernel files it compiles (with the merge by head's, `by_head`).
std::optional<std::string> AttentionRefusal(gpu::Context& context, const reference::DecoderShape& s,
                                            const ops::AttentionShape& shape,
                                            const ops::Settings& settings, bool by_head,
                                            std::vector<std::string>& compiled) {
  const ops::AttentionDecodeConfig config =
      ops::kAttentionDecodeRules.Resolve(shape, context.limits(), settings);
  if (auto refusal = ops::kAttentionDecodeRules.Check(config, shape, context.limits())) {
    return "the step's attention (a cache of " + std::to_string(shape.kv_len) +
           " positions) refuses it: " + *refusal;
  }
  try {
    wgsl::TakeKernelsUsed();  // only this op's compiles count below
    const ops::Op<ops::AttentionShape, ops::AttentionDecodeConfig, ops::AttentionBuffers> probe(
        ops::kAttentionDecode, context, shape, config, "decode profile probe");
    if (by_head) {
      const decode::FusedMergeOHeads merge(context, s, ops::DecodeParamsFor(shape, config).splits,
                                           *decode::FusedMergeOHeads::ConfigFor(s, context.limits()));
    }
    compiled = wgsl::TakeKernelsUsed();
  } catch (const DeviceLostError&) {
    throw;
  } catch (const Error& error) {
    return "its configuration does not compile here: " + std::string(error.what());
  }
  return std::nullopt;
}

}  // namespace

DecodeAttentionChoice ChooseDecodeAttention(const profile::Store& store, gpu::Context& context,
                                            const reference::DecoderShape& s,
                                            const suites::decode::DecodeRequest& request) {
  const bool by_head =
      decode::FusedMergeOHeads::ForStep(
          s, context.limits(),
          {.activations = request.activations, .fuse = request.fuse, .merge = request.merge})
          .has_value();
  const std::string kernel = by_head ? "merge-o-heads" : "attention";
  const std::string name = fmt::format("decode attention at S = {} ({} row)", request.context, kernel);
  if (request.context == 0) {
    return {{}, name + ": built-in default: an empty history has no attention row to take"};
  }
  const std::vector<ops::Axis>& axes = ops::kAttentionDecodeRules.axes().axes();
  // The kernels suite's rows at context S: the merge by head's dimensions (o's n and k beside
  // attention's), or the attention decode row's (one query at the cache's last position).
  std::map<std::string, double> dims = {
      {"head_dim", s.head_dim}, {"heads", s.heads}, {"kv_heads", s.kv_heads}, {"s", request.context}};
  if (by_head) {
    dims["n"] = s.hidden;
    dims["k"] = s.QRows();
  } else {
    dims["t"] = 1;
    dims["position_offset"] = request.context - 1;
  }
  const profile::Query query{.adapter_key = IdentityOf(context.description()).Key(),
                             .kernel = kernel,
                             .variant = "tuned",
                             .problem = "",
                             .shape = std::move(dims),
                             .default_limits = false,
                             .dawn_package = REFRACT_DAWN_PACKAGE,
                             .kernel_hash = "",
                             .axes_hash = ops::AxesHashOf(axes)};
  const profile::Answer answer = profile::Lookup(store, query);
  auto fallback = [&](const std::string& why) {
    return DecodeAttentionChoice{{}, name + ": built-in default: " + why};
  };
  if (!answer.choice || answer.entry == nullptr) return fallback(answer.note);
  if (!answer.exact) return fallback("no entry of this shape (" + answer.note + ")");
  const profile::Entry& entry = *answer.entry;
  if (const auto refusal = EntryRefusal(entry, axes)) {
    return fallback("the profile entry is refused: " + *refusal);
  }
  // The winner's split shape; its number of splits is the row's, and the step sizes its own for
  // a cache that holds the steps after S too.
  ops::Settings settings(entry.winner.params.begin(), entry.winner.params.end());
  settings.erase("splits");
  const ops::AttentionShape shape =
      decode::StepAttentionShape(s, suites::decode::DecodeCapacity(request));
  std::vector<std::string> compiled;
  if (const auto refusal = AttentionRefusal(context, s, shape, settings, by_head, compiled)) {
    return fallback("the profile entry is refused: " + *refusal);
  }
  if (const auto stale = StaleForOp(entry, compiled, axes)) {
    return fallback("the profile entry is stale: " + *stale);
  }
  return {settings, fmt::format("{}: profile: the {} sweep's winner ({}; splits sized for the "
                                "step's cache), measured {}",
                                name, entry.sweep, entry.winner.row, entry.stamp.measured_at)};
}

DecodeGemvChoices ChooseDecodeGemvs(const profile::Store& store, gpu::Context& context,
                                    const reference::DecoderShape& shape,
                                    const std::vector<decode::GemvKey>& keys) {
  const std::string adapter = IdentityOf(context.description()).Key();
  DecodeGemvChoices choices;
  for (const decode::GemvKey& key : keys) {
    GemvSource choice = ChooseOne(store, context, adapter, shape, key);
    if (choice.config) choices.configs[key] = *choice.config;
    choices.sources.push_back(GemvName(key) + ": " + choice.source);
  }
  context.Settle();
  return choices;
}

}  // namespace refract::cli
