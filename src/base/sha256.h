// SHA-256, for stamping kernel sources (a replaced kernel's hash in a row, a profile entry's).
#pragma once

#include <string>
#include <string_view>

namespace refract {

/// The SHA-256 digest of `text` (FIPS 180-4, section 6.2), as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view text);

}  // namespace refract
