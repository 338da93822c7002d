// How the tuned row kernels (norms, softmax: one workgroup a row) cover a row: `wg`
// invocations, each keeping `vpt` elements (vec4 where the row is a multiple of 4 floats, else
// f32) in registers, the row's statistics reduced through subgroups or a workgroup-memory tree
// (llm_reduce_*_part.wgsl, llm_row_*_part.wgsl).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "base/device_limits.h"
#include "ops/axis.h"
#include "ops/op_support.h"

namespace refract::ops {

struct RowConfig {
  uint32_t wg = 256;       ///< invocations a row
  uint32_t vpt = 1;        ///< elements (of Width() floats) an invocation keeps
  uint32_t subgroups = 0;  ///< 1: reductions through subgroup operations; 0: workgroup memory
};

/// What a row kernel is: the elements an invocation can keep at most (its register array), and
/// how many its default aims to keep.
struct RowKernel {
  uint32_t max_kept = 16;
  uint32_t kept_target = 1;
};

/// Floats in an element of a row of `row_size`: 4 (vec4) when it is a multiple of 4, else 1.
uint32_t RowWidth(uint32_t row_size);

/// wg, vpt, subgroups (vpt at most `kernel.max_kept`).
AxisTable<RowConfig> RowAxes(const RowKernel& kernel);

/// The default for rows of `row_size` floats with `settings` fixed: wg = the row's elements
/// divided by kept_target and rounded up to 32, at most 256 and the device's limit; vpt enough
/// to keep the whole row, at most max_kept; subgroup reductions where the device has them.
RowConfig ResolveRow(const RowKernel& kernel, uint32_t row_size, const DeviceLimits& limits,
                     const Settings& settings);

/// Subgroups on a device without them, and the workgroup's invocations and reduction memory
/// against the device's limits (the axes' own ranges are the rules' to check first).
Refusal CheckRow(const RowKernel& kernel, const RowConfig& config, const DeviceLimits& limits);

/// The override constants WG and VPT.
std::map<std::string, double> RowConstants(const RowConfig& config);
/// The kernel parts a row kernel's body is composed after: the reduction part, then the
/// element part of `row_size`'s width.
std::string_view RowReductionPart(const RowConfig& config);
std::string_view RowElementPart(uint32_t row_size);

}  // namespace refract::ops
