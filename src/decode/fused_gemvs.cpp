#include "decode/fused_gemvs.h"

#include <cstring>

#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "ops/op.h"

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

/// The q8 GEMV of one activation row, N × K, at `config`, ending in the store part `store`; with
/// `quantizes`, the quantizer's parts after it (the store part quantizes what it computes).
gpu::ComputePipeline CompileQ8Gemv(gpu::Context& context, const ops::GemvConfig& config,
                                   uint32_t n, uint32_t k, std::string_view store, bool quantizes,
                                   const std::string& label) {
  const std::string_view reduce = ops::GemvReducePart(config);
  const std::map<std::string, double> constants =
      ops::GemvQ8Constants({.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = k, .n = n}}, config);
  const std::string_view gemv = "llm_matmul_q4_tuned_gemv_q8";
  if (quantizes) {
    return ops::CompileKernel(context,
                              {"llm_dp4a_part", reduce, "llm_gemv_common_part", gemv, store,
                               "llm_quantize_block_workgroup_part", "llm_quantize_q8_part"},
                              label, "main", constants);
  }
  return ops::CompileKernel(context, {"llm_dp4a_part", reduce, "llm_gemv_common_part", gemv, store},
                            label, "main", constants);
}

uint32_t RowsPerWorkgroup(const ops::GemvConfig& config) {
  return config.wg / config.tpr * config.rows;
}

/// `config`, when the q8 GEMV's rules take it for one row of N × K on a device of `limits`.
std::optional<ops::GemvConfig> Allowed(const ops::GemvConfig& config, uint32_t n, uint32_t k,
                                       const DeviceLimits& limits) {
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = k, .n = n}};
  if (ops::kGemvQ8Rules.Check(config, shape, limits)) return std::nullopt;
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

std::optional<ops::GemvConfig> FusedQkv::ConfigFor(ops::GemvConfig gemv,
                                                   const reference::DecoderShape& shape,
                                                   const DeviceLimits& limits) {
  gemv.rows += gemv.rows % 2;
  return Allowed(gemv, shape.QkvRows(), shape.hidden, limits);
}

FusedQkv::FusedQkv(gpu::Context& context, const reference::DecoderShape& shape,
                   const ops::GemvConfig& config)
    : context_(context), config_(config), rows_(shape.QkvRows()) {
  pipeline_ = CompileQ8Gemv(context, config_, rows_, shape.hidden, "decode_qkv_rope_store_part",
                            false, "decode qkv+rope");
  gemv_params_ = gpu::Uniform(context, GemvParams{.m = 1, .k = shape.hidden, .n = rows_, .padding = 0},
                              "decode qkv+rope params");
  rope_shape_ = gpu::Uniform(
      context,
      RopeShape{.heads = shape.heads, .kv_heads = shape.kv_heads, .head_dim = shape.head_dim, .unused = 0},
      "decode qkv+rope shape");
}

gpu::Dispatch FusedQkv::Record(const parts::Q8Row& in, const GpuQ4& paired, const gpu::Buffer& bias,
                               const gpu::Buffer& inv_freq, const gpu::Buffer& q,
                               const gpu::Buffer& keys, const gpu::Buffer& values,
                               const gpu::Buffer& step) const {
  return ops::OneDispatch(context_, pipeline_,
                          {in.codes, paired.codes, paired.scales, {}, gemv_params_, in.scale_sums,
                           bias, inv_freq, q, keys, values, rope_shape_, step},
                          gpu::GroupsFor(rows_, RowsPerWorkgroup(config_)));
}

std::optional<ops::GemvConfig> FusedGateUp::ConfigFor(ops::GemvConfig gemv,
                                                      const reference::DecoderShape& shape,
                                                      const DeviceLimits& limits) {
  for (uint32_t rows = gemv.rows + gemv.rows % 2; rows <= 8; rows += 2) {
    if (gemv.wg / gemv.tpr * rows % 64 == 0) {
      gemv.rows = rows;
      return Allowed(gemv, 2 * shape.intermediate, shape.hidden, limits);
    }
  }
  return std::nullopt;
}

FusedGateUp::FusedGateUp(gpu::Context& context, const reference::DecoderShape& shape,
                         const ops::GemvConfig& config)
    : context_(context), config_(config), rows_(2 * shape.intermediate) {
  pipeline_ = CompileQ8Gemv(context, config_, rows_, shape.hidden,
                            "decode_gate_up_silu_store_part", true, "decode gate_up+silu");
  gemv_params_ = gpu::Uniform(context, GemvParams{.m = 1, .k = shape.hidden, .n = rows_, .padding = 0},
                              "decode gate_up+silu params");
}

gpu::Dispatch FusedGateUp::Record(const parts::Q8Row& in, const GpuQ4& paired,
                                  const parts::Q8Row& out) const {
  return ops::OneDispatch(context_, pipeline_,
                          {in.codes, paired.codes, paired.scales, {}, gemv_params_, in.scale_sums,
                           out.codes, out.scale_sums},
                          gpu::GroupsFor(rows_, RowsPerWorkgroup(config_)));
}

}  // namespace refract::decode
