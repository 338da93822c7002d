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

}  // namespace refract::results
