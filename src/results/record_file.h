// Reading refract's JSON documents back from text or files, with every failure a
// refract::Error that names the source and what is wrong.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "base/device_description.h"
#include "results/run_record.h"

namespace refract::results {

/// The largest document a reader takes [bytes]: 64 MiB, 200 times the largest refract has
/// written (310 kB, the H200 kernels run of 150 rows) and room for a sweep of 20,000 rows at
/// ~3 kB each; past it the input is no refract document (/dev/zero, a disk image).
inline constexpr size_t kMaxDocumentBytes = size_t{64} << 20;

/// The whole text of the file at `path`. Throws refract::Error naming it: it cannot be opened
/// or read (with the errno text), it is a folder, or it holds more than kMaxDocumentBytes
/// (reading stops there).
std::string ReadDocumentText(const std::filesystem::path& path);

/// Parses `text` as a run document (results/json_io.h). Throws refract::Error whose message
/// starts with `source` (a file name, in quotes) and says what is wrong: not JSON (with the
/// byte offset of the first error), a field missing or wrongly typed (named, e.g.
/// "results[2].times_ms"), or another schema_version. Never throws anything else, never
/// recurses on the input's depth beyond the JSON parser's own bounded stack.
RunRecord ParseRunRecord(std::string_view text, const std::string& source);

/// Parses `text` as the document of `refract info --json`; throws like ParseRunRecord.
DeviceDescription ParseDeviceInfo(std::string_view text, const std::string& source);

/// Reads the file at `path` and parses it with ParseRunRecord (source: the path). A file that
/// cannot be read throws refract::Error naming it and the errno text.
RunRecord ReadRunRecordFile(const std::filesystem::path& path);

/// Reads the file at `path` and parses it with ParseDeviceInfo.
DeviceDescription ReadDeviceInfoFile(const std::filesystem::path& path);

}  // namespace refract::results
