// The sweep journal: what a resumed run finds after a cut at every point of a line, a journal of
// another run refused, a corrupt line named, a dead worker's configuration found.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "results/json_io.h"
#include "testing/scratch_folder.h"
#include "tune/sweep_journal.h"

namespace refract::tune {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const json kIdentity = {{"sweeps", "reduction"}, {"quick", true}, {"seed", 7}};

results::ResultRow Row(const std::string& id, double median_ms) {
  results::ResultRow row{.id = id, .category = "reduction/sum", .status = results::RowStatus::kOk};
  row.times_ms = {median_ms, median_ms, median_ms};
  row.stats = {.count = 3,
               .min = median_ms,
               .mean = median_ms,
               .median = median_ms,
               .stddev = 0,
               .ci95 = 0,
               .p10 = median_ms,
               .p90 = median_ms};
  row.statistic = "median";
  row.stop_reason = "sample-count";
  row.metric_value = 1 / median_ms;
  row.unit = "B/s";
  row.timing_method = "gpu-timestamp";
  row.work_per_dispatch = 1;
  row.dispatches_per_sample = 1;
  return row;
}

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteAll(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

/// A journal with a device, two finished rows and a begun third.
std::string ThreeEntries(const fs::path& path) {
  SweepJournal journal = SweepJournal::Create(path.string(), kIdentity);
  journal.AppendBegin("a");
  journal.AppendRow(Row("a", 1.0), "reduction", 2.5);
  journal.AppendBegin("b");
  journal.AppendRow(Row("b", 2.0), "reduction", 1.5);
  journal.AppendBegin("c");
  return ReadAll(path);
}

TEST(SweepJournal, ResumeReadsBackRowsTimesAndTheUnfinishedConfiguration) {
  testing::ScratchFolder folder("journal");
  const fs::path path = folder.path() / "sweep.journal";
  ThreeEntries(path);
  SweepJournal journal = SweepJournal::Resume(path.string(), kIdentity);
  ASSERT_EQ(journal.rows().size(), 2u);
  // Field by field through the layout (a row's NaN fields compare unequal as records).
  EXPECT_EQ(results::ToJson(journal.rows().at("a")), results::ToJson(Row("a", 1.0)));
  EXPECT_EQ(results::ToJson(journal.rows().at("b")), results::ToJson(Row("b", 2.0)));
  EXPECT_DOUBLE_EQ(journal.SecondsOf("reduction"), 4.0);
  EXPECT_DOUBLE_EQ(journal.SecondsOf("bandwidth"), 0.0);
  ASSERT_TRUE(journal.unfinished());
  EXPECT_EQ(*journal.unfinished(), "c");
  journal.AppendRow(Row("c", 3.0), "reduction", 1.0);  // it appends where it stopped
  const SweepJournal again = SweepJournal::Read(path.string(), kIdentity);
  EXPECT_EQ(again.rows().size(), 3u);
  EXPECT_FALSE(again.unfinished());
}

// A process killed while writing leaves any prefix of its last line: at every cut the whole lines
// before it read back, the torn rest is cut off the file, and appending goes on cleanly.
TEST(SweepJournal, ACutAtEveryPointOfTheLastLineLosesOnlyThatLine) {
  testing::ScratchFolder folder("journal");
  const fs::path path = folder.path() / "sweep.journal";
  const std::string whole = ThreeEntries(path);
  const size_t last_line = whole.rfind('\n', whole.size() - 2) + 1;  // where "begin c" starts
  const size_t second_row = whole.rfind("{\"row\"");
  for (size_t cut = second_row + 1; cut < whole.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut) + " of " + std::to_string(whole.size()));
    WriteAll(path, whole.substr(0, cut));
    SweepJournal journal = SweepJournal::Resume(path.string(), kIdentity);
    const bool row_b_whole = cut >= last_line;
    EXPECT_EQ(journal.rows().size(), row_b_whole ? 2u : 1u);
    EXPECT_EQ(journal.unfinished().value_or(""), row_b_whole ? "" : "b");
    EXPECT_EQ(ReadAll(path), whole.substr(0, row_b_whole ? last_line : second_row));
    journal.AppendRow(Row("z", 4.0), "reduction", 1.0);
    EXPECT_EQ(SweepJournal::Read(path.string(), kIdentity).rows().count("z"), 1u);
  }
}

TEST(SweepJournal, AJournalOfAnotherRunIsRefusedNamingTheDifference) {
  testing::ScratchFolder folder("journal");
  const fs::path path = folder.path() / "sweep.journal";
  ThreeEntries(path);
  json other = kIdentity;
  other["seed"] = 8;
  try {
    SweepJournal::Resume(path.string(), other);
    FAIL() << "resumed another run's journal";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("seed 7 in the journal, 8 now"), std::string::npos)
        << error.what();
  }
}

TEST(SweepJournal, CreateRefusesAnExistingJournalAndResumeAMissingOne) {
  testing::ScratchFolder folder("journal");
  const fs::path path = folder.path() / "sweep.journal";
  EXPECT_THROW(SweepJournal::Resume(path.string(), kIdentity), UsageError);
  ThreeEntries(path);
  const std::string before = ReadAll(path);
  EXPECT_THROW(SweepJournal::Create(path.string(), kIdentity), UsageError);
  EXPECT_EQ(ReadAll(path), before);  // kept whole
}

TEST(SweepJournal, ACorruptLineInTheMiddleIsAnErrorNamingIt) {
  testing::ScratchFolder folder("journal");
  const fs::path path = folder.path() / "sweep.journal";
  std::string text = ThreeEntries(path);
  const size_t second_line = text.find('\n') + 1;
  text.insert(second_line, "not json\n");
  WriteAll(path, text);
  try {
    SweepJournal::Resume(path.string(), kIdentity);
    FAIL() << "read a corrupt journal";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("line 2 is not JSON"), std::string::npos)
        << error.what();
  }
  WriteAll(path, "{\"something\": 1}\n");
  EXPECT_THROW(SweepJournal::Resume(path.string(), kIdentity), UsageError);
  // A row whose figures mean nothing is refused as any document's would be.
  WriteAll(path, ThreeEntries(folder.path() / "other.journal"));
  std::string bad = ReadAll(path);
  const size_t times = bad.find("\"times_ms\":[1.0,1.0,1.0]");
  ASSERT_NE(times, std::string::npos);
  bad.replace(times, 24, "\"times_ms\":[1.0,-1.0,1.0]");
  WriteAll(path, bad);
  EXPECT_THROW(SweepJournal::Resume(path.string(), kIdentity), Error);
}

}  // namespace
}  // namespace refract::tune
