// SHA-256, for stamping kernel sources (a replaced kernel's hash in a row, a profile entry's):
// the public profile library's (include/refract/profile.h), the one implementation.
#pragma once

#include "refract/profile.h"

namespace refract {

using profile::Sha256Hex;

}  // namespace refract
