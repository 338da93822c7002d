// printf-style formatting into std::string, for messages and notes inside this module.
#pragma once

#include <string>

namespace refract::measure {

/// Like snprintf, returning the text.
std::string StrFormat(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace refract::measure
