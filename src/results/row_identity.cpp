#include "results/row_identity.h"

#include <algorithm>

namespace refract::results {
namespace {

/// Each text field of the identity with its param's name, listed once for writing and reading.
constexpr std::pair<const char*, std::string RowIdentity::*> kFields[] = {
    {"kernel", &RowIdentity::kernel},   {"variant", &RowIdentity::variant},
    {"model", &RowIdentity::model},     {"phase", &RowIdentity::phase},
    {"problem", &RowIdentity::problem}, {"sweep", &RowIdentity::sweep},
    {"role", &RowIdentity::role}};

constexpr const char* kDimensions = "dims";

}  // namespace

Params WithIdentity(Params params, const RowIdentity& identity) {
  for (const auto& [name, field] : kFields) {
    if (!(identity.*field).empty()) params[name] = identity.*field;
  }
  if (!identity.dimensions.empty()) {
    std::vector<std::string> names = identity.dimensions;
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
    params[kDimensions] = text;
  }
  return params;
}

RowIdentity IdentityOf(const Params& params) {
  RowIdentity identity;
  for (const auto& [name, field] : kFields) identity.*field = TextOf(params, name);
  const std::string dims = TextOf(params, kDimensions);
  for (size_t start = 0; start < dims.size();) {
    const size_t end = std::min(dims.find(',', start), dims.size());
    if (end > start) identity.dimensions.push_back(dims.substr(start, end - start));
    start = end + 1;
  }
  return identity;
}

}  // namespace refract::results
