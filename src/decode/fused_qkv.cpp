#include "decode/fused_qkv.h"

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

}  // namespace

reference::Q4Weight PairedForRope(const reference::Q4Weight& qkv,
                                  const reference::DecoderShape& shape) {
  const uint32_t half = shape.head_dim / 2;
  const size_t blocks = (qkv.k + 31) / 32;
  const size_t row_bytes = blocks * 16;
  reference::Q4Weight paired = qkv;
  for (uint32_t row = 0; row < qkv.n; ++row) {
    const uint32_t pair = row / 2;
    const uint32_t element = (pair / half) * shape.head_dim + pair % half + (row % 2) * half;
    std::memcpy(paired.packing.b.data() + row * row_bytes, qkv.packing.b.data() + element * row_bytes,
                row_bytes);
    std::memcpy(paired.packing.scales.data() + row * blocks,
                qkv.packing.scales.data() + element * blocks, blocks * sizeof(float));
  }
  return paired;
}

FusedQkv::FusedQkv(gpu::Context& context, const reference::DecoderShape& shape,
                   ops::GemvConfig gemv)
    : context_(context), config_(gemv), rows_(shape.QkvRows()) {
  config_.rows += config_.rows % 2;
  const std::string_view reduce = config_.subgroups == 1 ? "llm_gemv_reduce_subgroup_part"
                                                         : "llm_gemv_reduce_workgroup_part";
  pipeline_ = ops::CompileKernel(
      context,
      {"llm_dp4a_part", reduce, "llm_gemv_common_part", "llm_matmul_q4_tuned_gemv_q8",
       "decode_qkv_rope_store_part"},
      "decode qkv+rope", "main",
      {{"WG", config_.wg},
       {"TPR", config_.tpr},
       {"ROWS", config_.rows},
       {"M_ROWS", 1},
       {"K_COLS", shape.hidden},
       {"N_ROWS", rows_},
       {"ACCS", config_.rows},
       {"K_BATCH", config_.batch},
       {"ADJACENT", config_.adjacent}});
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
  const uint32_t rows_per_workgroup = config_.wg / config_.tpr * config_.rows;
  return ops::OneDispatch(context_, pipeline_,
                          {in.codes, paired.codes, paired.scales, {}, gemv_params_, in.scale_sums,
                           bias, inv_freq, q, keys, values, rope_shape_, step},
                          gpu::GroupsFor(rows_, rows_per_workgroup));
}

}  // namespace refract::decode
