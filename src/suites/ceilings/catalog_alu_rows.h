// The catalog's remaining raw-ALU rows (docs/CEILINGS.md "Raw-ALU kernels", category compute):
// division, square roots, pow, sin/cos and log; conversions and bit operations; the fma,
// select, clamp and min/max builtins; and the four branch rows. The core fma/mad/dp4a rows live
// in core_alu_rows.h.
#pragma once

#include <vector>

#include "suites/ceilings/alu_row_spec.h"

namespace refract::suites::ceilings {

/// The 28 rows, in catalog order (math, conversions and bits, builtins, branches). Each names
/// its kernel (src/kernels/<kernel>.wgsl), op count, unit, default iterations, requirements,
/// CPU model (reference/alu_catalog_models.h) and the tolerance its comment derives.
const std::vector<AluRowSpec>& CatalogAluRows();

}  // namespace refract::suites::ceilings
