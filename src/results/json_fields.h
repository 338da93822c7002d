// How json_io writes and reads its records (private to results/): each record is a table of its
// fields (FieldsOf, in json_io.cpp: a JSON key and the member it holds), and each member type is
// written (Written) and read (As) in one place, so a field is listed once for both directions.
// Reading names the failing field by its path, e.g. "results[2].stats.min".
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/device_description.h"
#include "base/verification.h"
#include "results/params.h"
#include "results/run_record.h"

namespace refract::results::json_fields {

using nlohmann::json;

/// One member of `Record` and its key in the document.
template <typename Record>
struct Field {
  const char* key;
  std::function<json(const Record&)> write;
  /// Reads the member from `value`, the key's value; `field` is its path for messages.
  std::function<void(const json& value, const std::string& field, Record&)> read;
  /// A field later versions of the layout added: a document without it reads, the member
  /// keeping its default (an empty optional).
  bool may_be_absent = false;
};

/// The fields of each record, in the layout's order (json_io.cpp).
const std::vector<Field<Statistics>>& FieldsOf(const Statistics&);
const std::vector<Field<Tolerance>>& FieldsOf(const Tolerance&);
const std::vector<Field<VerificationRecord>>& FieldsOf(const VerificationRecord&);
const std::vector<Field<Roofline>>& FieldsOf(const Roofline&);
const std::vector<Field<AlternateTime>>& FieldsOf(const AlternateTime&);
const std::vector<Field<DecodeKindTime>>& FieldsOf(const DecodeKindTime&);
const std::vector<Field<DecodeFigures>>& FieldsOf(const DecodeFigures&);
const std::vector<Field<ResultRow>>& FieldsOf(const ResultRow&);
const std::vector<Field<SubgroupMatrixConfig>>& FieldsOf(const SubgroupMatrixConfig&);
const std::vector<Field<DeviceDescription>>& FieldsOf(const DeviceDescription&);
const std::vector<Field<RunRecord>>& FieldsOf(const RunRecord&);

template <typename Record>
concept Tabled = requires(const Record& record) {
  FieldsOf(record);
};

// ---- the path of a field, and failures that name it ----

/// "where.key", or "key" at the top of the document.
std::string Join(const std::string& where, const std::string& key);
/// "field[i]".
std::string Index(const std::string& field, size_t i);
/// Throws refract::Error "invalid refract JSON: field '<field>' <problem>".
[[noreturn]] void Fail(const std::string& field, const std::string& problem);
/// "is <type of value>, expected <expected>".
std::string TypeProblem(const json& value, const char* expected);
/// `object`'s `key`; fails when `object` is no object or lacks the key.
const json& Member(const json& object, const std::string& key, const std::string& where);
const json& AsArray(const json& value, const std::string& field);
const json& AsObject(const json& value, const std::string& field);

// ---- writing: numbers that are not finite become null ----

json Written(double value);
json Written(RowStatus status);
json Written(const Params& params);
template <typename T>
json Written(const T& value);
template <typename T>
json Written(const std::optional<T>& value);
template <typename T>
json Written(const std::vector<T>& values);
template <typename T>
json Written(const std::map<std::string, T>& values);
template <Tabled Record>
json Written(const Record& record);

// ---- reading into `out`: null reads as NaN where a number is expected ----

void As(const json& value, const std::string& field, std::string& out);
void As(const json& value, const std::string& field, uint64_t& out);
void As(const json& value, const std::string& field, uint32_t& out);
void As(const json& value, const std::string& field, double& out);
void As(const json& value, const std::string& field, RowStatus& out);
void As(const json& value, const std::string& field, Params& out);
template <typename T>
void As(const json& value, const std::string& field, std::optional<T>& out);
template <typename T>
void As(const json& value, const std::string& field, std::vector<T>& out);
template <typename T>
void As(const json& value, const std::string& field, std::map<std::string, T>& out);
template <Tabled Record>
void As(const json& value, const std::string& where, Record& record);

/// The field `key` of a record, held in `member`.
template <typename Record, typename T>
Field<Record> F(const char* key, T Record::*member) {
  return {key, [member](const Record& record) { return Written(record.*member); },
          [member](const json& value, const std::string& field, Record& record) {
            As(value, field, record.*member);
          }};
}

/// F for an optional member added to the layout after its version's first documents.
template <typename Record, typename T>
Field<Record> OptionalF(const char* key, std::optional<T> Record::*member) {
  Field<Record> field = F(key, member);
  field.may_be_absent = true;
  return field;
}

template <typename T>
json Written(const T& value) {
  return json(value);
}

template <typename T>
json Written(const std::optional<T>& value) {
  return value ? Written(*value) : json(nullptr);
}

template <typename T>
json Written(const std::vector<T>& values) {
  json array = json::array();
  for (const T& value : values) array.push_back(Written(value));
  return array;
}

template <typename T>
json Written(const std::map<std::string, T>& values) {
  json object = json::object();
  for (const auto& [name, value] : values) object[name] = Written(value);
  return object;
}

template <Tabled Record>
json Written(const Record& record) {
  json object = json::object();
  for (const Field<Record>& field : FieldsOf(record)) object[field.key] = field.write(record);
  return object;
}

template <typename T>
void As(const json& value, const std::string& field, std::optional<T>& out) {
  out.reset();
  if (value.is_null()) return;
  As(value, field, out.emplace());
}

template <typename T>
void As(const json& value, const std::string& field, std::vector<T>& out) {
  const json& array = AsArray(value, field);
  out.resize(array.size());
  for (size_t i = 0; i < array.size(); ++i) As(array[i], Index(field, i), out[i]);
}

template <typename T>
void As(const json& value, const std::string& field, std::map<std::string, T>& out) {
  for (const auto& [name, item] : AsObject(value, field).items()) {
    As(item, Join(field, name), out[name]);
  }
}

template <Tabled Record>
void As(const json& value, const std::string& where, Record& record) {
  AsObject(value, where);
  for (const Field<Record>& field : FieldsOf(record)) {
    if (field.may_be_absent && !value.contains(field.key)) continue;
    field.read(Member(value, field.key, where), Join(where, field.key), record);
  }
}

}  // namespace refract::results::json_fields
