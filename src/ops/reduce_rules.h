// The sum of an f32 array (the reduction and subgroups sweeps, SWEEPS.md): a workgroup sums its
// wg × items vec4 through a tree in workgroup memory (or subgroupAdd, then a tree over the
// subgroups' sums) into one partial, and a second dispatch sums the partials.
#pragma once

#include <cstdint>

#include "ops/op_rules.h"

namespace refract::ops {

struct ReduceShape {
  uint64_t count = 0;  ///< f32 values, a whole number of vec4
};

struct ReduceConfig {
  uint32_t wg = 256;       ///< invocations a workgroup
  uint32_t items = 1;      ///< vec4 an invocation sums before the tree
  uint32_t subgroups = 0;  ///< 1: subgroupAdd, then a tree over the subgroups' sums
};

/// Workgroups of the first dispatch, one partial each.
uint64_t ReducePartials(const ReduceConfig& config, const ReduceShape& problem);

/// wg, items, subgroups. Default: 256 invocations of 1 vec4, the workgroup tree.
extern const OpRules<ReduceShape, ReduceConfig> kReduceRules;

}  // namespace refract::ops
