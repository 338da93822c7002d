#include "decode/fused_gemvs.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string_view>
#include <vector>

#include "decode/engine_parts.h"
#include "decode/quantizing_ops.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "ops/op.h"
#include "ops/op_support.h"

namespace refract::decode {
namespace {

/// llm_gemv_common_part.wgsl's Params, padded to 16 bytes.
struct GemvParams {
  uint32_t m, k, n, padding;
};
static_assert(sizeof(GemvParams) == 16);

/// decode_qkv_rope_store_part.wgsl's RopeShape.
struct RopeShape {
  uint32_t heads, kv_heads, head_dim, unused;
};
static_assert(sizeof(RopeShape) == 16);

/// `weight` with row `row` taken from row `source(row)`.
template <typename Source>
reference::Q4Weight Reordered(const reference::Q4Weight& weight, Source source) {
  const size_t blocks = (weight.k + 31) / 32;
  const size_t row_bytes = blocks * 16;
  reference::Q4Weight reordered = weight;
  for (uint32_t row = 0; row < weight.n; ++row) {
    const size_t from = source(row);
    std::memcpy(reordered.packing.b.data() + row * row_bytes,
                weight.packing.b.data() + from * row_bytes, row_bytes);
    std::memcpy(reordered.packing.scales.data() + row * blocks,
                weight.packing.scales.data() + from * blocks, blocks * sizeof(float));
  }
  return reordered;
}

/// decode_add_norm_part.wgsl's MAX_NORM_TRIPS: groups of 8 an invocation makes.
constexpr uint32_t kMaxInputTrips = 4;

/// The groups of 8 of the K inputs each of `wg` invocations makes.
uint32_t InputTrips(uint32_t k, uint32_t wg) { return ((k + 7) / 8 + wg - 1) / wg; }

/// The q8 GEMV of one activation row, N × K, at `config`, that makes its input from the residual
/// stream (decode_gemv_norm_input_part.wgsl), its second addend from `addend`, and ends in the
/// parts `end` (the last a store part), with `extra` constants.
gpu::ComputePipeline CompileQ8Gemv(gpu::Context& context, const ops::GemvConfig& config, uint32_t n,
                                   uint32_t k, float eps, std::vector<std::string_view> end,
                                   const std::string& label, const parts::SecondAddend& addend,
                                   const std::map<std::string, double>& extra = {}) {
  // The quantizer's block sums and the norm's total as the row sums go: through subgroup
  // shuffles at subgroups = 1.
  const bool subgroups = config.subgroups == 1;
  const std::string_view block_part =
      subgroups ? "llm_quantize_block_subgroup_part" : "llm_quantize_block_workgroup_part";
  parts::NormTotalPart total = parts::NormTotalFor(context.limits(), config.wg, subgroups);
  std::map<std::string, double> constants = ops::GemvQ8Constants(
      {.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = k, .n = n}}, config);
  constants.merge(total.constants);
  constants["NORM_EPS"] = eps;
  constants["INPUT_TRIPS"] = InputTrips(k, config.wg);
  const parts::AddendPart addend_part = parts::AddendPartFor(addend);
  for (const auto& [name, value] : addend_part.constants) constants[name] = value;
  for (const auto& [name, value] : extra) constants[name] = value;
  std::vector<std::string_view> files = {
      "llm_dp4a_part",        ops::GemvReducePart(config), "llm_gemv_common_part", block_part,
      "llm_quantize_q8_part", total.name,                  addend_part.name,
      "decode_add_norm_part", "decode_gemv_norm_input_part", "llm_matmul_q4_tuned_gemv_q8"};
  files.insert(files.end(), end.begin(), end.end());
  return ops::CompileKernel(context, files, label, "main", constants);
}

/// The second addend of a GEMV that reads the o projection's fixed-point sum (`o_sum`), or the
/// stream's slot b.
parts::SecondAddend OSumAddend(bool o_sum) {
  return {.from = o_sum ? parts::SecondAddend::From::kFixed : parts::SecondAddend::From::kStream};
}

/// The GEMV's Params uniform for one row of N × K.
gpu::Buffer GemvParamsOf(gpu::Context& context, uint32_t k, uint32_t n, const std::string& label) {
  return gpu::Uniform(context, GemvParams{.m = 1, .k = k, .n = n, .padding = 0}, label);
}

uint32_t RowsPerWorkgroup(const ops::GemvConfig& config) {
  return config.wg / config.tpr * config.rows;
}

/// `config`, when the q8 GEMV's rules take it for one row of N × K on a device of `limits` and
/// the fused kernel fits it too: its input made by WG invocations (kMaxInputTrips groups of 8
/// each at most), `storage_buffers` storage bindings, and its workgroup memory (the GEMV's row
/// sums, the input's codes and statistics, the quantizer's block reductions, `store_bytes`).
std::optional<ops::GemvConfig> Allowed(const ops::GemvConfig& config, uint32_t n, uint32_t k,
                                       uint32_t storage_buffers, uint64_t store_bytes,
                                       const DeviceLimits& limits) {
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = k, .n = n}};
  if (ops::kGemvQ8Rules.Check(config, shape, limits)) return std::nullopt;
  if (InputTrips(k, config.wg) > kMaxInputTrips || config.wg % 4 != 0) return std::nullopt;
  if (storage_buffers > limits.max_storage_buffers_per_shader_stage) return std::nullopt;
  const uint64_t row_sums = config.subgroups == 1 ? 0 : uint64_t{config.wg} * config.rows * 4;
  const uint64_t input = uint64_t{(k + 31) / 32} * (32 + 8) + uint64_t{config.wg} * 4 + 64;
  const uint64_t blocks = uint64_t{config.wg} * 8;
  if (row_sums + input + blocks + store_bytes > limits.max_compute_workgroup_storage_size) {
    return std::nullopt;
  }
  return config;
}

}  // namespace

reference::Q4Weight PairedForRope(const reference::Q4Weight& qkv,
                                  const reference::DecoderShape& shape) {
  const uint32_t half = shape.head_dim / 2;
  return Reordered(qkv, [&](uint32_t row) {
    const uint32_t pair = row / 2;
    return (pair / half) * shape.head_dim + pair % half + (row % 2) * half;
  });
}

reference::Q4Weight PairedGateUp(const reference::Q4Weight& gate_up) {
  const uint32_t intermediate = gate_up.n / 2;
  return Reordered(gate_up, [&](uint32_t row) { return row / 2 + (row % 2) * intermediate; });
}

reference::Q4Weight ByBlockColumns(const reference::Q4Weight& weight) {
  const uint32_t blocks = (weight.k + 31) / 32;
  reference::Q4Weight columns{.n = weight.n * blocks, .k = 32, .packing = {}};
  columns.packing.b.resize(weight.packing.b.size());
  columns.packing.scales.resize(weight.packing.scales.size());
  for (uint32_t row = 0; row < weight.n; ++row) {
    for (uint32_t block = 0; block < blocks; ++block) {
      const size_t from = size_t{row} * blocks + block;
      const size_t to = size_t{block} * weight.n + row;
      std::memcpy(columns.packing.b.data() + to * 16, weight.packing.b.data() + from * 16, 16);
      columns.packing.scales[to] = weight.packing.scales[from];
    }
  }
  return columns;
}

std::optional<ops::GemvConfig> FusedQkv::ConfigFor(ops::GemvConfig gemv,
                                                   const reference::DecoderShape& shape,
                                                   const DeviceLimits& limits,
                                                   bool fixed_down) {
  gemv.rows += gemv.rows % 2;
  if (fixed_down && shape.hidden % 8 != 0) return std::nullopt;  // two vec4 a group of 8
  // Storage: the weights, their scales, the bias, inv_freq, q, keys, values, stream, norm weight
  // (and the down projection).
  return Allowed(gemv, shape.QkvRows(), shape.hidden, fixed_down ? 10 : 9, 0, limits);
}

FusedQkv::FusedQkv(gpu::Context& context, const reference::DecoderShape& shape,
                   const ops::GemvConfig& config, bool fixed_down)
    : context_(context), config_(config), rows_(shape.QkvRows()) {
  const parts::SecondAddend addend{.from = fixed_down ? parts::SecondAddend::From::kFixed
                                                      : parts::SecondAddend::From::kStream};
  pipeline_ =
      CompileQ8Gemv(context, config_, rows_, shape.hidden, static_cast<float>(shape.rms_eps),
                    {"decode_qkv_rope_store_part"}, "decode norm+qkv+rope", addend);
  gemv_params_ = GemvParamsOf(context, shape.hidden, rows_, "decode qkv+rope params");
  rope_shape_ = gpu::Uniform(context,
                             RopeShape{.heads = shape.heads,
                                       .kv_heads = shape.kv_heads,
                                       .head_dim = shape.head_dim,
                                       .unused = 0},
                             "decode qkv+rope shape");
}

gpu::Dispatch FusedQkv::Record(const parts::NormInput& in, const GpuQ4& paired,
                               const gpu::Buffer& bias, const gpu::Buffer& inv_freq,
                               const gpu::Buffer& q, const gpu::Buffer& keys,
                               const gpu::Buffer& values, const gpu::Buffer& step,
                               const gpu::Buffer& down) const {
  return ops::OneDispatch(context_, pipeline_,
                          {{},
                           paired.codes,
                           paired.scales,
                           {},
                           gemv_params_,
                           {},
                           bias,
                           inv_freq,
                           q,
                           keys,
                           values,
                           rope_shape_,
                           step,
                           in.stream,
                           in.weight,
                           in.sum,
                           down},
                          gpu::GroupsFor(rows_, RowsPerWorkgroup(config_)));
}

ops::GemvConfig FusedGateUp::Resolve(const reference::DecoderShape& shape,
                                     const DeviceLimits& limits, const ops::Settings& settings) {
  const ops::MatmulShape gate_up{.weights = ops::Weights::kQ4,
                                 .dims = {.m = 1, .k = shape.hidden, .n = 2 * shape.intermediate}};
  ops::GemvConfig config = ops::kGemvQ8Rules.Resolve(gate_up, limits, settings);
  // Measured at rows of up to 64 blocks (two trips of 8 lanes of 4 blocks); a longer row keeps
  // the q8 GEMV's rule. On the H100 (2026-12-06 09:04 UTC, archive/h100-o-heads-0904-*)
  // Llama-3.2-1B's step (64 blocks a row) ran 1,272 tokens/s at this configuration and 756 at
  // the q8 GEMV's rule (tpr 16, batch 2, 4 rows: its gate/up 47 µs against 14; the same rule
  // took 13.7 µs, 1,282 tokens/s, before the input's second addend became a part of its own,
  // loaded after the first; why that costs this configuration 3.4× was not profiled).
  if (limits.cpu || ops::Q4BlocksOf(shape.hidden) > 8 * 4 * 2) return config;
  // On the H100 (2026-12-06 06:51 UTC, archive/h100-fused-gate-up-0651-*): Qwen2.5-0.5B's fused
  // gate/up took 8.60-8.67 µs at tpr 8, batch 4, wg 512 (76 workgroups of 128 rows) against
  // 9.58-9.66 at the plain GEMV's default (tpr 16, batch 2, wg 256: 152 of 64 rows), in a sweep
  // of the two repeated four times, and 8.58 against 9.59 in the kernels rows. Ending in the down
  // projection (2026-12-07 11:55 UTC, experiments/gate_up_shape) the step ran 1,511-1,513
  // tokens/s at this shape, 1,514-1,515 at wg 1024 and tpr 16, 1,278-1,445 in 152 workgroups.
  auto unset = [&](const char* axis) { return !settings.contains(axis); };
  if (unset("tpr")) config.tpr = 8;
  if (unset("batch")) config.batch = 4;
  if (unset("wg")) config.wg = std::max(limits.LargestWorkgroup(512), config.tpr);
  if (unset("subgroups")) {
    config.subgroups =
        limits.subgroups && limits.subgroup_min_size >= config.tpr ? 1u : 0u;
  }
  return config;
}

std::optional<ops::GemvConfig> FusedGateUp::ConfigFor(ops::GemvConfig gemv,
                                                      const reference::DecoderShape& shape,
                                                      const DeviceLimits& limits, bool o_sum) {
  if (o_sum && shape.hidden % 8 != 0) return std::nullopt;  // the sum's two vec4 a group
  for (uint32_t rows = gemv.rows + gemv.rows % 2; rows <= 8; rows += 2) {
    if (gemv.wg / gemv.tpr * rows % 64 == 0) {
      gemv.rows = rows;
      // Storage: the weights, their scales, the output's codes and (d, Σq), stream, norm weight
      // (and the o projection's sum); the store part's silu · up values in the workgroup.
      return Allowed(gemv, 2 * shape.intermediate, shape.hidden, o_sum ? 7 : 6,
                     uint64_t{gemv.wg / gemv.tpr * rows / 2} * 4, limits);
    }
  }
  return std::nullopt;
}

FusedGateUp::FusedGateUp(gpu::Context& context, const reference::DecoderShape& shape,
                         const ops::GemvConfig& config, bool o_sum)
    : context_(context), config_(config), rows_(2 * shape.intermediate) {
  pipeline_ = CompileQ8Gemv(context, config_, rows_, shape.hidden,
                            static_cast<float>(shape.rms_eps),
                            {"decode_silu_quantize_part", "decode_gate_up_silu_store_part"},
                            "decode norm+gate_up+silu", OSumAddend(o_sum));
  gemv_params_ = GemvParamsOf(context, shape.hidden, rows_, "decode gate_up+silu params");
}

gpu::Dispatch FusedGateUp::Record(const parts::NormInput& in, const GpuQ4& paired,
                                  const parts::Q8Row& out, const gpu::Buffer& o_sum) const {
  return ops::OneDispatch(context_, pipeline_,
                          {{},
                           paired.codes,
                           paired.scales,
                           {},
                           gemv_params_,
                           {},
                           out.codes,
                           out.scale_sums,
                           {},
                           {},
                           {},
                           {},
                           {},
                           in.stream,
                           in.weight,
                           in.sum,
                           o_sum},
                          gpu::GroupsFor(rows_, RowsPerWorkgroup(config_)));
}

std::optional<ops::GemvConfig> FusedGateUpDown::ConfigFor(const ops::GemvConfig& config,
                                                          const reference::DecoderShape& shape,
                                                          const DeviceLimits& limits,
                                                          bool o_sum) {
  const std::optional<ops::GemvConfig> fitted =
      FusedGateUp::ConfigFor(config, shape, limits, o_sum);
  if (!fitted) return std::nullopt;
  const ops::GemvConfig& gemv = *fitted;
  constexpr uint32_t kMostBlocks = 4;  // decode_gate_up_down_store_part.wgsl's MAX_DOWN_BLOCKS
  const uint32_t rows_per_workgroup = RowsPerWorkgroup(gemv);
  if (rows_per_workgroup % 64 != 0 || rows_per_workgroup / 64 > kMostBlocks ||
      2 * shape.intermediate % rows_per_workgroup != 0 || shape.hidden % 8 != 0) {
    return std::nullopt;
  }
  // Storage: the weights, their scales, the down weights and scales, the down sum and the vector
  // it clears, stream, norm weight (and the o projection's sum); in the workgroup the silu · up
  // values and their int8 blocks.
  const uint64_t pairs = rows_per_workgroup / 2;
  return Allowed(gemv, 2 * shape.intermediate, shape.hidden, o_sum ? 9 : 8,
                 pairs * 4 + pairs + pairs / 32 * 8, limits);
}

FusedGateUpDown::FusedGateUpDown(gpu::Context& context, const reference::DecoderShape& shape,
                                 const ops::GemvConfig& config, bool o_sum)
    : context_(context),
      config_(config),
      workgroups_(gpu::GroupsFor(2 * shape.intermediate, RowsPerWorkgroup(config))) {
  pipeline_ = CompileQ8Gemv(
      context, config, 2 * shape.intermediate, shape.hidden, static_cast<float>(shape.rms_eps),
      {"decode_silu_quantize_part", "decode_gate_up_down_store_part"},
      "decode norm+gate_up+silu+down", OSumAddend(o_sum),
      {{"DOWN_ROWS", shape.hidden},
       {"DOWN_TRIPS", (shape.hidden + config.wg - 1) / config.wg},
       {"DOWN_FIXED_ONE", parts::kFixedOne}});
  gemv_params_ =
      GemvParamsOf(context, shape.hidden, 2 * shape.intermediate, "decode gate_up+down params");
}

gpu::Dispatch FusedGateUpDown::Record(const parts::NormInput& in, const GpuQ4& paired,
                                      const GpuQ4& down_columns, const gpu::Buffer& down_sum,
                                      const gpu::Buffer& clear,
                                      const gpu::Buffer& o_sum) const {
  return ops::OneDispatch(context_, pipeline_,
                          {{},
                           paired.codes,
                           paired.scales,
                           {},
                           gemv_params_,
                           {},
                           down_columns.codes,
                           down_columns.scales,
                           {},
                           {},
                           {},
                           {},
                           {},
                           in.stream,
                           in.weight,
                           in.sum,
                           o_sum,
                           down_sum,
                           clear},
                          workgroups_);
}

std::optional<ops::GemvConfig> FusedHeadArgmax::ConfigFor(ops::GemvConfig gemv,
                                                          const reference::DecoderShape& shape,
                                                          const DeviceLimits& limits) {
  // A partial a workgroup, so workgroups of 256 at least: on the H100 (2026-12-06, three
  // interleaved runs each) Qwen2.5-0.5B's step took 1,193-1,204 tokens/s with them against
  // 1,188-1,194 with the plain LM head's 64 (18,992 partials for the pick against 4,748).
  gemv.wg = std::max(gemv.wg, 256u);
  const ops::MatmulShape head{.weights = ops::Weights::kQ4,
                              .dims = {.m = 1, .k = shape.hidden, .n = shape.vocab}};
  if (ops::kGemvQ8Rules.Check(gemv, head, limits)) return std::nullopt;
  // Storage: the input's codes and (d, Σq), the weights, their scales, the logits, the partials.
  if (limits.max_storage_buffers_per_shader_stage < 6) return std::nullopt;
  if (gpu::GroupsFor(shape.vocab, RowsPerWorkgroup(gemv)) >
      limits.max_compute_workgroups_per_dimension) {
    return std::nullopt;
  }
  const uint64_t row_sums = gemv.subgroups == 1 ? 0 : uint64_t{gemv.wg} * gemv.rows * 4;
  const uint64_t bests = uint64_t{gemv.wg / gemv.tpr} * 8;
  if (row_sums + bests > limits.max_compute_workgroup_storage_size) return std::nullopt;
  return gemv;
}

FusedHeadArgmax::FusedHeadArgmax(gpu::Context& context, const reference::DecoderShape& shape,
                                 const ops::GemvConfig& config)
    : context_(context),
      workgroups_(gpu::GroupsFor(shape.vocab, RowsPerWorkgroup(config))),
      logits_a_partial_(RowsPerWorkgroup(config)) {
  pipeline_ = ops::CompileKernel(
      context,
      {"llm_dp4a_part", ops::GemvReducePart(config), "llm_gemv_common_part",
       "llm_gemv_q8_input_part", "decode_argmax_rule_part", "llm_matmul_q4_tuned_gemv_q8",
       "decode_head_argmax_store_part"},
      "decode lm_head+argmax", "main",
      ops::GemvQ8Constants(
          {.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = shape.hidden, .n = shape.vocab}},
          config));
  gemv_params_ = GemvParamsOf(context, shape.hidden, shape.vocab, "decode lm_head params");
}

gpu::Dispatch FusedHeadArgmax::Record(const parts::Q8Row& in, const GpuQ4& head,
                                      const gpu::Buffer& logits,
                                      const gpu::Buffer& partials) const {
  return ops::OneDispatch(
      context_, pipeline_,
      {in.codes, head.codes, head.scales, logits, gemv_params_, in.scale_sums, partials},
      workgroups_);
}

namespace {

/// The o GEMV's staged x holds one chunk: llm_matmul_q4_tuned_gemv.wgsl's CHUNK blocks of 32.
constexpr uint32_t kStagedValues = 64 * 32;
/// decode_gemv_merge_input_part.wgsl's MERGE_BATCH: loads of a lane in flight at once.
constexpr uint64_t kMergeBatch = 8;

}  // namespace

uint32_t MergeLanesFor(uint32_t pairs, uint32_t splits, uint32_t wg, const DeviceLimits& limits) {
  const uint32_t most = limits.subgroups ? std::min(limits.subgroup_min_size, 32u) : 1u;
  uint32_t best = 1;
  uint64_t best_rounds = UINT64_MAX;
  for (uint32_t lanes = 1; lanes <= most && lanes <= wg; lanes *= 2) {
    const uint64_t rounds = ops::CeilDiv(pairs, wg / lanes) *
                            ops::CeilDiv(ops::CeilDiv(splits, lanes), kMergeBatch);
    if (rounds < best_rounds) {
      best = lanes;
      best_rounds = rounds;
    }
  }
  return best;
}

namespace {

/// The lanes part of a merge whose clusters take `pairs` (head, column) pairs of `splits` splits
/// in workgroups of `wg` (MergeLanesFor's lanes), its MERGE_LANES put into `constants`.
std::string_view MergeLanesPart(uint32_t pairs, uint32_t splits, uint32_t wg,
                                const DeviceLimits& limits,
                                std::map<std::string, double>& constants) {
  const uint32_t lanes = MergeLanesFor(pairs, splits, wg, limits);
  if (lanes == 1) return "decode_merge_lanes_single_part";
  constants["MERGE_LANES"] = lanes;
  return "decode_merge_lanes_subgroup_part";
}

}  // namespace

std::optional<ops::GemvConfig> FusedMergeO::ConfigFor(ops::GemvConfig gemv,
                                                      const reference::DecoderShape& shape,
                                                      const DeviceLimits& limits) {
  if (shape.QRows() > kStagedValues || shape.head_dim % 4 != 0) return std::nullopt;
  // Each invocation a few of the merge's loads: Qwen2.5-0.5B at S = 1024 (224 pairs of 37
  // splits) leaves a lane of 1024 invocations one round of them to wait on, of 256 four.
  gemv.wg = std::max(gemv.wg, limits.LargestWorkgroup(1024));
  const ops::MatmulShape o{.weights = ops::Weights::kQ4,
                           .dims = {.m = 1, .k = shape.QRows(), .n = shape.hidden}};
  if (ops::kGemvRules.Check(gemv, o, limits)) return std::nullopt;
  // Storage: the weights, their scales, the output, the partials and their (max, sum).
  if (limits.max_storage_buffers_per_shader_stage < 5) return std::nullopt;
  return gemv;
}

FusedMergeO::FusedMergeO(gpu::Context& context, const reference::DecoderShape& shape,
                         uint32_t splits, const ops::GemvConfig& config)
    : context_(context), workgroups_(gpu::GroupsFor(shape.hidden, RowsPerWorkgroup(config))) {
  const uint32_t pairs = shape.QRows() / 4;
  std::map<std::string, double> constants = {{"WG", config.wg},
                                             {"TPR", config.tpr},
                                             {"ROWS", config.rows},
                                             {"K_COLS", shape.QRows()},
                                             {"N_ROWS", shape.hidden},
                                             {"MERGE_PAIRS", pairs},
                                             {"MERGE_DV", shape.head_dim / 4},
                                             {"MERGE_SPLITS", splits}};
  const std::string_view lanes_part =
      MergeLanesPart(pairs, splits, config.wg, context.limits(), constants);
  pipeline_ = ops::CompileKernel(
      context,
      {ops::GemvReducePart(config), "llm_gemv_common_part", "llm_attention_merge_fold_part",
       lanes_part, "decode_merge_pair_part", "decode_gemv_merge_input_part",
       "llm_q4_decode4_part", "llm_matmul_q4_tuned_gemv"},
      "decode merge+o", "main", constants);
  gemv_params_ = GemvParamsOf(context, shape.QRows(), shape.hidden, "decode merge+o params");
}

gpu::Dispatch FusedMergeO::Record(const gpu::Buffer& part_o, const gpu::Buffer& part_ml,
                                  const GpuQ4& o, const gpu::BufferSlice& out) const {
  return ops::OneDispatch(context_, pipeline_,
                          {{}, o.codes, o.scales, out, gemv_params_, part_o, part_ml},
                          workgroups_);
}

std::optional<FusedMergeOHeads::Config> FusedMergeOHeads::ConfigFor(
    const reference::DecoderShape& shape, const DeviceLimits& limits) {
  // decode_merge_o_heads.wgsl's MAX_GROUP_BLOCKS and MAX_ROWS.
  constexpr uint32_t kMostGroupBlocks = 8, kMostRows = 4, kMostChunks = 8;
  // Storage: the weights, their scales, the sum, the vector it clears, the partials and their
  // (max, sum).
  if (shape.hidden % 8 != 0 || limits.max_storage_buffers_per_shader_stage < 6) {
    return std::nullopt;
  }
  std::optional<Config> config;
  for (uint32_t heads = 1;
       heads <= shape.heads && heads * shape.head_dim <= 32 * kMostGroupBlocks; ++heads) {
    if (shape.heads % heads == 0 && heads * shape.head_dim % 32 == 0) {
      config = Config{.wg = limits.LargestWorkgroup(128), .rows = 1, .heads = heads};
      break;
    }
  }
  if (!config || Shares(shape, *config) > limits.max_compute_workgroups_per_dimension) {
    return std::nullopt;
  }
  while (config->rows < kMostRows &&
         ops::CeilDiv(shape.hidden, config->wg * config->rows) > kMostChunks) {
    config->rows *= 2;
  }
  return config;
}

bool FusedMergeOHeads::Pays(const reference::DecoderShape& shape, const Config& config) {
  return uint64_t{Shares(shape, config)} * shape.hidden * 4 <= 64 * 1024;
}

std::optional<FusedMergeOHeads::Config> FusedMergeOHeads::ForStep(
    const reference::DecoderShape& shape, const DeviceLimits& limits, const EngineConfig& engine) {
  if (engine.activations != reference::DecoderActivations::kQ8 || !engine.fuse) return {};
  if (engine.merge != MergeFusion::kByHead && engine.merge != MergeFusion::kAuto) return {};
  if (shape.layers < 2) return {};
  std::optional<Config> config = ConfigFor(shape, limits);
  if (config && engine.merge == MergeFusion::kAuto && !Pays(shape, *config)) return {};
  return config;
}

FusedMergeOHeads::FusedMergeOHeads(gpu::Context& context, const reference::DecoderShape& shape,
                                   uint32_t splits, const Config& config)
    : context_(context),
      chunks_(gpu::GroupsFor(shape.hidden, config.wg * config.rows)),
      groups_(Shares(shape, config)) {
  const uint32_t group_blocks = config.heads * shape.head_dim / 32;
  std::map<std::string, double> constants = {{"WG", config.wg},
                                             {"ROWS", config.rows},
                                             {"N_ROWS", shape.hidden},
                                             {"GROUP_BLOCKS", group_blocks},
                                             {"MERGE_DV", shape.head_dim / 4},
                                             {"MERGE_SPLITS", splits},
                                             {"FIXED_ONE", parts::kFixedOne}};
  const std::string_view lanes_part =
      MergeLanesPart(group_blocks * 8, splits, config.wg, context.limits(), constants);
  pipeline_ = ops::CompileKernel(context,
                                 {"llm_attention_merge_fold_part", lanes_part,
                                  "decode_merge_pair_part", "llm_q4_decode4_part",
                                  "decode_merge_o_heads"},
                                 "decode merge+o by head", "main", constants);
}

gpu::Dispatch FusedMergeOHeads::Record(const gpu::Buffer& part_o, const gpu::Buffer& part_ml,
                                       const GpuQ4& o_columns, const gpu::Buffer& sum,
                                       const gpu::Buffer& clear) const {
  return ops::OneDispatch(context_, pipeline_,
                          {{}, o_columns.codes, o_columns.scales, sum, clear, part_o, part_ml},
                          chunks_, groups_);
}

}  // namespace refract::decode
