#include "testing/row_lookup.h"

#include <algorithm>

#include "base/error.h"
#include "suites/ceilings/catalog_alu_rows.h"
#include "suites/ceilings/core_alu_rows.h"

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

std::string GtestName(std::string_view row_id) {
  std::string name(row_id);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace refract::testing
