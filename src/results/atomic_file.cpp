#include "results/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/error.h"

namespace refract::results {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void ThrowErrno(const fs::path& path, const char* step, int error_number) {
  throw Error("cannot write '" + path.string() + "': " + step + ": " + std::strerror(error_number));
}

// Writes all of `content`, retrying on EINTR and short writes. Returns 0 or an errno value.
int WriteAll(int fd, std::string_view content) {
  while (!content.empty()) {
    ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    content.remove_prefix(static_cast<size_t>(written));
  }
  return 0;
}

// Creates a fresh temporary file beside `path` (mode 0666 less the umask, like a plain
// create). Returns its descriptor and sets `temp_path`; throws on failure.
int CreateTemp(const fs::path& path, fs::path& temp_path) {
  static std::atomic<unsigned> counter{0};
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_path = directory / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) +
                             "-" + std::to_string(counter++));
    int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) ThrowErrno(path, "creating a temporary file", errno);
  }
  ThrowErrno(path, "creating a temporary file", EEXIST);
}

}  // namespace

void WriteFileAtomically(const fs::path& path, std::string_view content) {
  if (path.empty() || !path.has_filename()) ThrowErrno(path, "not a file name", EINVAL);
  fs::path temp_path;
  int fd = CreateTemp(path, temp_path);

  const char* step = "writing";
  int error_number = WriteAll(fd, content);
  if (error_number == 0 && ::fsync(fd) != 0) {
    step = "fsync";
    error_number = errno;
  }
  if (::close(fd) != 0 && error_number == 0) {
    step = "closing";
    error_number = errno;
  }
  if (error_number == 0 && std::rename(temp_path.c_str(), path.c_str()) != 0) {
    step = "renaming the temporary file over it";
    error_number = errno;
  }
  if (error_number != 0) {
    ::unlink(temp_path.c_str());
    ThrowErrno(path, step, error_number);
  }

  // Make the rename itself durable; a failure here leaves a complete file, so it is ignored.
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  int dir_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

void WriteOutput(const std::string& path_or_dash, std::string_view content,
                 std::ostream& stdout_stream) {
  if (path_or_dash != "-") {
    WriteFileAtomically(path_or_dash, content);
    return;
  }
  stdout_stream.write(content.data(), static_cast<std::streamsize>(content.size()));
  stdout_stream.flush();
  if (!stdout_stream) throw Error("cannot write to standard output");
}

}  // namespace refract::results
