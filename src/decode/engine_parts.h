// What the decode step's build (decode_engine.cpp), the prefill's (decode_prefill.cpp) and the
// kernels suite's rows of the fused kernels (the unfused chains beside them) share: the uniforms
// of the decode kernels, as their WGSL lays them out, buffer helpers and the argmax's kernel.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "decode/decode_engine.h"
#include "gpu/transfer.h"
#include "ops/attention_rules.h"
#include "ops/op.h"
#include "ops/op_kinds.h"

namespace refract::decode::parts {

using reference::Q4Weight;

/// Storage buffers the engine writes, reads back and copies between.
constexpr uint32_t kStorage = gpu::kUsageStorage | gpu::kUsageCopySrc | gpu::kUsageCopyDst;

/// decode_rope_kv.wgsl's and decode_argmax.wgsl's Step uniform.
struct StepValues {
  uint32_t position = 0, index = 0, padding[2] = {0, 0};
};
static_assert(sizeof(StepValues) == 16);

/// decode_rope_kv.wgsl's Params.
struct RopeParams {
  uint32_t rows, heads, kv_heads, head_dim;
};
static_assert(sizeof(RopeParams) == 16);

/// decode_embed_q4.wgsl's Params.
struct EmbedParams {
  uint32_t tokens, hidden, padding[2];
};
static_assert(sizeof(EmbedParams) == 16);

inline GpuQ4 UploadQ4(gpu::Context& context, const Q4Weight& w, const std::string& label) {
  return {gpu::Upload(context, w.packing.b, gpu::kUsageStorage, label + " blocks"),
          gpu::Upload(context, w.packing.scales, gpu::kUsageStorage, label + " scales")};
}

inline gpu::Buffer UploadFloats(gpu::Context& context, const std::vector<float>& values,
                                const std::string& label) {
  return gpu::Upload(context, values, gpu::kUsageStorage, label);
}

/// `count` f32 of kStorage.
inline gpu::Buffer Floats(gpu::Context& context, uint64_t count, const std::string& label) {
  return context.CreateBuffer(count * 4, kStorage, label);
}

/// The model's RoPE frequencies, rounded to f32 once (decode_rope_kv.wgsl's table).
inline std::vector<float> InverseFrequencies(const reference::DecoderShape& shape) {
  std::vector<float> values;
  for (double f : reference::DecoderInverseFrequencies(shape))
    values.push_back(static_cast<float>(f));
  return values;
}

using NormOp = ops::Op<ops::NormShape, ops::RowConfig, ops::NormBuffers>;
using SiluMulOp = ops::Op<ops::ActivationShape, ops::ActivationConfig, ops::ActivationBuffers>;

/// y = RMSNorm(x) · weight.
inline ops::NormBuffers Norm(const gpu::BufferSlice& x, const gpu::Buffer& weight,
                             const gpu::Buffer& y) {
  return {.x = x, .weight = weight, .y = y, .bias = {}, .b = {}, .h = {}};
}

/// h = x + b, y = RMSNorm(h) · weight.
inline ops::NormBuffers AddNorm(const gpu::BufferSlice& x, const gpu::BufferSlice& b,
                                const gpu::BufferSlice& h, const gpu::Buffer& weight,
                                const gpu::Buffer& y) {
  return {.x = x, .weight = weight, .y = y, .bias = {}, .b = b, .h = h};
}

/// The tuned norm of `kind` over `rows` rows of the model's hidden size, at its default.
inline NormOp MakeNorm(gpu::Context& context, const reference::DecoderShape& shape,
                       ops::NormKind kind, uint32_t rows, const std::string& label) {
  const ops::NormShape norm{
      .kind = kind,
      .shape = {.rows = rows, .hidden = shape.hidden, .eps = static_cast<float>(shape.rms_eps)}};
  return NormOp(ops::kNormOps.tuned, context, norm,
                ops::kNormRules.tuned.Resolve(norm, context.limits()), label);
}

/// The tuned silu(gate) · up over `rows` rows of the model's intermediate size, at its default.
inline SiluMulOp MakeSiluMul(gpu::Context& context, const reference::DecoderShape& shape,
                             uint32_t rows, const std::string& label) {
  const ops::ActivationShape silu{.kind = ops::ActivationKind::kSiluMul,
                                  .count = uint64_t{rows} * shape.intermediate};
  return SiluMulOp(ops::kActivationOps.tuned, context, silu,
                   ops::kActivationRules.tuned.Resolve(silu, context.limits()), label);
}

/// decode_argmax.wgsl's first stage: invocations a workgroup, logits an invocation scans.
constexpr uint32_t kArgmaxWorkgroup = 256;
constexpr uint32_t kArgmaxPerThread = 16;

/// The first stage's workgroups (one partial each) over `count` logits.
inline uint32_t ArgmaxStageGroups(uint32_t count) {
  return (count + kArgmaxWorkgroup * kArgmaxPerThread - 1) / (kArgmaxWorkgroup * kArgmaxPerThread);
}

/// decode_argmax.wgsl's entry `entry` ("partial": a workgroup's best of its logits; "pick": the
/// best of `partials` partials, its embedding row of `hidden` values written and the step's
/// values moved on) in workgroups of `workgroup`, over `count` logits.
inline gpu::ComputePipeline ArgmaxKernel(gpu::Context& context, const char* entry,
                                         uint32_t workgroup, uint32_t count, uint32_t partials,
                                         uint32_t hidden) {
  return ops::CompileKernel(
      context, {"decode_argmax_rule_part", "decode_embed_row_part", "decode_argmax"},
      "decode argmax", entry,
      {{"WG", workgroup},
       {"PER_THREAD", kArgmaxPerThread},
       {"COUNT", count},
       {"PARTIALS", partials},
       {"HIDDEN", hidden},
       {"KV_LEN", offsetof(ops::AttentionDecodeParams, kv_len) / 4},
       {"POSITION_OFFSET", offsetof(ops::AttentionDecodeParams, position_offset) / 4}});
}

}  // namespace refract::decode::parts
