// Standard descriptors closed by the caller (`refract info --json - >&-`). A closed descriptor
// 0, 1 or 2 would be handed to the next file the process opens (the Vulkan driver's memory
// file), and whatever refract printed would land in it; so each one is taken at start.
#pragma once

namespace refract::cli {

/// Which of descriptors 0, 1, 2 were closed when the process started.
struct ClosedStandardStreams {
  bool input = false;
  bool output = false;
  bool error = false;
};

/// Opens /dev/null on each closed standard descriptor, the wrong way round (write-only on 0,
/// read-only on 1 and 2), so that it stays taken and every use of it fails as on a closed one.
/// Call first in main(), before anything opens a file.
ClosedStandardStreams TakeClosedStandardStreams();

}  // namespace refract::cli
