#include "testing/row_lookup.h"

#include <algorithm>

#include "base/error.h"
#include "suites/ceilings/catalog_alu_rows.h"
#include "suites/ceilings/ceilings_rules.h"
#include "suites/ceilings/core_alu_rows.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
void PrintTo(const AluRowSpec& spec, std::ostream* out) { *out << spec.id; }
}  // namespace refract::suites::ceilings

namespace refract::testing {

const suites::ceilings::AluRowSpec& FindAluSpec(std::string_view id) {
  for (const auto* table :
       {&suites::ceilings::CoreAluRows(), &suites::ceilings::CatalogAluRows()}) {
    for (const suites::ceilings::AluRowSpec& spec : *table) {
      if (spec.id == id) return spec;
    }
  }
  throw Error("no raw-ALU row " + std::string(id));
}

std::vector<results::ResultRow> RunCeilingsRows(std::vector<std::unique_ptr<bench::Benchmark>>& rows,
                                                const bench::RunOptions& options) {
  std::vector<bench::Benchmark*> pointers;
  for (auto& row : rows) pointers.push_back(row.get());
  const suites::ceilings::CeilingsRules rules;
  std::vector<results::ResultRow> results =
      bench::RunBenchmarks(SharedContext(), pointers, options, nullptr);
  rules.Review(results);
  return results;
}

std::string GtestName(std::string_view row_id) {
  std::string name(row_id);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace refract::testing
