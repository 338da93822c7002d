// Writing an output document where the user pointed it, without clobbering anything: a file
// is replaced whole (never truncated in place), a symbolic link keeps being a link, and a pipe
// or a device is written to, not replaced. Every failure is an OutputError naming the path.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

namespace refract::results {

/// How a path receives a document.
enum class OutputKind {
  kReplaceFile,  ///< a regular file or a new path: a temporary file renamed over it
  kStream,       ///< a FIFO, character or block device, or another process's descriptor
  kDescriptor,   ///< one of this process's descriptors: /dev/stdout, /dev/fd/N, /proc/self/fd/N
};

/// Where a path leads once its symbolic links are followed.
struct OutputTarget {
  OutputKind kind = OutputKind::kReplaceFile;
  /// The file written: the end of the link chain (kReplaceFile, kStream), or the path as given
  /// when /proc resolves it (a descriptor's "pipe:[…]" is no path).
  std::filesystem::path path;
  int descriptor = -1;  ///< kDescriptor: the descriptor written to
};

/// Follows `path`'s symbolic links one at a time (at most 40, like the kernel), each relative
/// target read against the folder of the link that holds it, up to the first name that is not a
/// link: a missing name (a new file, also a dangling link's target) or a regular file is
/// kReplaceFile, a FIFO or device kStream; a link into /proc (/dev/stdout, /dev/fd/N, process
/// substitution) is this process's descriptor, or kStream for another process's. Throws
/// OutputError naming `path` when the folder of the end is missing, the end is a directory or
/// a socket, the chain loops, or a descriptor is not open.
OutputTarget ResolveOutput(const std::filesystem::path& path);

/// Before a long run: throws OutputError when `destination` ("" = none, "-" = standard output)
/// cannot be written: ResolveOutput fails, the folder of a file to replace is not writable, or
/// the file itself is not (access(2) with the effective ids), or it has no write permission bit
/// at all (read-only for everyone: refused even as root, who passes access(2); the write itself
/// refuses it again). Opens nothing: a FIFO would block until its reader came.
void CheckOutputWritable(const std::string& destination);

/// Whether paths `a` and `b` lead to the same file once their links are followed: the same
/// device and inode when both exist (character devices, such as /dev/null, are never the same:
/// they are written to, not replaced), else the same canonical folder and name. "" and "-" are
/// no file; a path that cannot be resolved is the same as nothing.
bool SameFile(const std::string& a, const std::string& b);

/// Writes `content` as the whole document at `destination`:
/// - "-": to `standard_output`, flushed;
/// - kReplaceFile: refused when the file exists and the caller may not write it (the folder's
///   permission alone would let the rename replace it); else a temporary file in its folder,
///   written, fsynced, given the mode of the file it replaces (new files: 0666 less the umask),
///   renamed over the target, and the folder fsynced: a reader sees the old document or the new
///   one, never a part, and an open descriptor of the old file still reads the old content; links
///   stay links;
/// - kStream, kDescriptor: written directly as it goes (a reader of a FIFO streams it; a
///   regular file behind another process's descriptor is truncated first).
/// SIGPIPE is blocked in the calling thread while writing: a reader that went away is an EPIPE
/// error, not a silent death. Throws OutputError naming `destination` (and the link's target),
/// the step and the errno text; on failure no temporary file is left and a replaced file keeps
/// its old content.
void WriteOutput(const std::string& destination, std::string_view content,
                 std::ostream& standard_output);

}  // namespace refract::results
