// Looking up ceilings rows from tests: specs by id, and ids as gtest parameter names.
#pragma once

#include <string>
#include <string_view>

#include "suites/ceilings/alu_row_spec.h"

namespace refract::testing {

/// The raw-ALU row `id` of CoreAluRows or CatalogAluRows; throws Error when there is none.
const suites::ceilings::AluRowSpec& FindAluSpec(std::string_view id);

/// A row id as a gtest parameter name: '-' becomes '_' ("f32-fma-scalar" → "f32_fma_scalar").
std::string GtestName(std::string_view row_id);

}  // namespace refract::testing
