#include "decode/quantizing_ops.h"

#include <algorithm>
#include <span>
#include <vector>

#include "base/error.h"
#include "decode/engine_parts.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "ops/matmul_rules.h"
#include "ops/op.h"

namespace refract::decode::parts {
namespace {

/// decode_quantize_q8.wgsl's Params.
struct QuantizeParams {
  uint32_t k;
  float eps;
  uint32_t padding[2];
};
static_assert(sizeof(QuantizeParams) == 16);

constexpr uint32_t kNormWorkgroup = 256;  // one workgroup a row: 8 values a thread to 8192
constexpr uint32_t kNormMaxTrips = 4;     // decode_add_norm_part.wgsl's MAX_NORM_TRIPS
constexpr uint32_t kSiluWorkgroup = 64;   // 10 workgroups at 4864 values

/// Workgroups of a decode_quantize_q8 entry point over a row of `k` (four invocations a block).
uint32_t Groups(uint32_t k, uint32_t workgroup) {
  return static_cast<uint32_t>(gpu::GroupsFor(4 * ops::Q4BlocksOf(k), workgroup));
}

/// decode_quantize_q8's entry point `entry` over a row of `k` (composed with the device's block
/// part and `addend`'s part); TRIPS, the norm's groups of 8 an invocation keeps.
gpu::ComputePipeline Compile(gpu::Context& context, const std::string& entry, uint32_t workgroup,
                             uint32_t k, const SecondAddend& addend = {}) {
  const bool subgroups = context.limits().subgroups;
  const std::string_view block_part =
      subgroups ? "llm_quantize_block_subgroup_part" : "llm_quantize_block_workgroup_part";
  NormTotalPart total = NormTotalFor(context.limits(), workgroup, subgroups);
  total.constants["WG"] = workgroup;
  total.constants["TRIPS"] = Groups(k, kNormWorkgroup);
  const AddendPart addend_part = AddendPartFor(addend);
  total.constants.insert(addend_part.constants.begin(), addend_part.constants.end());
  return ops::CompileKernel(context,
                            {block_part, "llm_quantize_q8_part", total.name, addend_part.name,
                             "decode_add_norm_part", "decode_quantize_q8"},
                            "decode " + entry + " q8", entry, total.constants);
}

/// decode_add_norm_part.wgsl's StreamSlots.
struct StreamSlots {
  uint32_t a, b, sum, unused;
};
static_assert(sizeof(StreamSlots) == 16);

}  // namespace

NormTotalPart NormTotalFor(const DeviceLimits& limits, uint32_t wg, bool subgroups) {
  uint32_t lanes = 1;
  while (lanes < 32 && lanes * 2 <= limits.subgroup_min_size && lanes * 2 <= wg) lanes *= 2;
  if (!subgroups || !limits.subgroups || lanes < 4 || wg % lanes != 0) {
    return {"decode_norm_total_workgroup_part", {}};
  }
  return {"decode_norm_total_subgroup_part", {{"NORM_LANES", lanes}}};
}

AddendPart AddendPartFor(const SecondAddend& addend) {
  switch (addend.from) {
    case SecondAddend::From::kFixed:
      return {"decode_addend_fixed_part", {{"FIXED_ONE", kFixedOne}}};
    case SecondAddend::From::kStream:
      break;
  }
  return {"decode_addend_stream_part", {}};
}

ResidualStream::ResidualStream(gpu::Context& context, uint32_t hidden, const std::string& label)
    : hidden_(hidden) {
  const uint64_t alignment =
      std::max<uint64_t>(context.limits().min_storage_buffer_offset_alignment, 4);
  slot_floats_ =
      static_cast<uint32_t>((uint64_t{hidden} * 4 + alignment - 1) / alignment * alignment / 4);
  buffer_ = context.CreateBuffer(uint64_t{slot_floats_} * kSlots * 4, kStorage, label);
  const std::vector<float> zeros(size_t{slot_floats_} * kSlots, 0.0f);
  context.WriteBuffer(buffer_, 0, std::as_bytes(std::span<const float>(zeros)));
}

gpu::BufferSlice ResidualStream::Slot(uint32_t slot) const {
  return {buffer_, uint64_t{slot} * slot_floats_ * 4, uint64_t{hidden_} * 4};
}

gpu::Buffer ResidualStream::Sum(gpu::Context& context, uint32_t a, uint32_t b, uint32_t sum) const {
  return gpu::Uniform(
      context,
      StreamSlots{
          .a = a * slot_floats_, .b = b * slot_floats_, .sum = sum * slot_floats_, .unused = 0},
      "decode residual sum");
}

Q8Row MakeQ8Row(gpu::Context& context, uint32_t k, const std::string& label) {
  const uint64_t blocks = ops::Q4BlocksOf(k);
  return {context.CreateBuffer(blocks * 32, kStorage, label + " q8 codes"),
          context.CreateBuffer(blocks * 8, kStorage, label + " q8 scales")};
}

QuantizingOps::QuantizingOps(gpu::Context& context, const reference::DecoderShape& shape,
                             bool fixed_norm)
    : context_(context), hidden_(shape.hidden), intermediate_(shape.intermediate) {
  REFRACT_THROW_IF(Groups(shape.hidden, kNormWorkgroup) > kNormMaxTrips, UsageError,
                   std::string(shape.name) + ": q8 activations take a hidden size up to " +
                       std::to_string(kNormMaxTrips * kNormWorkgroup * 8) + ", not " +
                       std::to_string(shape.hidden) + " (--activations f32 takes it)");
  add_norm_ = Compile(context, "norm", kNormWorkgroup, shape.hidden);
  if (fixed_norm && shape.hidden % 8 == 0) {
    add_norm_fixed_ = Compile(context, "norm", kNormWorkgroup, shape.hidden,
                              {.from = SecondAddend::From::kFixed});
  }
  silu_mul_ = Compile(context, "silu_mul", kSiluWorkgroup, shape.intermediate);
  const auto eps = static_cast<float>(shape.rms_eps);
  hidden_params_ = gpu::Uniform(context, QuantizeParams{shape.hidden, eps, {}}, "decode norm q8");
  intermediate_params_ =
      gpu::Uniform(context, QuantizeParams{shape.intermediate, eps, {}}, "decode silu-mul q8");
}

gpu::Dispatch QuantizingOps::AddNorm(const NormInput& in, const Q8Row& out) const {
  return ops::OneDispatch(
      context_, add_norm_,
      {{}, out.codes, out.scale_sums, hidden_params_, in.weight, in.stream, in.sum}, 1);
}

gpu::Dispatch QuantizingOps::AddNormFixed(const NormInput& in, const gpu::Buffer& down,
                                          const Q8Row& out) const {
  REFRACT_THROW_IF(!add_norm_fixed_, UsageError,
                   "the norm of the down projection in fixed point is not compiled (a hidden size "
                   "of " + std::to_string(hidden_) + "; it takes multiples of 8)");
  return ops::OneDispatch(context_, add_norm_fixed_,
                          {{},
                           out.codes,
                           out.scale_sums,
                           hidden_params_,
                           in.weight,
                           in.stream,
                           in.sum,
                           {},
                           {},
                           {},
                           {},
                           {},
                           {},
                           {},
                           {},
                           {},
                           down},
                          1);
}

gpu::Dispatch QuantizingOps::SiluMul(const gpu::Buffer& gate_up, const Q8Row& out) const {
  return ops::OneDispatch(context_, silu_mul_,
                          {gate_up, out.codes, out.scale_sums, intermediate_params_},
                          Groups(intermediate_, kSiluWorkgroup));
}

}  // namespace refract::decode::parts
