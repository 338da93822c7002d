// The exported JSON document of a run (versioned) and of a device, and reading them back.
//
// Layout (docs/RESULTS.md has every field and its unit): one object, every key snake_case.
// Run metadata beside `schema_version` (tool, tool_version, dawn_package, command, options,
// seed, started_at, finished_at, wall_time_s); `device`, where `features` and `limits` are what
// the device was created with and `adapter_features` / `adapter_limits` everything the adapter
// offers (limit names stay as WebGPU spells them: they are data, not keys of the layout);
// `results`, the rows sorted by id, each with its `params` and `verification`; `summary`, the
// values the suite derives from the rows, by name.
//
// Non-finite numbers are written as null, and null reads back as NaN.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/device_description.h"
#include "results/run_record.h"

namespace refract::results {

/// `value`, or null when it is not finite (JSON has no NaN; null reads back as NaN).
nlohmann::json JsonNumber(double value);

/// The params as a JSON object: numbers stay numbers, words stay words.
nlohmann::json ToJson(const Params& params);

/// The whole run as one JSON document; rows sorted by id (stable for equal ids).
nlohmann::json ToJson(const RunRecord& record);

/// Reads a document ToJson wrote. Throws refract::Error naming the field (e.g.
/// "results[2].times_ms") when it is missing or wrongly typed or holds a value no run writes
/// (results/record_checks.h), and naming the version when `schema_version` is not
/// kSchemaVersion.
RunRecord RunRecordFromJson(const nlohmann::json& document);

/// One row as the document's `results` hold it (a sweep's journal keeps rows one a line).
nlohmann::json ToJson(const ResultRow& row);
/// Reads a row ToJson wrote; throws refract::Error naming the field under `where`.
ResultRow ResultRowFromJson(const nlohmann::json& object, const std::string& where);
/// The `device` object of a run document.
nlohmann::json ToJson(const DeviceDescription& device);

/// Reads a `device` object; throws refract::Error naming a missing or wrongly typed field.
DeviceDescription DeviceDescriptionFromJson(const nlohmann::json& object);

/// The standalone document of `refract info --json`: {"schema_version", "tool", "device"}.
nlohmann::json DeviceInfoDocument(const DeviceDescription& device);

/// Reads a DeviceInfoDocument back; throws refract::Error like RunRecordFromJson.
DeviceDescription DeviceDescriptionFromInfoDocument(const nlohmann::json& document);

}  // namespace refract::results
