// The rules every JSON document refract reads holds to (profile stores, results documents,
// sweep journals), in one place: how its file is read and what its text may hold. The public
// profile reader and refract's own readers share them; js/refract-profile.mjs states the same
// rules for the JavaScript reader (docs/PROFILES.md, "The text of a store"). Standard library
// and nlohmann-json only: this is part of the public profile library's build, not its API.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace refract::profile::document {

/// The largest document a reader takes [bytes]: 64 MiB. Past it the input is no refract
/// document (/dev/zero, a disk image).
inline constexpr size_t kMaxBytes = size_t{64} << 20;

/// The whole text of the file at `path`, or why it cannot be had: the path is not there or
/// cannot be opened (the system's reason), it is not a regular file (a folder, a named pipe, a
/// device, a socket: said which, and never opened, so a pipe without a writer cannot block), or
/// it holds more than kMaxBytes (reading stops there). A link is followed to its target.
struct FileText {
  std::string text;
  std::string problem;  ///< "" when `text` is the file's
};
FileText ReadFile(const std::string& path);

/// What is wrong with `text` as a document's text, before any JSON is parsed, or nothing:
/// more than kMaxBytes, a byte sequence that is not UTF-8 (its offset), a NUL character (its
/// offset; JSON text never holds one raw, and a reader that stops there would read a prefix),
/// a second byte order mark after the first.
std::optional<std::string> TextProblem(std::string_view text);

/// `text` without a leading UTF-8 byte order mark (RFC 8259 lets a parser ignore one).
std::string_view WithoutByteOrderMark(std::string_view text);

/// Where a JSON parse of `text` fails, as a field path below `root` ("store.profiles[0].
/// entries[2].winner.median_ms"): the value being read when the parser gave up (a number beyond
/// a double's range, say). `root` alone when the failure is outside any field.
std::string FailurePath(std::string_view text, const std::string& root);

}  // namespace refract::profile::document
