#include "results/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "base/error.h"

namespace refract::results {
namespace {

namespace fs = std::filesystem;

// The kernel's limit on symbolic links followed in one lookup (MAXSYMLINKS).
constexpr int kMaxLinks = 40;

// "'latest.json'", or "'latest.json' (→ 'runs/7.json')" when a link led elsewhere.
std::string Describe(const fs::path& given, const fs::path& target) {
  std::string text = "'" + given.string() + "'";
  if (!target.empty() && target != given) text += " (→ '" + target.string() + "')";
  return text;
}

[[noreturn]] void Fail(const fs::path& given, const fs::path& target, const std::string& step,
                       int error_number) {
  throw OutputError("cannot write " + Describe(given, target) + ": " + step + ": " +
                    std::strerror(error_number));
}

// A file with no write permission bit is left alone whoever runs refract: root passes every
// access check, and CI and GPU machines run refract as root, yet a file made read-only (chmod
// a-w) is one its owner wants kept, as `cp` with --no-clobber-minded users expect.
void RefuseReadOnly(const fs::path& given, const fs::path& target, mode_t mode) {
  if (!S_ISREG(mode) || (mode & 0222) != 0) return;
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode & 07777));
  throw OutputError("cannot write " + Describe(given, target) + ": the file is read-only (mode " +
                    octal + "): refract never replaces a file without a write permission bit, "
                    "whoever runs it");
}

// Blocks SIGPIPE in the calling thread for its lifetime, so that writing to a pipe whose reader
// left fails with EPIPE instead of ending the process; a SIGPIPE raised meanwhile is consumed
// (unless one was already pending before) and the old mask restored.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_mask_);
    sigset_t pending;
    was_pending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
  }
  ~SigpipeBlocked() {
    sigset_t pending;
    if (!was_pending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      const timespec no_wait{0, 0};
      while (sigtimedwait(&pipe_, nullptr, &no_wait) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_{};
  sigset_t old_mask_{};
  bool was_pending_ = false;
};

// Writes all of `content`, retrying on EINTR and short writes. Returns 0 or an errno value.
int WriteAll(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (written == 0) return EIO;  // no progress and no error: do not spin
    content.remove_prefix(static_cast<size_t>(written));
  }
  return 0;
}

// The canonical form of `folder` (realpath), or nullopt with errno set.
std::optional<fs::path> Canonical(const fs::path& folder) {
  char resolved[PATH_MAX];
  if (::realpath(folder.empty() ? "." : folder.c_str(), resolved) == nullptr) return std::nullopt;
  return fs::path(resolved);
}

// This process's descriptor named by a canonical /proc path such as /proc/<pid>/fd/<n> or
// /proc/<pid>/task/<tid>/fd/<n>; nullopt when it names another process or is no descriptor.
std::optional<int> OwnDescriptor(const fs::path& canonical_folder, const fs::path& name) {
  if (canonical_folder.filename() != "fd") return std::nullopt;
  auto part = canonical_folder.begin();
  if (part == canonical_folder.end() || *part != "/" || ++part == canonical_folder.end() ||
      *part != "proc" || ++part == canonical_folder.end() || *part != std::to_string(::getpid())) {
    return std::nullopt;
  }
  const std::string digits = name.string();
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoi(digits);
}

bool UnderProc(const fs::path& canonical_folder) {
  auto part = canonical_folder.begin();
  return part != canonical_folder.end() && *part == "/" && ++part != canonical_folder.end() &&
         *part == "proc";
}

// Creates a fresh temporary file beside `target` with `mode` (less the umask). Returns its
// descriptor and sets `temp_path`.
int CreateTemp(const fs::path& given, const fs::path& target, mode_t mode, fs::path& temp_path) {
  static std::atomic<unsigned> counter{0};
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_path = folder / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) +
                          "-" + std::to_string(counter++));
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) return fd;
    if (errno != EEXIST) Fail(given, target, "creating a temporary file beside it", errno);
  }
  Fail(given, target, "creating a temporary file beside it", EEXIST);
}

void ReplaceFile(const fs::path& given, const fs::path& target, std::string_view content) {
  // Keep the mode of the file replaced; a new file gets 0666 less the umask, as a plain create.
  mode_t mode = 0666;
  struct stat old_status;
  const bool replacing = ::stat(target.c_str(), &old_status) == 0;
  if (replacing) mode = old_status.st_mode & 07777;
  // The folder's permission would let the rename replace a file the caller may not write (mode
  // 444, another user's): refuse it, as cp or a plain open would.
  if (replacing && ::faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) != 0) {
    Fail(given, target, "the file", errno);
  }
  if (replacing) RefuseReadOnly(given, target, old_status.st_mode);

  fs::path temp_path;
  const int fd = CreateTemp(given, target, mode, temp_path);
  const char* step = "writing";
  int error_number = WriteAll(fd, content);
  // open() applied the umask; the mode of a replaced file is restored exactly.
  if (error_number == 0 && replacing && ::fchmod(fd, mode) != 0) {
    step = "setting the mode";
    error_number = errno;
  }
  if (error_number == 0 && ::fsync(fd) != 0) {
    step = "fsync";
    error_number = errno;
  }
  if (::close(fd) != 0 && error_number == 0) {
    step = "closing";
    error_number = errno;
  }
  if (error_number == 0 && std::rename(temp_path.c_str(), target.c_str()) != 0) {
    step = "renaming the temporary file over it";
    error_number = errno;
  }
  if (error_number != 0) {
    ::unlink(temp_path.c_str());
    Fail(given, target, step, error_number);
  }
  // Make the rename durable; a failure here leaves a complete file, so it is ignored.
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const int folder_fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder_fd >= 0) {
    ::fsync(folder_fd);
    ::close(folder_fd);
  }
}

void Stream(const fs::path& given, const fs::path& target, std::string_view content) {
  int fd;
  do {
    // Opening a FIFO waits for its reader, as any writer of a named pipe does.
    fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) Fail(given, target, "opening", errno);
  const char* step = "writing";
  int error_number = 0;
  struct stat status;
  // Only a regular file behind another process's descriptor gets here: start it afresh.
  if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && ::ftruncate(fd, 0) != 0) {
    step = "truncating";
    error_number = errno;
  }
  if (error_number == 0) error_number = WriteAll(fd, content);
  if (::close(fd) != 0 && error_number == 0) {
    step = "closing";
    error_number = errno;
  }
  if (error_number != 0) Fail(given, target, step, error_number);
}

}  // namespace

OutputTarget ResolveOutput(const fs::path& path) {
  if (path.empty() || !path.has_filename()) Fail(path, {}, "not a file name", EINVAL);
  fs::path current = path;
  for (int links = 0;; ++links) {
    const fs::path folder = current.parent_path();
    const std::optional<fs::path> canonical_folder = Canonical(folder);
    if (!canonical_folder) {
      const int error_number = errno;
      Fail(path, current, "folder '" + (folder.empty() ? "." : folder.string()) + "'",
           error_number);
    }
    if (UnderProc(*canonical_folder)) {
      // /dev/stdout, /dev/fd/N, >(…): /proc's links name open files, not paths to follow.
      OutputTarget target{OutputKind::kStream, path, -1};
      if (auto fd = OwnDescriptor(*canonical_folder, current.filename())) {
        if (::fcntl(*fd, F_GETFD) < 0) {
          const int error_number = errno;
          Fail(path, {}, "descriptor " + std::to_string(*fd), error_number);
        }
        target.kind = OutputKind::kDescriptor;
        target.descriptor = *fd;
      }
      return target;
    }
    struct stat status;
    if (::lstat(current.c_str(), &status) != 0) {
      if (errno == ENOENT) return {OutputKind::kReplaceFile, current, -1};
      Fail(path, current, "reading its status", errno);
    }
    if (S_ISLNK(status.st_mode)) {
      if (links >= kMaxLinks) Fail(path, current, "following its links", ELOOP);
      std::string link(static_cast<size_t>(status.st_size > 0 ? status.st_size : PATH_MAX), '\0');
      const ssize_t length = ::readlink(current.c_str(), link.data(), link.size());
      if (length < 0) Fail(path, current, "reading the link", errno);
      link.resize(static_cast<size_t>(length));
      // A relative target is read from the folder holding the link; the kernel resolves ".."
      // after a linked folder the same way, so the paths are joined, never normalised.
      const fs::path next(link);
      current = next.is_absolute() ? next : folder / next;
      continue;
    }
    if (S_ISREG(status.st_mode)) return {OutputKind::kReplaceFile, current, -1};
    if (S_ISDIR(status.st_mode)) Fail(path, current, "it is a folder", EISDIR);
    if (S_ISSOCK(status.st_mode)) Fail(path, current, "it is a socket", ENXIO);
    return {OutputKind::kStream, current, -1};  // FIFO, character or block device
  }
}

void CheckOutputWritable(const std::string& destination) {
  if (destination.empty() || destination == "-") return;
  const OutputTarget target = ResolveOutput(destination);
  if (target.kind != OutputKind::kReplaceFile) return;
  const fs::path folder = target.path.has_parent_path() ? target.path.parent_path() : ".";
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    const int error_number = errno;
    Fail(destination, target.path, "folder '" + folder.string() + "'", error_number);
  }
  if (::faccessat(AT_FDCWD, target.path.c_str(), W_OK, AT_EACCESS) != 0 && errno != ENOENT) {
    Fail(destination, target.path, "the file", errno);
  }
  struct stat status;
  if (::stat(target.path.c_str(), &status) == 0) RefuseReadOnly(destination, target.path, status.st_mode);
}

bool SameFile(const std::string& a, const std::string& b) {
  if (a.empty() || a == "-" || b.empty() || b == "-") return false;
  struct stat status_a, status_b;
  const bool a_exists = ::stat(a.c_str(), &status_a) == 0;
  const bool b_exists = ::stat(b.c_str(), &status_b) == 0;
  if (a_exists || b_exists) {
    return a_exists && b_exists && status_a.st_dev == status_b.st_dev &&
           status_a.st_ino == status_b.st_ino && !S_ISCHR(status_a.st_mode);
  }
  // Two new files: the ends of their link chains, their folders made canonical.
  auto end = [](const std::string& path) -> std::optional<fs::path> {
    try {
      const fs::path target = ResolveOutput(path).path;
      const std::optional<fs::path> folder = Canonical(target.parent_path());
      if (!folder) return std::nullopt;
      return *folder / target.filename();
    } catch (const Error&) {
      return std::nullopt;
    }
  };
  const std::optional<fs::path> end_a = end(a), end_b = end(b);
  return end_a && end_b && *end_a == *end_b;
}

void WriteOutput(const std::string& destination, std::string_view content,
                 std::ostream& standard_output) {
  SigpipeBlocked sigpipe_blocked;
  if (destination == "-") {
    errno = 0;
    standard_output.write(content.data(), static_cast<std::streamsize>(content.size()));
    standard_output.flush();
    if (!standard_output) {
      const int error_number = errno != 0 ? errno : EIO;
      throw OutputError(std::string("cannot write to standard output: ") +
                        std::strerror(error_number));
    }
    return;
  }
  const OutputTarget target = ResolveOutput(destination);
  switch (target.kind) {
    case OutputKind::kReplaceFile:
      ReplaceFile(destination, target.path, content);
      return;
    case OutputKind::kStream:
      Stream(destination, target.path, content);
      return;
    case OutputKind::kDescriptor:
      if (const int error_number = WriteAll(target.descriptor, content); error_number != 0) {
        Fail(destination, {}, "writing to descriptor " + std::to_string(target.descriptor),
             error_number);
      }
      return;
  }
}

}  // namespace refract::results
