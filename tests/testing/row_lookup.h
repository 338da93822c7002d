// Ceilings rows in tests: specs by id, ids as gtest parameter names, running rows as the
// command does.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "bench/benchmark.h"
#include "bench/runner.h"
#include "results/run_record.h"
#include "suites/ceilings/alu_row_spec.h"

namespace refract::suites::ceilings {
/// Prints a spec as its row id, so gtest names parameterised tests readably.
void PrintTo(const AluRowSpec& spec, std::ostream* out);
}  // namespace refract::suites::ceilings

namespace refract::testing {

/// The raw-ALU row `id` of CoreAluRows or CatalogAluRows; throws Error when there is none.
const suites::ceilings::AluRowSpec& FindAluSpec(std::string_view id);

/// Runs `rows` through the shared runner with the ceilings suite's rules (the impossible-rate
/// check) on the shared context, as `refract ceilings` does.
std::vector<results::ResultRow> RunCeilingsRows(std::vector<std::unique_ptr<bench::Benchmark>>& rows,
                                                const bench::RunOptions& options);

/// A row id as a gtest parameter name: '-' becomes '_' ("f32-fma-scalar" → "f32_fma_scalar").
std::string GtestName(std::string_view row_id);

}  // namespace refract::testing
