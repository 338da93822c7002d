// Writing output files so that a reader never sees a half-written one.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

namespace refract::results {

/// Replaces `path` with `content` as a whole: writes a temporary file in the same directory,
/// fsyncs it, and renames it over `path`. On any failure the temporary file is removed, `path`
/// is left as it was, and refract::Error is thrown naming `path` and the errno text.
void WriteFileAtomically(const std::filesystem::path& path, std::string_view content);

/// Writes `content` to `stdout_stream` when `path_or_dash` is "-", else WriteFileAtomically.
/// Throws refract::Error when the stream fails.
void WriteOutput(const std::string& path_or_dash, std::string_view content,
                 std::ostream& stdout_stream);

}  // namespace refract::results
