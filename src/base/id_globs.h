// `--filter GLOB[,GLOB...]` on row ids, the same for every command that has it: a glob is an
// fnmatch pattern without flags ('*' and '?' also match '/'), and an id is kept when it matches
// at least one glob.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace refract {

/// Whether `id` matches at least one of `globs` (none: false).
bool MatchesAnyGlob(const std::string& id, std::span<const std::string> globs);

/// The first of `globs` that matches none of `ids`, or nothing: the glob a command names when
/// it refuses a filter with a typo.
std::optional<std::string> GlobMatchingNoId(std::span<const std::string> globs,
                                            std::span<const std::string> ids);

}  // namespace refract
