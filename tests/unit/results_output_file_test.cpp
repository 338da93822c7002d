// results::WriteOutput on every kind of path a user may give --json: files, links, pipes,
// devices, descriptors; and every write error named. The tests hold as root too.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include "base/error.h"
#include "results/output_file.h"
#include "testing/scratch_folder.h"

namespace refract::results {
namespace {

namespace fs = std::filesystem;

class ResultsOutputFile : public ::testing::Test {
 protected:
  static std::string Read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
  }

  static void Write(const fs::path& path, const std::string& content) {
    std::ofstream(path, std::ios::binary) << content;
  }

  // Every entry of `folder` (default: the test's folder), by name.
  std::vector<std::string> Entries(const fs::path& folder = {}) const {
    return testing::EntryNames(folder.empty() ? directory_ : folder);
  }

  // WriteOutput's OutputError message, or "(no error)".
  static std::string ErrorOf(const std::string& destination,
                             const std::string& content = "content") {
    std::ostringstream unused;
    try {
      WriteOutput(destination, content, unused);
    } catch (const OutputError& error) {
      return error.what();
    }
    return "(no error)";
  }

  // CheckOutputWritable's OutputError message, or "(no error)".
  static std::string CheckErrorOf(const std::string& destination) {
    try {
      CheckOutputWritable(destination);
    } catch (const OutputError& error) {
      return error.what();
    }
    return "(no error)";
  }

  static ino_t Inode(const fs::path& path) {
    struct stat status {};
    EXPECT_EQ(::stat(path.c_str(), &status), 0) << path;
    return status.st_ino;
  }

  static bool IsLink(const fs::path& path) { return fs::is_symlink(fs::symlink_status(path)); }

  testing::ScratchFolder scratch_{"output"};
  const fs::path& directory_ = scratch_.path();
  std::ostringstream out_;
};

#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "'" << (text) << "'"

TEST_F(ResultsOutputFile, ReplacesARegularFileWholeAndLeavesNoTemporary) {
  const fs::path target = directory_ / "run.json";
  WriteOutput(target, "a much longer first version of the file\n", out_);
  WriteOutput(target, "short\n", out_);
  EXPECT_EQ(Read(target), "short\n");
  EXPECT_EQ(Entries(), std::vector<std::string>{"run.json"});
  EXPECT_EQ(out_.str(), "");
}

TEST_F(ResultsOutputFile, NeverTruncatesTheTargetInPlace) {
  // Root passes every permission check, so this proves atomicity without one: a reader that
  // holds the old file open still reads all of it, and the name points at a new inode.
  const fs::path target = directory_ / "run.json";
  Write(target, "the old document\n");
  const ino_t old_inode = Inode(target);
  const int reader = ::open(target.c_str(), O_RDONLY);
  ASSERT_GE(reader, 0);
  WriteOutput(target, "new\n", out_);
  char buffer[64] = {};
  const ssize_t got = ::pread(reader, buffer, sizeof(buffer), 0);
  ::close(reader);
  EXPECT_EQ(std::string(buffer, static_cast<size_t>(std::max<ssize_t>(got, 0))),
            "the old document\n");
  EXPECT_NE(Inode(target), old_inode);
  EXPECT_EQ(Read(target), "new\n");
}

TEST_F(ResultsOutputFile, KeepsTheModeOfTheFileItReplaces) {
  const fs::path target = directory_ / "run.json";
  Write(target, "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  WriteOutput(target, "new", out_);
  EXPECT_EQ(fs::status(target).permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(ResultsOutputFile, WritesThroughALinkAndKeepsTheLink) {
  const fs::path target = directory_ / "run-7.json";
  const fs::path link = directory_ / "latest.json";
  Write(target, "old");
  fs::create_symlink("run-7.json", link);
  WriteOutput(link, "new", out_);
  EXPECT_TRUE(IsLink(link));
  EXPECT_EQ(fs::read_symlink(link), "run-7.json");
  EXPECT_EQ(Read(target), "new");
  EXPECT_EQ(Entries(), (std::vector<std::string>{"latest.json", "run-7.json"}));
}

TEST_F(ResultsOutputFile, FollowsAChainOfRelativeLinksAcrossFolders) {
  // a/latest → ../b/current → runs/7.json (relative to b): the temporary file is made beside
  // the final target, so the rename stays within one folder, and no link is touched.
  fs::create_directories(directory_ / "a");
  fs::create_directories(directory_ / "b" / "runs");
  fs::create_symlink("../b/current", directory_ / "a" / "latest");
  fs::create_symlink("runs/7.json", directory_ / "b" / "current");
  Write(directory_ / "b" / "runs" / "7.json", "old");
  WriteOutput((directory_ / "a" / "latest").string(), "new", out_);
  EXPECT_EQ(Read(directory_ / "b" / "runs" / "7.json"), "new");
  EXPECT_TRUE(IsLink(directory_ / "a" / "latest"));
  EXPECT_TRUE(IsLink(directory_ / "b" / "current"));
  EXPECT_EQ(Entries(directory_ / "a"), std::vector<std::string>{"latest"});
  EXPECT_EQ(Entries(directory_ / "b"), (std::vector<std::string>{"current", "runs"}));
  EXPECT_EQ(Entries(directory_ / "b" / "runs"), std::vector<std::string>{"7.json"});
}

TEST_F(ResultsOutputFile, DanglingLinkGetsItsTargetCreated) {
  fs::create_symlink("new-run.json", directory_ / "latest.json");
  WriteOutput((directory_ / "latest.json").string(), "data", out_);
  EXPECT_TRUE(IsLink(directory_ / "latest.json"));
  EXPECT_EQ(Read(directory_ / "new-run.json"), "data");
}

TEST_F(ResultsOutputFile, DanglingLinkIntoAMissingFolderFailsNamingBoth) {
  const fs::path link = directory_ / "latest.json";
  fs::create_symlink("absent/run.json", link);
  const std::string message = ErrorOf(link);
  EXPECT_CONTAINS(message, link.string());
  EXPECT_CONTAINS(message, "absent/run.json");
  EXPECT_CONTAINS(message, "No such file or directory");
  EXPECT_TRUE(IsLink(link));
}

TEST_F(ResultsOutputFile, LinkLoopFailsNamingThePath) {
  fs::create_symlink("b", directory_ / "a");
  fs::create_symlink("a", directory_ / "b");
  const std::string message = ErrorOf(directory_ / "a");
  EXPECT_CONTAINS(message, (directory_ / "a").string());
  EXPECT_CONTAINS(message, "Too many levels of symbolic links");
}

TEST_F(ResultsOutputFile, FifoIsStreamedToItsReaderNotReplaced) {
  const fs::path fifo = directory_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string content(200000, 'x');  // larger than a pipe's buffer: it must stream
  std::string received;
  std::thread reader([&] { received = Read(fifo); });
  WriteOutput(fifo, content, out_);
  reader.join();
  EXPECT_EQ(received, content);
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  EXPECT_EQ(Entries(), std::vector<std::string>{"pipe"});
}

TEST_F(ResultsOutputFile, FifoWhoseReaderLeftIsAnErrorNotADeath) {
  // The reader takes one byte and leaves; 1 MiB cannot fit in the pipe, so the write must meet
  // the closed end: EPIPE, reported (SIGPIPE would have ended this test binary).
  const fs::path fifo = directory_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char byte;
    if (fd >= 0) {
      (void)!::read(fd, &byte, 1);
      ::close(fd);
    }
  });
  const std::string message = ErrorOf(fifo, std::string(1 << 20, 'x'));
  reader.join();
  EXPECT_CONTAINS(message, fifo.string());
  EXPECT_CONTAINS(message, "Broken pipe");
}

TEST_F(ResultsOutputFile, ProcessSubstitutionDescriptorIsWrittenTo) {
  // `--json >(jq .)` hands refract /dev/fd/N, a pipe; /proc/self/fd/N and a link to either
  // are the same descriptor.
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/", "link"}) {
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    std::string destination = "/dev/fd/" + std::to_string(ends[1]);
    if (prefix == "link") {
      fs::create_symlink(destination, directory_ / "to-fd");
      destination = (directory_ / "to-fd").string();
    } else {
      destination = prefix + std::to_string(ends[1]);
    }
    WriteOutput(destination, "{\"a\": 1}\n", out_);
    ::close(ends[1]);
    char buffer[64] = {};
    const ssize_t got = ::read(ends[0], buffer, sizeof(buffer));
    ::close(ends[0]);
    EXPECT_EQ(std::string(buffer, static_cast<size_t>(std::max<ssize_t>(got, 0))), "{\"a\": 1}\n")
        << destination;
  }
}

TEST_F(ResultsOutputFile, DescriptorWhoseReaderLeftIsBrokenPipe) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  ::close(ends[0]);
  const std::string destination = "/dev/fd/" + std::to_string(ends[1]);
  const std::string message = ErrorOf(destination);
  ::close(ends[1]);
  EXPECT_CONTAINS(message, destination);
  EXPECT_CONTAINS(message, "Broken pipe");
}

TEST_F(ResultsOutputFile, DescriptorThatIsNotOpenFails) {
  const std::string message = ErrorOf("/dev/fd/987");
  EXPECT_CONTAINS(message, "/dev/fd/987");
  EXPECT_CONTAINS(message, "Bad file descriptor");
}

TEST_F(ResultsOutputFile, InputOutputErrorIsNamed) {
  // A terminal whose other side closed answers every write with EIO.
  int controller = -1, terminal = -1;
  if (::openpty(&controller, &terminal, nullptr, nullptr, nullptr) != 0) {
    GTEST_SKIP() << "no pseudo-terminals here (/dev/ptmx): " << std::strerror(errno);
  }
  ::close(controller);
  const std::string destination = "/dev/fd/" + std::to_string(terminal);
  const std::string message = ErrorOf(destination);
  ::close(terminal);
  EXPECT_CONTAINS(message, destination);
  EXPECT_CONTAINS(message, "Input/output error");
}

TEST_F(ResultsOutputFile, FullDeviceReportsNoSpaceAndStaysADevice) {
  // As root, a rename over /dev/full once replaced the device node and reported success.
  fs::create_symlink("/dev/full", directory_ / "full");
  for (const std::string& destination :
       {std::string("/dev/full"), (directory_ / "full").string()}) {
    const std::string message = ErrorOf(destination);
    EXPECT_CONTAINS(message, destination);
    EXPECT_CONTAINS(message, "No space left on device");
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/full")));
  }
  EXPECT_TRUE(IsLink(directory_ / "full"));
}

TEST_F(ResultsOutputFile, CharacterDeviceIsWrittenNotReplaced) {
  WriteOutput("/dev/null", "discarded", out_);
  EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/null")));
}

TEST_F(ResultsOutputFile, FolderAsTargetFailsAndLeavesNoTemporary) {
  const fs::path target = directory_ / "taken";
  fs::create_directory(target);
  const std::string message = ErrorOf(target);
  EXPECT_CONTAINS(message, target.string());
  EXPECT_CONTAINS(message, "Is a directory");
  EXPECT_EQ(Entries(), std::vector<std::string>{"taken"});
}

TEST_F(ResultsOutputFile, MissingFolderFailsNamingThePath) {
  const fs::path target = directory_ / "absent" / "run.json";
  const std::string message = ErrorOf(target);
  EXPECT_CONTAINS(message, target.string());
  EXPECT_CONTAINS(message, "No such file or directory");
  EXPECT_TRUE(Entries().empty());
}

// What `attempt` returns, computed as an unprivileged user: root writes into read-only folders,
// so as root `attempt` runs in a child process that has dropped to uid and gid 65534 (nobody).
std::string AsUnprivilegedUser(const std::function<std::string()>& attempt) {
  if (::geteuid() != 0) return attempt();
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0) return std::string("pipe: ") + std::strerror(errno);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe_ends[0]);
    std::string answer = ::setgid(65534) == 0 && ::setuid(65534) == 0
                             ? attempt()
                             : std::string("cannot drop to nobody: ") + std::strerror(errno);
    const bool written =
        ::write(pipe_ends[1], answer.data(), answer.size()) == static_cast<ssize_t>(answer.size());
    ::_exit(written ? 0 : 1);
  }
  ::close(pipe_ends[1]);
  std::string answer;
  char chunk[512];
  for (ssize_t got; (got = ::read(pipe_ends[0], chunk, sizeof chunk)) > 0;)
    answer.append(chunk, got);
  ::close(pipe_ends[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return answer;
}

TEST_F(ResultsOutputFile, UnwritableFolderFailsAndKeepsTheOldFile) {
  const fs::path target = directory_ / "run.json";
  Write(target, "old");
  fs::permissions(directory_,
                  fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  const std::string message = AsUnprivilegedUser([&] { return ErrorOf(target); });
  const std::string check = AsUnprivilegedUser([&] { return CheckErrorOf(target); });
  fs::permissions(directory_, fs::perms::owner_all, fs::perm_options::add);
  EXPECT_CONTAINS(message, target.string());
  EXPECT_CONTAINS(message, "Permission denied");
  EXPECT_CONTAINS(check, "Permission denied");
  EXPECT_EQ(Read(target), "old");
  EXPECT_EQ(Entries(), std::vector<std::string>{"run.json"});
}

TEST_F(ResultsOutputFile, ReadOnlyFileInAWritableFolderIsRefusedAndKept) {
  // The folder lets anyone rename over the file; the file itself (mode 444, root's when the
  // test runs as root) is not the caller's to write: cp would refuse, so does refract.
  const fs::path target = directory_ / "ro.json";
  Write(target, "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(directory_, fs::perms::all);
  const std::string message = AsUnprivilegedUser([&] { return ErrorOf(target); });
  const std::string check = AsUnprivilegedUser([&] { return CheckErrorOf(target); });
  fs::permissions(directory_, fs::perms::owner_all);
  EXPECT_CONTAINS(message, target.string());
  EXPECT_CONTAINS(message, "Permission denied");
  EXPECT_CONTAINS(check, "Permission denied");
  EXPECT_EQ(Read(target), "old");
  EXPECT_EQ(fs::status(target).permissions(),
            fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  EXPECT_EQ(Entries(), std::vector<std::string>{"ro.json"});
}

// Root passes every access check; a file without a write permission bit is still kept.
TEST_F(ResultsOutputFile, AFileWithoutWriteBitsIsKeptWhoeverRuns) {
  const fs::path target = directory_ / "ro.json";
  Write(target, "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string message = ErrorOf(target.string());  // as whoever runs: root on CI
  const std::string check = CheckErrorOf(target.string());
  for (const std::string& text : {message, check}) {
    EXPECT_CONTAINS(text, target.string());
    EXPECT_CONTAINS(text, "read-only (mode 0444)");
  }
  EXPECT_EQ(Read(target), "old");
  EXPECT_EQ(Entries(), std::vector<std::string>{"ro.json"});
  // A write bit for anyone is enough to replace it (the access check then decides).
  fs::permissions(target, fs::perms::owner_write, fs::perm_options::add);
  EXPECT_EQ(ErrorOf(target.string()), "(no error)");
  EXPECT_EQ(Read(target), "content");
}

TEST_F(ResultsOutputFile, DashWritesToTheStream) {
  WriteOutput("-", "{\"a\": 1}\n", out_);
  EXPECT_EQ(out_.str(), "{\"a\": 1}\n");
  EXPECT_TRUE(Entries().empty());
}

TEST_F(ResultsOutputFile, FailingStandardOutputIsAnOutputError) {
  out_.setstate(std::ios::badbit);
  EXPECT_THROW(WriteOutput("-", "data", out_), OutputError);
}

TEST_F(ResultsOutputFile, OutputErrorsAreEnvironmentErrors) {
  // The CLI maps EnvironmentError to exit code 2.
  EXPECT_THROW(WriteOutput((directory_ / "absent" / "x").string(), "data", out_), EnvironmentError);
}

TEST_F(ResultsOutputFile, CheckBeforeARunNamesAMissingFolderAndNeverBlocksOnAFifo) {
  EXPECT_NO_THROW(CheckOutputWritable(""));
  EXPECT_NO_THROW(CheckOutputWritable("-"));
  EXPECT_NO_THROW(CheckOutputWritable((directory_ / "new.json").string()));
  EXPECT_THROW(CheckOutputWritable((directory_ / "absent" / "x.json").string()), OutputError);
  const fs::path fifo = directory_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NO_THROW(CheckOutputWritable(fifo.string()));  // no reader: opening would block
  EXPECT_EQ(ResolveOutput(fifo).kind, OutputKind::kStream);
}

TEST_F(ResultsOutputFile, ResolveNamesTheEndOfTheChain) {
  fs::create_symlink("b", directory_ / "a");
  fs::create_symlink("c.json", directory_ / "b");
  const OutputTarget target = ResolveOutput(directory_ / "a");
  EXPECT_EQ(target.kind, OutputKind::kReplaceFile);
  EXPECT_EQ(target.path, directory_ / "c.json");
  EXPECT_EQ(ResolveOutput("/dev/stdout").kind, OutputKind::kDescriptor);
  EXPECT_EQ(ResolveOutput("/dev/stdout").descriptor, 1);
}

}  // namespace
}  // namespace refract::results
