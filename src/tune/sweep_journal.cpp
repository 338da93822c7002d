#include "tune/sweep_journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/error.h"
#include "profile/document_text.h"
#include "results/json_io.h"
#include "results/record_checks.h"

namespace refract::tune {
namespace {

using nlohmann::json;

std::string ReadWhole(const std::string& path) {
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) {
    throw UsageError("no sweep journal at " + path + " to resume");
  }
  profile::document::FileText file = profile::document::ReadFile(path);
  if (!file.problem.empty()) throw UsageError("the sweep journal " + path + " " + file.problem);
  return std::move(file.text);
}

/// The first key whose value differs between the two identities, as "key: a here, b there".
std::string Difference(const json& journal, const json& run) {
  for (const auto& [key, value] : run.items()) {
    if (!journal.contains(key)) return key + " is not in the journal";
    if (journal[key] != value) {
      return key + " " + journal[key].dump() + " in the journal, " + value.dump() + " now";
    }
  }
  for (const auto& [key, value] : journal.items()) {
    if (!run.contains(key)) return key + " " + value.dump() + " in the journal only";
  }
  return "";
}

}  // namespace

SweepJournal::SweepJournal(std::string path, int fd, json identity)
    : path_(std::move(path)), fd_(fd), identity_(std::move(identity)) {}

SweepJournal::SweepJournal(SweepJournal&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(other.fd_),
      identity_(std::move(other.identity_)),
      rows_(std::move(other.rows_)),
      seconds_(std::move(other.seconds_)),
      device_(std::move(other.device_)),
      unfinished_(std::move(other.unfinished_)),
      entries_(other.entries_) {
  other.fd_ = -1;
}

SweepJournal::~SweepJournal() {
  if (fd_ >= 0) ::close(fd_);
}

SweepJournal SweepJournal::Create(const std::string& path, const json& identity) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST) {
    throw UsageError("a sweep journal already exists at " + path +
                     " (a run that did not finish): --resume to go on with it, or remove it");
  }
  if (fd < 0) {
    throw OutputError("cannot create the sweep journal " + path + ": " + std::strerror(errno));
  }
  SweepJournal journal(path, fd, identity);
  journal.Append({{"refract_sweep_journal", kJournalVersion}, {"identity", identity}});
  return journal;
}

SweepJournal SweepJournal::Read(const std::string& path, const json& identity) {
  SweepJournal journal(path, -1, identity);
  journal.Parse(ReadWhole(path));
  return journal;
}

SweepJournal SweepJournal::Resume(const std::string& path, const json& identity) {
  SweepJournal journal(path, -1, identity);
  const std::string text = ReadWhole(path);
  const uint64_t whole = journal.Parse(text);
  if (whole < text.size() && ::truncate(path.c_str(), static_cast<off_t>(whole)) != 0) {
    throw OutputError("cannot cut the torn last line off the sweep journal " + path + ": " +
                      std::strerror(errno));
  }
  journal.fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (journal.fd_ < 0) {
    throw OutputError("cannot append to the sweep journal " + path + ": " + std::strerror(errno));
  }
  return journal;
}

void SweepJournal::Reload() { Parse(ReadWhole(path_)); }

uint64_t SweepJournal::Parse(const std::string& text) {
  rows_.clear();
  seconds_.clear();
  device_.reset();
  unfinished_.reset();
  entries_ = 0;
  size_t start = 0;
  size_t line_number = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // torn: the writer died inside this line
    ++line_number;
    const std::string where = path_ + " line " + std::to_string(line_number);
    json entry;
    try {
      entry = json::parse(text.substr(start, end - start));
    } catch (const json::exception& error) {
      throw Error("the sweep journal " + where + " is not JSON: " + error.what());
    }
    start = end + 1;
    try {
      Take(entry, line_number == 1, where);
    } catch (const json::exception& error) {
      throw Error("the sweep journal " + where +
                  " holds an entry of the wrong shape: " + error.what());
    }
  }
  if (line_number == 0) throw UsageError(path_ + " is not a refract sweep journal (empty)");
  return start;
}

void SweepJournal::Take(const json& entry, bool header, const std::string& where) {
  if (header) {
    if (!entry.is_object() || !entry.contains("identity") ||
        entry.value("refract_sweep_journal", 0) != kJournalVersion) {
      throw UsageError(path_ + " is not a refract sweep journal (version " +
                       std::to_string(kJournalVersion) + ")");
    }
    if (const std::string difference = Difference(entry["identity"], identity_);
        !difference.empty()) {
      throw UsageError("the sweep journal " + path_ + " is of another run (" + difference +
                       "): run the same sweep to resume it, or remove it");
    }
    return;
  }
  ++entries_;
  if (entry.contains("begin")) {
    unfinished_ = entry.at("begin").get<std::string>();
  } else if (entry.contains("row")) {
    results::ResultRow row = results::ResultRowFromJson(entry.at("row"), where + " row");
    results::CheckRowMeaning(row, where + " row");
    if (unfinished_ == row.id) unfinished_.reset();
    seconds_[entry.at("sweep").get<std::string>()] += entry.at("seconds").get<double>();
    rows_[row.id] = std::move(row);
  } else if (entry.contains("device")) {
    device_ = results::DeviceDescriptionFromJson(entry.at("device"));
  } else {
    throw Error("the sweep journal " + where + " holds no entry a journal has");
  }
}

double SweepJournal::SecondsOf(const std::string& sweep) const {
  auto found = seconds_.find(sweep);
  return found == seconds_.end() ? 0 : found->second;
}

void SweepJournal::Append(const json& entry) {
  REFRACT_THROW_IF(fd_ < 0, Error, "the sweep journal " + path_ + " is open only to read");
  const std::string line = entry.dump() + "\n";
  size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw OutputError("cannot append to the sweep journal " + path_ + ": " +
                        std::strerror(errno));
    }
    written += static_cast<size_t>(n);
  }
}

void SweepJournal::AppendDevice(const DeviceDescription& device) {
  Append({{"device", results::ToJson(device)}});
  device_ = device;
  ++entries_;
}

void SweepJournal::AppendBegin(const std::string& id) {
  Append({{"begin", id}});
  unfinished_ = id;
  ++entries_;
}

void SweepJournal::AppendRow(const results::ResultRow& row, const std::string& sweep,
                             double seconds) {
  Append({{"row", results::ToJson(row)}, {"sweep", sweep}, {"seconds", seconds}});
  if (unfinished_ == row.id) unfinished_.reset();
  seconds_[sweep] += seconds;
  rows_[row.id] = row;
  ++entries_;
}

}  // namespace refract::tune
