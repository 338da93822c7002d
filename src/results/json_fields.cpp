#include "results/json_fields.h"

#include "base/error.h"
#include "results/json_io.h"

namespace refract::results::json_fields {

std::string Join(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

std::string Index(const std::string& field, size_t i) {
  return field + "[" + std::to_string(i) + "]";
}

void Fail(const std::string& field, const std::string& problem) {
  throw Error("invalid refract JSON: field '" + field + "' " + problem);
}

std::string TypeProblem(const json& value, const char* expected) {
  return std::string("is ") + value.type_name() + ", expected " + expected;
}

const json& Member(const json& object, const std::string& key, const std::string& where) {
  if (!object.is_object()) Fail(where.empty() ? "(document)" : where, "is not an object");
  auto it = object.find(key);
  if (it == object.end()) Fail(Join(where, key), "is missing");
  return *it;
}

const json& AsArray(const json& value, const std::string& field) {
  if (!value.is_array()) Fail(field, TypeProblem(value, "array"));
  return value;
}

const json& AsObject(const json& value, const std::string& field) {
  if (!value.is_object()) Fail(field, TypeProblem(value, "object"));
  return value;
}

json Written(double value) { return JsonNumber(value); }

json Written(RowStatus status) { return std::string(ToString(status)); }

json Written(const Params& params) { return ToJson(params); }

void As(const json& value, const std::string& field, std::string& out) {
  if (!value.is_string()) Fail(field, TypeProblem(value, "string"));
  out = value.get<std::string>();
}

void As(const json& value, const std::string& field, uint64_t& out) {
  if (!value.is_number_unsigned()) Fail(field, TypeProblem(value, "non-negative integer"));
  out = value.get<uint64_t>();
}

void As(const json& value, const std::string& field, uint32_t& out) {
  uint64_t wide = 0;
  As(value, field, wide);
  if (wide > UINT32_MAX) Fail(field, "does not fit in 32 bits");
  out = static_cast<uint32_t>(wide);
}

void As(const json& value, const std::string& field, double& out) {
  if (value.is_null()) {
    out = kNoValue;
    return;
  }
  if (!value.is_number()) Fail(field, TypeProblem(value, "number or null"));
  out = value.get<double>();
}

void As(const json& value, const std::string& field, RowStatus& out) {
  std::string text;
  As(value, field, text);
  try {
    out = RowStatusFromString(text);
  } catch (const Error&) {
    Fail(field, "is not one of running, ok, skipped, error");
  }
}

void As(const json& value, const std::string& field, Params& out) {
  for (const auto& [name, item] : AsObject(value, field).items()) {
    const std::string where = Join(field, name);
    if (item.is_number_integer()) {
      out[name] = item.get<int64_t>();
    } else if (item.is_number() || item.is_null()) {
      double number = 0;
      As(item, where, number);
      out[name] = number;
    } else if (item.is_string()) {
      out[name] = item.get<std::string>();
    } else {
      Fail(where, TypeProblem(item, "number or string"));
    }
  }
}

}  // namespace refract::results::json_fields
