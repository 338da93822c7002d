// The 15 core raw-ALU ceilings rows (docs/CEILINGS.md "Raw-ALU kernels"): multiply-add throughput
// in f32, f16 and i32 at scalar, vec4, mat4 and register-matvec granularity, and the packed
// int8 dot products.
#pragma once

#include <vector>

#include "suites/ceilings/alu_row_spec.h"

namespace refract::suites::ceilings {

/// The core rows, in catalog order: f32-fma-{scalar,vec4,mat4,matvec}, the f16 twins,
/// i32-mad-{scalar,vec4,mat4,matvec}, i8-dp4a-matvec, i8-dp4a, u8-dp4a. Each names its kernel
/// (src/kernels/ceil_<id>.wgsl), op count, requirements, CPU model and tolerances.
const std::vector<AluRowSpec>& CoreAluRows();

}  // namespace refract::suites::ceilings
