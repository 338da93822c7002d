#include "base/id_globs.h"

#include <fnmatch.h>

#include <algorithm>

namespace refract {
namespace {

bool Matches(const std::string& glob, const std::string& id) {
  return fnmatch(glob.c_str(), id.c_str(), 0) == 0;
}

}  // namespace

bool MatchesAnyGlob(const std::string& id, std::span<const std::string> globs) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](const std::string& glob) { return Matches(glob, id); });
}

std::optional<std::string> GlobMatchingNoId(std::span<const std::string> globs,
                                            std::span<const std::string> ids) {
  for (const std::string& glob : globs) {
    if (std::none_of(ids.begin(), ids.end(),
                     [&](const std::string& id) { return Matches(glob, id); })) {
      return glob;
    }
  }
  return std::nullopt;
}

}  // namespace refract
