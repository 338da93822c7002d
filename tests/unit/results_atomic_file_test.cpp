#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "base/error.h"
#include "results/atomic_file.h"

namespace refract::results {
namespace {

namespace fs = std::filesystem;

class ResultsAtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    directory_ = fs::temp_directory_path() /
                 ("refract-atomic-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override {
    fs::permissions(directory_, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(directory_);
  }

  static std::string Read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
  }

  // Every entry of the test directory, by name.
  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  static std::string ErrorOf(const fs::path& path) {
    try {
      WriteFileAtomically(path, "content");
    } catch (const Error& error) {
      return error.what();
    }
    return "(no error)";
  }

  fs::path directory_;
};

TEST_F(ResultsAtomicFile, ReplacesTheTargetWhole) {
  const fs::path target = directory_ / "run.json";
  WriteFileAtomically(target, "a much longer first version of the file\n");
  WriteFileAtomically(target, "short\n");
  EXPECT_EQ(Read(target), "short\n");
  EXPECT_EQ(Entries(), std::vector<std::string>{"run.json"});  // no temporary left
}

TEST_F(ResultsAtomicFile, PathThatIsADirectoryFailsAndLeavesNoTemp) {
  const fs::path target = directory_ / "taken";
  fs::create_directory(target);
  const std::string message = ErrorOf(target);
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find("directory"), std::string::npos) << message;  // errno text
  EXPECT_EQ(Entries(), std::vector<std::string>{"taken"});
}

TEST_F(ResultsAtomicFile, MissingDirectoryFailsNamingThePath) {
  const fs::path target = directory_ / "absent" / "run.json";
  const std::string message = ErrorOf(target);
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
  EXPECT_TRUE(Entries().empty());
}

TEST_F(ResultsAtomicFile, UnwritableDirectoryFailsAndKeepsTheOldFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  const fs::path target = directory_ / "run.json";
  WriteFileAtomically(target, "old");
  fs::permissions(directory_,
                  fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  const std::string message = ErrorOf(target);
  fs::permissions(directory_, fs::perms::owner_all, fs::perm_options::add);
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
  EXPECT_EQ(Read(target), "old");
  EXPECT_EQ(Entries(), std::vector<std::string>{"run.json"});
}

TEST_F(ResultsAtomicFile, DashWritesToTheStream) {
  std::ostringstream out;
  WriteOutput("-", "{\"a\": 1}\n", out);
  EXPECT_EQ(out.str(), "{\"a\": 1}\n");
  EXPECT_TRUE(Entries().empty());
}

TEST_F(ResultsAtomicFile, OutputPathWritesTheFileNotTheStream) {
  std::ostringstream out;
  const fs::path target = directory_ / "out.json";
  WriteOutput(target.string(), "data", out);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(Read(target), "data");
}

TEST_F(ResultsAtomicFile, FailingStreamThrows) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_THROW(WriteOutput("-", "data", out), Error);
}

}  // namespace
}  // namespace refract::results
