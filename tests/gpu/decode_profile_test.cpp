// `refract decode --profile`'s choice per GEMV of the step and for its decode attention
// (cli/decode_profile.h) on the machine's adapter: a fresh entry of a GEMV's exact shape, or of
// the attention row at the step's context, configures it (and the step verifies with that
// configuration); an entry of another shape, one whose params the op refuses and a stale one
// leave the default, each saying why. And the step with both fused GEMVs configured directly at
// subgroup sums, the path a GPU's defaults take and lavapipe's do not.
#include "cli/decode_profile.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "decode/fused_gemvs.h"
#include "decode/model_spec.h"
#include "kernels/embedded_kernels.h"
#include "ops/axis.h"
#include "ops/op_kinds.h"
#include "suites/decode/decode_rows.h"
#include "suites/kernels/attention_benchmark.h"
#include "suites/kernels/gate_up_down_benchmark.h"
#include "suites/kernels/lm_head_argmax_benchmark.h"
#include "suites/kernels/merge_o_heads_benchmark.h"
#include "suites/kernels/qkv_rope_benchmark.h"
#include "testing/shared_context.h"

namespace refract::cli {
namespace {

gpu::Context& Device() { return testing::SharedContext(); }

const reference::DecoderShape& Qwen() {
  static const reference::DecoderShape shape = decode::LoadModel("qwen2.5-0.5b");
  return shape;
}

/// Qwen2.5-0.5B's shapes with 2 layers and a small vocabulary: a step that runs fast.
reference::DecoderShape SmallQwen() {
  reference::DecoderShape shape = Qwen();
  shape.layers = 2;
  shape.vocab = 2048;
  return shape;
}

/// A short decode row of SmallQwen() on `activations` with `choices`' GEMV configurations.
results::ResultRow RunWith(const DecodeGemvChoices& choices,
                           reference::DecoderActivations activations) {
  const suites::decode::DecodeModel model(Device(), SmallQwen(), 5);
  const suites::decode::DecodeRequest request{.context = 40,
                                              .tokens = 2,
                                              .warmup = 1,
                                              .verify_steps = 2,
                                              .profile_steps = 0,
                                              .activations = activations,
                                              .gemvs = choices.configs,
                                              .gemv_sources = choices.sources};
  return suites::decode::RunDecodeRow(Device(), model, request, {}, 5, nullptr);
}

/// A short q8 decode row of SmallQwen() with `choices`' GEMV configurations, its gate/up GEMVs
/// ending in the down projection.
results::ResultRow RunFusedDownWith(const DecodeGemvChoices& choices) {
  const suites::decode::DecodeModel model(Device(), SmallQwen(), 5);
  const suites::decode::DecodeRequest request{.context = 40,
                                              .tokens = 2,
                                              .warmup = 1,
                                              .verify_steps = 2,
                                              .profile_steps = 0,
                                              .activations = reference::DecoderActivations::kQ8,
                                              .gemvs = choices.configs,
                                              .gemv_sources = choices.sources,
                                              .fuse_down = true};
  return suites::decode::RunDecodeRow(Device(), model, request, {}, 5, nullptr);
}

/// A short q8 decode row of SmallQwen() with `choices` verifies, its GEMVs fused: 5 dispatches a
/// layer (attention's merge with the o projection by head, the gate/up GEMV summing the shares),
/// and 4 outside them (the LM head ends in the argmax's first stage).
void ExpectFusedStepVerifies(const DecodeGemvChoices& choices) {
  const results::ResultRow row = RunWith(choices, reference::DecoderActivations::kQ8);
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  EXPECT_EQ(results::TextOf(row.params, "merge"), "by-head");
  ASSERT_TRUE(row.decode.has_value());
  EXPECT_EQ(row.decode->dispatches, 3u + 5u * SmallQwen().layers);
}

// The down projection of Qwen2.5-0.5B's shapes on f32 activations, at 2 rows an invocation and
// 64 invocations a workgroup (not its default).
const decode::GemvKey kDown{.n = 896, .k = 4864, .q8 = false};
const std::map<std::string, uint32_t> kWinner = {
    {"rows", 2}, {"subgroups", 0}, {"tpr", 32}, {"wg", 64}};

/// A store of this adapter holding `entry`, stamped fresh for `kernels` (sorted here), the axes
/// of `rules` and this Dawn.
template <typename Rules>
profile::Store StoreOf(profile::Entry entry, std::vector<std::string> kernels, const Rules& rules,
                       const std::string& measured_at) {
  std::sort(kernels.begin(), kernels.end());
  entry.winner.median_ms = 0.01;
  entry.stamp = {.refract_version = "0.1.0",
                 .dawn_package = REFRACT_DAWN_PACKAGE,
                 .kernels = kernels,
                 .kernel_hash = wgsl::KernelsHash(kernels),
                 .axes = {},
                 .axes_hash = ops::AxesHashOf(rules.axes().axes()),
                 .measured_at = measured_at};
  return {.profiles = {
              {.adapter = {.key = IdentityOf(Device().description()).Key()}, .entries = {entry}}}};
}

/// A store with one entry for `key`'s shape, fresh for what its winner compiles here, measured as
/// a sweep row measures a GEMV: with another kernel file beside the op's (a q8 row's quantizer).
profile::Store FreshStore(const decode::GemvKey& key) {
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4,
                               .dims = {.m = 1, .k = key.k, .n = key.n}};
  const ops::Settings settings(kWinner.begin(), kWinner.end());
  wgsl::TakeKernelsUsed();
  const ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers> op(
      ops::kGemv, Device(), shape, ops::kGemvRules.Resolve(shape, Device().limits(), settings),
      "test");
  std::vector<std::string> kernels = wgsl::TakeKernelsUsed();
  kernels.push_back("llm_quantize_q8_part");
  profile::Entry entry{.sweep = "q4-gemv",
                       .kernel = "matmul-q4",
                       .variant = "tuned",
                       .problem = "qwen2.5-0.5b/down/m1/tuned",
                       .shape = {{"m", 1}, {"n", key.n}, {"k", key.k}}};
  entry.winner.params = kWinner;
  entry.winner.row = "matmul-q4/qwen2.5-0.5b/down/m1/tuned/rows=2:subgroups=0:tpr=32:wg=64";
  return StoreOf(std::move(entry), std::move(kernels), ops::kGemvRules, "2026-12-01T10:00:00Z");
}

TEST(DecodeProfile, AFreshEntryOfTheExactShapeConfiguresItsGemv) {
  const reference::DecoderShape shape = decode::LoadModel("qwen2.5-0.5b");
  const std::vector<decode::GemvKey> keys =
      decode::StepGemvs(shape, reference::DecoderActivations::kF32);
  const DecodeGemvChoices choices = ChooseDecodeGemvs(FreshStore(kDown), Device(), shape, keys);
  ASSERT_EQ(choices.configs.size(), 1u);
  const ops::GemvConfig& config = choices.configs.at(kDown);
  EXPECT_EQ(config.rows, 2u);
  EXPECT_EQ(config.wg, 64u);
  ASSERT_EQ(choices.sources.size(), keys.size());
  for (const std::string& line : choices.sources) {
    const bool down = line.starts_with("GEMV 896 x 4864");
    EXPECT_EQ(line.find(": profile: the q4-gemv sweep's winner") != std::string::npos, down)
        << line;
  }
}

TEST(DecodeProfile, TheStepVerifiesWithTheProfilesConfiguration) {
  const reference::DecoderShape shape = SmallQwen();
  const DecodeGemvChoices choices =
      ChooseDecodeGemvs(FreshStore(kDown), Device(), shape,
                        decode::StepGemvs(shape, reference::DecoderActivations::kF32));
  const results::ResultRow row = RunWith(choices, reference::DecoderActivations::kF32);
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  EXPECT_NE(std::find(row.notes.begin(), row.notes.end(), choices.sources[3]), row.notes.end());
}

TEST(DecodeProfile, OtherEntriesLeaveTheDefaultSayingWhy) {
  const std::vector<decode::GemvKey> down = {kDown};
  // Another shape: no exact entry.
  profile::Store other = FreshStore(kDown);
  other.profiles[0].entries[0].shape["k"] = 4096;
  DecodeGemvChoices choices = ChooseDecodeGemvs(other, Device(), Qwen(), down);
  EXPECT_TRUE(choices.configs.empty());
  EXPECT_NE(choices.sources[0].find("no entry of this shape"), std::string::npos)
      << choices.sources[0];
  // Params the op refuses.
  profile::Store refused = FreshStore(kDown);
  refused.profiles[0].entries[0].winner.params["tpr"] = 3;
  choices = ChooseDecodeGemvs(refused, Device(), Qwen(), down);
  EXPECT_TRUE(choices.configs.empty());
  EXPECT_NE(choices.sources[0].find("refused"), std::string::npos) << choices.sources[0];
  // A kernel edited since: stale.
  profile::Store stale = FreshStore(kDown);
  stale.profiles[0].entries[0].stamp.kernel_hash = std::string(64, '0');
  choices = ChooseDecodeGemvs(stale, Device(), Qwen(), down);
  EXPECT_TRUE(choices.configs.empty());
  EXPECT_NE(choices.sources[0].find("stale"), std::string::npos) << choices.sources[0];
  // A measurement that did not compile one of the op's kernel files.
  profile::Store partial = FreshStore(kDown);
  std::vector<std::string>& measured = partial.profiles[0].entries[0].stamp.kernels;
  measured.erase(std::find(measured.begin(), measured.end(), "llm_matmul_q4_tuned_gemv"));
  partial.profiles[0].entries[0].stamp.kernel_hash = wgsl::KernelsHash(measured);
  choices = ChooseDecodeGemvs(partial, Device(), Qwen(), down);
  EXPECT_TRUE(choices.configs.empty());
  EXPECT_NE(choices.sources[0].find("did not compile llm_matmul_q4_tuned_gemv"), std::string::npos)
      << choices.sources[0];
  // Another adapter's profile only.
  profile::Store elsewhere = FreshStore(kDown);
  elsewhere.profiles[0].adapter.key = "another gpu";
  choices = ChooseDecodeGemvs(elsewhere, Device(), Qwen(), down);
  EXPECT_TRUE(choices.configs.empty());
  EXPECT_NE(choices.sources[0].find("built-in default"), std::string::npos) << choices.sources[0];
}

// The fused q/k/v GEMV of Qwen2.5-0.5B's shapes, at 64 invocations a workgroup (not its
// default).
const decode::GemvKey kFusedQkv{
    .n = 1152, .k = 896, .q8 = true, .fusion = decode::GemvFusion::kNormQkvRope};
const std::map<std::string, uint32_t> kFusedWinner = {{"adjacent", 0},  {"batch", 2}, {"rows", 2},
                                                      {"subgroups", 0}, {"tpr", 16},  {"wg", 64}};

/// The shape a sweep of a kernels-suite row writes: the row's dimensions.
std::map<std::string, double> RowShape(const suites::kernels::KernelBenchmark& row) {
  const bench::BenchmarkInfo& info = row.info();
  EXPECT_EQ(info.identity.variant, "tuned");
  std::map<std::string, double> shape;
  for (const std::string& name : info.identity.dimensions) {
    shape[name] = results::NumberOf(info.params, name).value();
  }
  return shape;
}

/// The shape a sweep of a kernels-suite family's tuned row (its last) writes.
std::map<std::string, double> TunedRowShape(
    const std::vector<std::unique_ptr<suites::kernels::KernelBenchmark>>& rows) {
  return RowShape(*rows.back());
}

/// A store with one entry of the kernels suite's fused row `kernel` at Qwen2.5-0.5B's shapes
/// (`shape`: the tuned row's dimensions), won by `winner`, stamped fresh for the kernel files
/// compiled since the last wgsl::TakeKernelsUsed(), as `refract sweep --kernel KERNEL` writes it.
profile::Store FusedRowStore(const std::string& kernel, std::map<std::string, double> shape,
                             const std::map<std::string, uint32_t>& winner,
                             const std::string& measured_at) {
  const std::string problem = kernel + "/qwen2.5-0.5b/t1";
  profile::Entry entry{.sweep = "kernel:" + kernel,
                       .kernel = kernel,
                       .variant = "tuned",
                       .problem = problem,
                       .shape = std::move(shape)};
  entry.winner.params = winner;
  entry.winner.row = problem + "/tuned/wg=" + std::to_string(winner.at("wg"));
  return StoreOf(std::move(entry), wgsl::TakeKernelsUsed(), ops::kGemvQ8Rules, measured_at);
}

/// A store with one entry of the kernels suite's qkv-rope row, fresh for what the fused GEMV
/// compiles here at kFusedWinner, as `refract sweep --kernel qkv-rope` would write it.
profile::Store FreshFusedStore() {
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = 896, .n = 1152}};
  const ops::Settings settings(kFusedWinner.begin(), kFusedWinner.end());
  const std::optional<ops::GemvConfig> config =
      decode::FusedQkv::ConfigFor(ops::kGemvQ8Rules.Resolve(shape, Device().limits(), settings),
                                  SmallQwen(), Device().limits());
  EXPECT_TRUE(config.has_value());
  wgsl::TakeKernelsUsed();
  const decode::FusedQkv op(Device(), SmallQwen(), *config);
  std::vector<std::string> kernels = wgsl::TakeKernelsUsed();
  profile::Entry entry{.sweep = "kernel:qkv-rope",
                       .kernel = "qkv-rope",
                       .variant = "tuned",
                       .problem = "qkv-rope/qwen2.5-0.5b/t1",
                       .shape = {}};
  entry.shape = TunedRowShape(suites::kernels::QkvRopeBenchmarks({}));
  entry.winner.params = kFusedWinner;
  entry.winner.row = "qkv-rope/qwen2.5-0.5b/t1/tuned/wg=64";
  return StoreOf(std::move(entry), std::move(kernels), ops::kGemvQ8Rules, "2026-12-05T10:00:00Z");
}

TEST(DecodeProfile, AFusedGemvsEntryConfiguresItAndTheStepVerifies) {
  if (!Device().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  const reference::DecoderShape shape = SmallQwen();
  const std::vector<decode::GemvKey> keys =
      decode::StepGemvs(shape, reference::DecoderActivations::kQ8);
  ASSERT_NE(std::find(keys.begin(), keys.end(), kFusedQkv), keys.end());
  const DecodeGemvChoices choices = ChooseDecodeGemvs(FreshFusedStore(), Device(), shape, keys);
  ASSERT_EQ(choices.configs.size(), 1u);
  EXPECT_EQ(choices.configs.at(kFusedQkv).wg, 64u);
  EXPECT_EQ(choices.configs.at(kFusedQkv).tpr, 16u);
  const auto line = std::find_if(
      choices.sources.begin(), choices.sources.end(),
      [](const std::string& l) { return l.find("(fused: norm, q/k/v") != std::string::npos; });
  ASSERT_NE(line, choices.sources.end());
  EXPECT_NE(line->find("profile: the kernel:qkv-rope sweep's winner"), std::string::npos) << *line;

  ExpectFusedStepVerifies(choices);
}

// An entry of the kernels suite's lm-head-argmax row, as `refract sweep --kernel lm-head-argmax`
// writes it, configures the fused LM head (its wg raised to 256 by the fused kernel).
TEST(DecodeProfile, AnLmHeadArgmaxEntryConfiguresTheFusedHead) {
  if (!Device().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  const reference::DecoderShape shape = SmallQwen();
  const decode::GemvKey head{
      .n = shape.vocab, .k = shape.hidden, .q8 = true, .fusion = decode::GemvFusion::kHeadArgmax};
  const std::vector<decode::GemvKey> keys =
      decode::StepGemvs(shape, reference::DecoderActivations::kQ8);
  ASSERT_NE(std::find(keys.begin(), keys.end(), head), keys.end());
  const std::map<std::string, uint32_t> winner = {{"adjacent", 0},  {"batch", 2}, {"rows", 2},
                                                  {"subgroups", 0}, {"tpr", 16},  {"wg", 64}};
  const ops::MatmulShape gemv{.weights = ops::Weights::kQ4,
                              .dims = {.m = 1, .k = shape.hidden, .n = shape.vocab}};
  const std::optional<ops::GemvConfig> config = decode::FusedHeadArgmax::ConfigFor(
      ops::kGemvQ8Rules.Resolve(gemv, Device().limits(), ops::Settings(winner.begin(), winner.end())),
      shape, Device().limits());
  ASSERT_TRUE(config.has_value());
  wgsl::TakeKernelsUsed();
  const decode::FusedHeadArgmax op(Device(), shape, *config);
  std::map<std::string, double> row_shape =
      TunedRowShape(suites::kernels::LmHeadArgmaxBenchmarks({}));
  row_shape.at("n") = shape.vocab;  // the row's dimensions, at this small model's vocabulary
  const profile::Store store =
      FusedRowStore("lm-head-argmax", row_shape, winner, "2026-12-06T10:00:00Z");
  const DecodeGemvChoices choices = ChooseDecodeGemvs(store, Device(), shape, {head});
  ASSERT_EQ(choices.configs.size(), 1u) << choices.sources[0];
  EXPECT_EQ(choices.configs.at(head).wg, 256u);
  EXPECT_EQ(choices.configs.at(head).tpr, 16u);
  EXPECT_NE(choices.sources[0].find("profile: the kernel:lm-head-argmax sweep's winner"),
            std::string::npos)
      << choices.sources[0];
}

// An entry of the kernels suite's gate-up-down row, as `refract sweep --kernel gate-up-down`
// writes it, configures the step's fused gate/up + down kernel (not its default here), and the
// step runs that configuration and verifies.
TEST(DecodeProfile, AGateUpDownEntryConfiguresTheFusedGateUpAndDown) {
  if (!Device().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  const reference::DecoderShape shape = SmallQwen();
  const decode::GemvKey down{.n = 2 * shape.intermediate,
                             .k = shape.hidden,
                             .q8 = true,
                             .fusion = decode::GemvFusion::kNormGateUpDown};
  const std::vector<decode::GemvKey> keys =
      decode::StepGemvs(shape, reference::DecoderActivations::kQ8, true, true);
  ASSERT_NE(std::find(keys.begin(), keys.end(), down), keys.end());
  const std::vector<decode::GemvKey> without_down =
      decode::StepGemvs(shape, reference::DecoderActivations::kQ8);
  EXPECT_EQ(std::find(without_down.begin(), without_down.end(), down), without_down.end());
  const std::map<std::string, uint32_t> winner = {{"adjacent", 0},  {"batch", 2}, {"rows", 8},
                                                  {"subgroups", 0}, {"tpr", 16},  {"wg", 128}};
  const ops::MatmulShape gemv{.weights = ops::Weights::kQ4,
                              .dims = {.m = 1, .k = down.k, .n = down.n}};
  const ops::Settings settings(winner.begin(), winner.end());
  const std::optional<ops::GemvConfig> config = decode::FusedGateUpDown::ConfigFor(
      ops::kGemvQ8Rules.Resolve(gemv, Device().limits(), settings), shape, Device().limits());
  ASSERT_TRUE(config.has_value());
  wgsl::TakeKernelsUsed();
  const decode::FusedGateUpDown op(Device(), shape, *config);
  const profile::Store store =
      FusedRowStore("gate-up-down", TunedRowShape(suites::kernels::GateUpDownBenchmarks({})),
                    winner, "2026-12-07T19:00:00Z");
  const DecodeGemvChoices choices = ChooseDecodeGemvs(store, Device(), shape, keys);
  ASSERT_EQ(choices.configs.size(), 1u);
  EXPECT_EQ(choices.configs.at(down).wg, 128u);
  EXPECT_EQ(choices.configs.at(down).tpr, 16u);
  const auto line = std::find_if(
      choices.sources.begin(), choices.sources.end(),
      [](const std::string& l) { return l.find("silu-mul, down)") != std::string::npos; });
  ASSERT_NE(line, choices.sources.end());
  EXPECT_NE(line->find("profile: the kernel:gate-up-down sweep's winner"), std::string::npos)
      << *line;

  const std::string chosen = ops::SettingsText(ops::kGemvQ8Rules.axes().ValuesOf(*config));
  const results::ResultRow with = RunFusedDownWith(choices);
  ASSERT_EQ(with.status, results::RowStatus::kOk) << with.message;
  EXPECT_EQ(results::TextOf(with.params, "gate_up_down"), chosen);
  // Not the step's default (FusedGateUp's, fitted as the engine fits it).
  const std::optional<ops::GemvConfig> fallback = decode::FusedGateUpDown::ConfigFor(
      decode::FusedGateUp::Resolve(shape, Device().limits(), {}), shape, Device().limits());
  ASSERT_TRUE(fallback.has_value());
  EXPECT_NE(ops::SettingsText(ops::kGemvQ8Rules.axes().ValuesOf(*fallback)), chosen);
}

// The fused GEMVs with their row sums (and the norms' their input's block sums) in subgroups
// (tpr 8, subgroups 1: what a GPU's defaults take, where lavapipe's take workgroup sums): the
// step verifies at 5 dispatches a layer.
TEST(DecodeProfile, TheStepVerifiesWithItsFusedGemvsSummingInSubgroups) {
  if (!Device().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  if (!Device().limits().subgroups || Device().limits().subgroup_min_size < 8) {
    GTEST_SKIP() << "no subgroups of 8 or more";
  }
  const reference::DecoderShape shape = SmallQwen();
  const ops::Settings settings = {{"tpr", 8}, {"subgroups", 1}};
  DecodeGemvChoices choices;
  for (const decode::GemvKey& key : decode::StepGemvs(shape, reference::DecoderActivations::kQ8)) {
    if (key.fusion == decode::GemvFusion::kNone) continue;
    const ops::MatmulShape gemv{.weights = ops::Weights::kQ4,
                                .dims = {.m = 1, .k = key.k, .n = key.n}};
    const ops::GemvConfig config = ops::kGemvQ8Rules.Resolve(gemv, Device().limits(), settings);
    const std::optional<ops::GemvConfig> fitted =
        key.fusion == decode::GemvFusion::kNormQkvRope
            ? decode::FusedQkv::ConfigFor(config, shape, Device().limits())
        : key.fusion == decode::GemvFusion::kNormGateUpSilu
            ? decode::FusedGateUp::ConfigFor(config, shape, Device().limits())
            : decode::FusedHeadArgmax::ConfigFor(config, shape, Device().limits());
    ASSERT_TRUE(fitted.has_value());
    EXPECT_EQ(fitted->subgroups, 1u);
    choices.configs[key] = *fitted;
  }
  ASSERT_EQ(choices.configs.size(), 3u);  // q/k/v, gate/up, the LM head
  ExpectFusedStepVerifies(choices);
}

// A measurement of the fused GEMV from before it made its own input (it did not compile the
// norm's input part) is stale for today's.
TEST(DecodeProfile, AFusedEntryThatDidNotCompileTheNormPartIsStale) {
  if (!Device().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  profile::Store old = FreshFusedStore();
  std::vector<std::string>& measured = old.profiles[0].entries[0].stamp.kernels;
  measured.erase(std::find(measured.begin(), measured.end(), "decode_gemv_norm_input_part"));
  old.profiles[0].entries[0].stamp.kernel_hash = wgsl::KernelsHash(measured);
  const DecodeGemvChoices choices = ChooseDecodeGemvs(old, Device(), SmallQwen(), {kFusedQkv});
  EXPECT_TRUE(choices.configs.empty());
  EXPECT_NE(choices.sources[0].find("did not compile decode_gemv_norm_input_part"),
            std::string::npos)
      << choices.sources[0];
}

/// A short decode row's request of SmallQwen() at S = 64 (the attention tests').
suites::decode::DecodeRequest AttentionRequest(reference::DecoderActivations activations) {
  return {.context = 64,
          .tokens = 2,
          .warmup = 1,
          .verify_steps = 2,
          .profile_steps = 0,
          .activations = activations};
}

// Decode attention's winner in the tests below: a split of 32 keys (v_tile 0), not the default,
// and the merge by each (head, column) invocation.
const ops::Settings kAttentionWinner = {{"v_tile", 0}, {"wg", 32}, {"merge", 1}};

/// A store with one entry of the kernels suite's `kernel` row (`attention`'s decode row at S =
/// 1024, or `merge-o-heads`), moved to `request`'s context, fresh for what the step's attention
/// compiles here at kAttentionWinner, as `refract sweep --kernel` would write it: every axis, the
/// splits those of the row's S.
profile::Store FreshAttentionStore(const std::string& kernel,
                                   const suites::decode::DecodeRequest& request) {
  const reference::DecoderShape shape = SmallQwen();
  std::map<std::string, double> dims;
  if (kernel == "attention") {
    for (const auto& row : suites::kernels::AttentionBenchmarks({})) {
      if (row->info().id.find("attention/qwen2.5-0.5b/decode/t1/s1024/tuned") == 0) {
        dims = RowShape(*row);
      }
    }
    dims.at("position_offset") = request.context - 1;
  } else {
    dims = TunedRowShape(suites::kernels::MergeOHeadsBenchmarks({}));
  }
  dims.at("s") = request.context;
  const ops::AttentionShape row_shape = decode::StepAttentionShape(shape, request.context);
  const ops::AttentionDecodeConfig config =
      ops::kAttentionDecodeRules.Resolve(row_shape, Device().limits(), kAttentionWinner);
  wgsl::TakeKernelsUsed();
  const ops::Op<ops::AttentionShape, ops::AttentionDecodeConfig, ops::AttentionBuffers> op(
      ops::kAttentionDecode, Device(), row_shape, config, "test");
  if (kernel == "merge-o-heads") {
    const decode::FusedMergeOHeads merge(
        Device(), shape, ops::DecodeParamsFor(row_shape, config).splits,
        decode::FusedMergeOHeads::ConfigFor(shape, Device().limits()).value());
  }
  profile::Entry entry{.sweep = "kernel:" + kernel,
                       .kernel = kernel,
                       .variant = "tuned",
                       .problem = "qwen2.5-0.5b/decode/s64/tuned",
                       .shape = dims};
  const ops::Settings winner = ops::kAttentionDecodeRules.axes().ValuesOf(config);
  entry.winner.params = winner;
  entry.winner.row = kernel + "/qwen2.5-0.5b/decode/s64/tuned/" + ops::SettingsText(winner);
  return StoreOf(std::move(entry), wgsl::TakeKernelsUsed(), ops::kAttentionDecodeRules,
                 "2026-12-06T14:00:00Z");
}

/// `request` run with `choice`: the row verifies, says where its attention's configuration came
/// from and compiled kAttentionWinner's split with its splits sized for the step's cache (S + 2
/// steps of 32 keys: 3, where the row's S took 2).
void ExpectStepRunsTheWinner(suites::decode::DecodeRequest request,
                             const DecodeAttentionChoice& choice) {
  ASSERT_TRUE(choice.settings.contains("wg")) << choice.source;
  EXPECT_EQ(choice.settings.at("wg"), 32u) << choice.source;
  EXPECT_FALSE(choice.settings.contains("splits"));
  request.attention = choice.settings;
  request.attention_source = choice.source;
  const suites::decode::DecodeModel model(Device(), SmallQwen(), 5);
  const results::ResultRow row =
      suites::decode::RunDecodeRow(Device(), model, request, {}, 5, nullptr);
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  const std::string attention = results::TextOf(row.params, "attention");
  EXPECT_NE(attention.find("splits=3:"), std::string::npos) << attention;
  EXPECT_NE(attention.find(":wg=32"), std::string::npos) << attention;
  EXPECT_NE(std::find(row.notes.begin(), row.notes.end(), choice.source), row.notes.end());
}

// With the merge a dispatch of its own (f32 here), the attention decode row's entry at the step's
// context configures the step's split.
TEST(DecodeProfile, AnAttentionEntryConfiguresTheStepsSplit) {
  const suites::decode::DecodeRequest request =
      AttentionRequest(reference::DecoderActivations::kF32);
  const DecodeAttentionChoice choice = ChooseDecodeAttention(
      FreshAttentionStore("attention", request), Device(), SmallQwen(), request);
  EXPECT_NE(choice.source.find("S = 64 (attention row): profile: the kernel:attention sweep's"),
            std::string::npos)
      << choice.source;
  ExpectStepRunsTheWinner(request, choice);

  // Another context's entry leaves the default, saying why.
  suites::decode::DecodeRequest longer = request;
  longer.context = 128;
  const DecodeAttentionChoice other = ChooseDecodeAttention(
      FreshAttentionStore("attention", request), Device(), SmallQwen(), longer);
  EXPECT_TRUE(other.settings.empty());
  EXPECT_NE(other.source.find("built-in default: no entry of this shape"), std::string::npos)
      << other.source;
  longer.context = 0;  // a prefill's empty history: no row to take
  const DecodeAttentionChoice empty = ChooseDecodeAttention(
      FreshAttentionStore("attention", request), Device(), SmallQwen(), longer);
  EXPECT_TRUE(empty.settings.empty());
  EXPECT_NE(empty.source.find("built-in default: an empty history"), std::string::npos)
      << empty.source;
}

// Where the step merges by head, the merge-o-heads row's entry configures its split, and an entry
// measured without the merge by head's kernel is stale.
TEST(DecodeProfile, AMergeOHeadsEntryConfiguresTheStepsSplit) {
  if (!Device().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  const suites::decode::DecodeRequest request =
      AttentionRequest(reference::DecoderActivations::kQ8);
  const profile::Store store = FreshAttentionStore("merge-o-heads", request);
  const DecodeAttentionChoice choice =
      ChooseDecodeAttention(store, Device(), SmallQwen(), request);
  EXPECT_NE(choice.source.find("(merge-o-heads row): profile: the kernel:merge-o-heads sweep's"),
            std::string::npos)
      << choice.source;
  ExpectStepRunsTheWinner(request, choice);

  profile::Store old = store;
  std::vector<std::string>& measured = old.profiles[0].entries[0].stamp.kernels;
  measured.erase(std::find(measured.begin(), measured.end(), "decode_merge_o_heads"));
  old.profiles[0].entries[0].stamp.kernel_hash = wgsl::KernelsHash(measured);
  const DecodeAttentionChoice stale = ChooseDecodeAttention(old, Device(), SmallQwen(), request);
  EXPECT_TRUE(stale.settings.empty());
  EXPECT_NE(stale.source.find("stale: its measurement did not compile decode_merge_o_heads"),
            std::string::npos)
      << stale.source;
}

// An entry whose split the step's attention refuses leaves the default, saying why; and an engine
// given such settings directly refuses them, naming them.
TEST(DecodeProfile, AnAttentionEntryTheStepRefusesLeavesTheDefault) {
  const suites::decode::DecodeRequest request =
      AttentionRequest(reference::DecoderActivations::kF32);
  profile::Store store = FreshAttentionStore("attention", request);
  store.profiles[0].entries[0].winner.params["k_tile"] = 1;  // the K tile without the V tile's
  const DecodeAttentionChoice choice =
      ChooseDecodeAttention(store, Device(), SmallQwen(), request);
  EXPECT_TRUE(choice.settings.empty());
  EXPECT_NE(choice.source.find("built-in default: the profile entry is refused: the step's "
                               "attention (a cache of 66 positions) refuses it"),
            std::string::npos)
      << choice.source;

  const suites::decode::DecodeModel model(Device(), SmallQwen(), 5);
  const decode::EngineConfig config{
      .capacity = 66, .max_steps = 2, .attention = {{"v_tile", 0}, {"wg", 32}, {"splits", 1}}};
  try {
    const decode::DecodeEngine engine(Device(), SmallQwen(), model.gpu_weights(), config);
    ADD_FAILURE() << "an engine took a split of 32 keys for 66 positions";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("decode attention at splits=1:v_tile=0:wg=32"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace refract::cli
