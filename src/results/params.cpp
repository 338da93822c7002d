#include "results/params.h"

#include <cstdio>

namespace refract::results {

std::string ParamValue::ToString() const {
  if (IsInteger()) return std::to_string(AsInteger());
  if (IsText()) return AsText();
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", AsReal());
  return text;
}

std::string ParamsText(const Params& params) {
  std::string text;
  for (const auto& [name, value] : params) {
    if (!text.empty()) text += ' ';
    text += name + "=" + value.ToString();
  }
  return text;
}

std::string TextOf(const Params& params, std::string_view name) {
  const auto found = params.find(std::string(name));
  return found != params.end() && found->second.IsText() ? found->second.AsText() : "";
}

std::optional<double> NumberOf(const Params& params, std::string_view name) {
  const auto found = params.find(std::string(name));
  if (found == params.end() || found->second.IsText()) return std::nullopt;
  return found->second.IsInteger() ? static_cast<double>(found->second.AsInteger())
                                   : found->second.AsReal();
}

}  // namespace refract::results
