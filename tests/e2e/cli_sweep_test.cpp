// `refract sweep` as a user runs it, on the smallest sweep (the quick sum: 4 configurations and
// the built-in default, 3 samples each): the document, the verification gate against a planted
// wrong kernel, an interrupted or killed run resumed to the same winners, a crashing worker, a
// budget that cuts the grid, and the journal's guards. Verdicts do not depend on the machine's
// speed: a planted slowdown makes the winner certain where a test compares winners.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testing/child_process.h"
#include "testing/planted_kernel.h"
#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ChildProcess;
using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
constexpr size_t kConfigurations = 5;  // wg 64, 256 × items 1, 8, and the default
const std::string kFastest = "reduction/sum-1m/items=8:subgroups=0:wg=64";

std::vector<std::string> SumSweep(const fs::path& folder, const std::string& json_name,
                                  std::vector<std::string> more = {}) {
  std::vector<std::string> argv = {kRefract,
                                   "sweep",
                                   "--sweep",
                                   "reduction",
                                   "--quick",
                                   "--samples",
                                   "3",
                                   "--seed",
                                   "5",
                                   "--journal",
                                   (folder / "sweep.journal").string(),
                                   "--json",
                                   (folder / json_name).string()};
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

std::string Shell(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& arg : argv) line += "'" + arg + "' ";
  return line;
}

json Read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());  // throws when cut short
}

std::map<std::string, json> RowsOf(const json& document) {
  std::map<std::string, json> rows;
  for (const json& row : document.at("results")) rows[row.at("id")] = row;
  return rows;
}

bool Flagged(const json& row, const std::string& flag) {
  for (const json& f : row.at("flags")) {
    if (f == flag) return true;
  }
  return false;
}

std::set<std::string> Winners(const json& document) {
  std::set<std::string> ids;
  for (const json& row : document.at("results")) {
    if (Flagged(row, "winner")) ids.insert(row.at("id").get<std::string>());
  }
  return ids;
}

// Correct, but every workgroup tree runs 9 times unless WG is 64: wg = 64, items = 8 (the
// fewest trees) wins by far on any machine.
testing::PlantedKernel SlowUnlessWg64() {
  return testing::PlantedKernel(
      "sum_reduce", "  let total = workgroup_sum(sum.x + sum.y + sum.z + sum.w, lid);\n",
      "  var total = workgroup_sum(sum.x + sum.y + sum.z + sum.w, lid);\n"
      "  for (var r = 0u; r < select(8u, 0u, WG == 64u); r++) {\n"
      "    total = workgroup_sum(sum.x + sum.y + sum.z + sum.w, lid);\n"
      "  }\n");
}

TEST(CliSweepE2e, TheQuickSumIsVerifiedTimedAndItsWinnerFlagged) {
  testing::ScratchFolder folder("sweep");
  auto result = RunCommand(Shell(SumSweep(folder.path(), "sweep.json")));
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  const json document = Read(folder.path() / "sweep.json");
  EXPECT_EQ(document.at("command"), "sweep");
  EXPECT_EQ(document.at("options")
                .at("seed_default reduction")
                .get<std::string>()
                .rfind("none stated by seed 004", 0),
            0u);
  const auto rows = RowsOf(document);
  ASSERT_EQ(rows.size(), kConfigurations);
  for (const auto& [id, row] : rows) {
    EXPECT_EQ(row.at("status"), "ok") << id << ": " << row.at("message");
    EXPECT_GT(row.at("verification").at("elements").get<int>(), 1) << id;  // partials and total
    EXPECT_EQ(row.at("times_ms").size(), 3u) << id;
    EXPECT_EQ(row.at("statistic"), "median") << id;
    EXPECT_EQ(row.at("params").at("sweep"), "reduction") << id;
    EXPECT_EQ(row.at("category"), "reduction/sum-1m") << id;
  }
  EXPECT_EQ(rows.at("reduction/sum-1m/default").at("params").at("role"), "default");
  EXPECT_EQ(Winners(document).size(), 1u);
  EXPECT_EQ(document.at("summary").at("reduction: configurations"), 5);
  EXPECT_NE(result.out.find("winner  reduction/sum-1m/"), std::string::npos) << result.out;
  EXPECT_FALSE(fs::exists(folder.path() / "sweep.journal"));  // a finished run keeps none
}

// The gate: a kernel that sums only half of its items when it has more than one is faster and
// wrong; its configurations fail verification, are never timed and never win.
TEST(CliSweepE2e, APlantedWrongConfigurationIsRejectedAndNeverWins) {
  testing::ScratchFolder folder("sweep");
  const testing::PlantedKernel planted("sum_reduce", "for (var i = 0u; i < ITEMS; i++) {",
                                       "for (var i = 0u; i < max(ITEMS / 2u, 1u); i++) {");
  auto result = RunCommand(Shell(SumSweep(folder.path(), "sweep.json")));
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;  // rows failed
  const json document = Read(folder.path() / "sweep.json");
  size_t rejected = 0;
  for (const auto& [id, row] : RowsOf(document)) {
    const bool halved = row.at("params").at("items") == 8;
    if (halved) {
      ++rejected;
      EXPECT_EQ(row.at("status"), "error") << id;
      const std::string message = row.at("message");
      EXPECT_NE(message.find("disagree"), std::string::npos) << id;
      // The row says what ran (the planted file) and what its check compared.
      EXPECT_NE(row.at("params").value("replaced_kernels", "").find("sum_reduce from "),
                std::string::npos)
          << row.at("params");
      const json& checked = row.at("verification");
      ASSERT_TRUE(checked.at("mismatches").is_number()) << checked;
      EXPECT_GT(checked.at("mismatches").get<int>(), 0) << checked;
      EXPECT_GE(checked.at("elements").get<int>(), checked.at("mismatches").get<int>()) << checked;
      EXPECT_NE(message.find(std::to_string(checked.at("mismatches").get<int>()) + " of " +
                             std::to_string(checked.at("elements").get<int>()) +
                             " outputs disagree"),
                std::string::npos)
          << message << "\n" << checked;
      EXPECT_TRUE(row.at("times_ms").empty()) << id;
      EXPECT_FALSE(Flagged(row, "winner")) << id;
    } else {
      EXPECT_EQ(row.at("status"), "ok") << id;
    }
  }
  EXPECT_EQ(rejected, 2u);
  ASSERT_EQ(Winners(document).size(), 1u);
  EXPECT_EQ(RowsOf(document).at(*Winners(document).begin()).at("params").at("items"), 1);
}

// A kernel wrong for every configuration: no winner, said so at the end and in the report, exit 1.
TEST(CliSweepE2e, ASweepWhoseEveryConfigurationFailsSaysThereIsNoWinner) {
  testing::ScratchFolder folder("sweep");
  const testing::PlantedKernel planted("sum_reduce", "      sum += data[index];",
                                       "      sum += 2.0 * data[index];");
  auto result = RunCommand(
      Shell(SumSweep(folder.path(), "sweep.json", {"--html", (folder.path() / "r.html").string()})));
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("no winner  reduction/sum-1m\n      every configuration failed (5)"),
            std::string::npos)
      << result.out;
  EXPECT_TRUE(Winners(Read(folder.path() / "sweep.json")).empty());
  std::ifstream html(folder.path() / "r.html");
  std::stringstream page;
  page << html.rdbuf();
  EXPECT_NE(page.str().find("every configuration failed (5)"), std::string::npos);
}

// A run stopped part way (SIGINT: the outputs written, exit 130; SIGKILL: nothing but the
// journal) resumes with --resume, runs only what is missing, keeps what ran, and ends with the
// winners of a run never stopped.
void StopThenResume(int signal) {
  const testing::PlantedKernel planted = SlowUnlessWg64();
  testing::ScratchFolder folder("sweep");
  auto whole = RunCommand(Shell(SumSweep(folder.path(), "whole.json")));
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const std::set<std::string> expected = Winners(Read(folder.path() / "whole.json"));
  ASSERT_EQ(expected, std::set<std::string>{kFastest});

  ChildProcess stopped(SumSweep(folder.path(), "stopped.json"));
  // A line is printed as its row ends, just before the row is journaled: at "[3/5]" two are.
  ASSERT_TRUE(stopped.WaitForOutput("[3/5]")) << stopped.out() << stopped.err();
  stopped.Signal(signal);
  const int code = stopped.Wait();
  ASSERT_TRUE(fs::exists(folder.path() / "sweep.journal"));
  if (signal == SIGINT) {
    EXPECT_EQ(code, 130) << stopped.err();
    const auto rows = RowsOf(Read(folder.path() / "stopped.json"));
    size_t not_run = 0;
    for (const auto& [id, row] : rows) {
      not_run += row.at("message").get<std::string>().rfind("not run: interrupted", 0) == 0;
    }
    EXPECT_GE(not_run, 1u);
    EXPECT_EQ(rows.size(), kConfigurations);
  } else {
    EXPECT_EQ(code, 128 + SIGKILL);
  }
  std::ifstream journal(folder.path() / "sweep.journal");
  std::set<std::string> journaled;
  for (std::string line; std::getline(journal, line);) {
    const json entry = json::parse(line);
    if (entry.contains("row")) journaled.insert(entry.at("row").at("id").get<std::string>());
  }
  EXPECT_GE(journaled.size(), 2u);
  EXPECT_LT(journaled.size(), kConfigurations);

  auto resumed = RunCommand(Shell(SumSweep(folder.path(), "resumed.json", {"--resume"})));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  const json document = Read(folder.path() / "resumed.json");
  const auto rows = RowsOf(document);
  ASSERT_EQ(rows.size(), kConfigurations);
  for (const auto& [id, row] : rows) EXPECT_EQ(row.at("status"), "ok") << id;
  EXPECT_EQ(Winners(document), expected);
  // The resumed run ran only what the journal lacked.
  EXPECT_NE(resumed.out.find(std::to_string(journaled.size()) + " in the journal"),
            std::string::npos)
      << resumed.out;
  EXPECT_EQ(resumed.out.find("[1/5]"), std::string::npos) << resumed.out;
  // "best so far" weighs the journal's rows: with the fastest journaled, no resumed row is.
  if (journaled.contains(kFastest)) {
    EXPECT_EQ(resumed.out.find("best so far"), std::string::npos) << resumed.out;
  }
}

TEST(CliSweepE2e, AnInterruptedSweepResumesToTheSameWinners) { StopThenResume(SIGINT); }

TEST(CliSweepE2e, AKilledSweepResumesToTheSameWinners) { StopThenResume(SIGKILL); }

// A worker that dies (here: aborts, as a crashing driver would) costs only the configuration it
// was running; a fresh worker and device run the rest.
TEST(CliSweepE2e, AWorkerThatDiesLosesOnlyItsConfiguration) {
  testing::ScratchFolder folder("sweep");
  const std::string victim = "reduction/sum-1m/items=1:subgroups=0:wg=256";
  auto result = RunCommand("REFRACT_INJECT_SWEEP_CRASH='" + victim + "' " +
                           Shell(SumSweep(folder.path(), "sweep.json")));
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  const auto rows = RowsOf(Read(folder.path() / "sweep.json"));
  ASSERT_EQ(rows.size(), kConfigurations);
  for (const auto& [id, row] : rows) {
    if (id == victim) {
      EXPECT_EQ(row.at("status"), "error");
      EXPECT_NE(row.at("message").get<std::string>().find("the sweep worker died running this "
                                                          "configuration (signal 6"),
                std::string::npos)
          << row.at("message");
    } else {
      EXPECT_EQ(row.at("status"), "ok") << id << ": " << row.at("message");
    }
  }
  EXPECT_NE(result.out.find("starting a new one"), std::string::npos) << result.out;
}

// A lost device (injected before every worker's 30th compute pass: each worker finishes a
// configuration or so) fails the configuration it was running; a new worker and device go on.
TEST(CliSweepE2e, ALostDeviceFailsItsConfigurationAndANewDeviceRunsTheRest) {
  testing::ScratchFolder folder("sweep");
  auto result =
      RunCommand("REFRACT_INJECT_DEVICE_LOSS=30 " + Shell(SumSweep(folder.path(), "sweep.json")));
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  size_t ok = 0, lost = 0;
  const auto rows = RowsOf(Read(folder.path() / "sweep.json"));
  ASSERT_EQ(rows.size(), kConfigurations);
  for (const auto& [id, row] : rows) {
    ok += row.at("status") == "ok";
    lost += row.at("status") == "error" &&
            row.at("message").get<std::string>().find("lost") != std::string::npos;
  }
  EXPECT_GE(ok, 1u);
  EXPECT_GE(lost, 1u);
  EXPECT_EQ(ok + lost, kConfigurations);  // every configuration ran on some device
  EXPECT_NE(result.out.find("starting a new one"), std::string::npos) << result.out;
}

// A configuration that never finishes hangs its worker past --timeout-s: it is recorded as
// hung, the worker ends (the stuck kernel with it) and a new one runs the rest.
TEST(CliSweepE2e, AHungConfigurationIsRecordedAndANewDeviceRunsTheRest) {
  testing::ScratchFolder folder("sweep");
  const testing::PlantedKernel endless("sum_reduce", "  let group = wid.x + wid.y * grid.x;\n",
                                       "  let group = wid.x + wid.y * grid.x;\n"
                                       "  if (WG == 256u && ITEMS == 8u) {\n"
                                       "    loop {\n"
                                       "      partial_sums[0] += 1.0;\n"
                                       "      if (partial_sums[0] < 0.0) { break; }\n"
                                       "    }\n"
                                       "  }\n");
  auto result = RunCommand(Shell(SumSweep(folder.path(), "sweep.json", {"--timeout-s", "10"})));
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  const auto rows = RowsOf(Read(folder.path() / "sweep.json"));
  ASSERT_EQ(rows.size(), kConfigurations);
  for (const auto& [id, row] : rows) {
    if (id == "reduction/sum-1m/items=8:subgroups=0:wg=256") {
      EXPECT_EQ(row.at("status"), "error");
      EXPECT_NE(row.at("message").get<std::string>().find("did not finish within 10 s"),
                std::string::npos)
          << row.at("message");
    } else {
      EXPECT_EQ(row.at("status"), "ok") << id << ": " << row.at("message");
    }
  }
}

TEST(CliSweepE2e, ABudgetCutsTheGridAndResumeFinishesIt) {
  testing::ScratchFolder folder("sweep");
  auto cut = RunCommand(Shell(SumSweep(folder.path(), "cut.json", {"--budget", "0.0001"})));
  ASSERT_EQ(cut.exit_code, 0) << cut.out << cut.err;
  size_t ran = 0, not_run = 0;
  for (const auto& [id, row] : RowsOf(Read(folder.path() / "cut.json"))) {
    ran += row.at("status") == "ok";
    not_run += row.at("message").get<std::string>().find(
                   "not run: the sweep's budget of 0.0001 min was spent after 1 of 5") == 0;
  }
  EXPECT_EQ(ran, 1u);  // the budget is looked at before each configuration
  EXPECT_EQ(not_run, kConfigurations - 1);
  ASSERT_TRUE(fs::exists(folder.path() / "sweep.journal"));
  auto rest = RunCommand(Shell(SumSweep(folder.path(), "rest.json", {"--resume"})));
  ASSERT_EQ(rest.exit_code, 0) << rest.out << rest.err;
  for (const auto& [id, row] : RowsOf(Read(folder.path() / "rest.json"))) {
    EXPECT_EQ(row.at("status"), "ok") << id;
  }
}

TEST(CliSweepE2e, AJournalIsNeverOverwrittenNorResumedByAnotherRun) {
  testing::ScratchFolder folder("sweep");
  const fs::path journal = folder.path() / "sweep.journal";
  std::ofstream(journal) << "{\"refract_sweep_journal\": 1, \"identity\": {}}\n";
  auto fresh = RunCommand(Shell(SumSweep(folder.path(), "sweep.json")));
  EXPECT_EQ(fresh.exit_code, 2);
  EXPECT_NE(fresh.err.find("a sweep journal already exists at " + journal.string()),
            std::string::npos)
      << fresh.err;
  auto other = RunCommand(Shell(SumSweep(folder.path(), "sweep.json", {"--resume"})));
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("is of another run"), std::string::npos) << other.err;
  auto unknown = RunCommand(kRefract + " sweep --sweep warp --list");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown sweep 'warp' (choose bandwidth, reduction"),
            std::string::npos)
      << unknown.err;
  auto nothing = RunCommand(kRefract + " sweep --list");
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.err.find("name a sweep"), std::string::npos) << nothing.err;
}

// Every id `--list` prints passes back through `--filter` and picks exactly that configuration:
// no id holds the separator of --filter's globs.
TEST(CliSweepE2e, EveryListedIdPassesBackThroughFilter) {
  for (const std::string& sweep : {std::string("--sweep all"), std::string("--kernel rmsnorm")}) {
    auto listed = RunCommand(kRefract + " sweep " + sweep + " --quick --list");
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    std::istringstream lines(listed.out);
    std::vector<std::string> ids;
    for (std::string id; std::getline(lines, id);) {
      EXPECT_EQ(id.find(','), std::string::npos) << id;
      ids.push_back(id);
    }
    ASSERT_GT(ids.size(), 10u);
    for (const std::string& id : {ids.front(), ids[ids.size() / 2], ids.back()}) {
      auto one = RunCommand(kRefract + " sweep " + sweep + " --quick --list --filter '" + id + "'");
      EXPECT_EQ(one.exit_code, 0) << one.err;
      EXPECT_EQ(one.out, id + "\n");
    }
  }
}

// A store never gets worse because a run looked at less: a --filter'ed run of one slow
// configuration leaves the full grid's winner in the store (and says so) unless --replace.
TEST(CliSweepE2e, AFilteredSweepKeepsTheStoresWinnerUnlessTold) {
  const testing::PlantedKernel planted = SlowUnlessWg64();
  testing::ScratchFolder folder("sweep");
  const fs::path store = folder.path() / "profile.json";
  auto full = RunCommand(Shell(SumSweep(folder.path(), "full.json", {"--profile", store.string()})));
  ASSERT_EQ(full.exit_code, 0) << full.out << full.err;
  auto winner_of = [&] {
    return Read(store).at("profiles").at(0).at("entries").at(0).at("winner").at("row");
  };
  ASSERT_EQ(winner_of(), kFastest);
  EXPECT_EQ(Read(store).at("profiles").at(0).at("entries").at(0).at("grid").size(),
            kConfigurations);
  const std::string slow = "reduction/sum-1m/items=1:subgroups=0:wg=256";
  const std::vector<std::string> only_slow = {"--filter", slow, "--profile", store.string()};
  auto filtered = RunCommand(Shell(SumSweep(folder.path(), "filtered.json", only_slow)));
  ASSERT_EQ(filtered.exit_code, 0) << filtered.out << filtered.err;
  EXPECT_EQ(winner_of(), kFastest);
  EXPECT_NE(filtered.out.find("is kept: its winner was chosen from 5 configurations, 4 of which "
                              "the newer run did not time"),
            std::string::npos)
      << filtered.out;
  EXPECT_NE(filtered.out.find("the profile " + store.string() + " is unchanged"),
            std::string::npos)
      << filtered.out;
  std::vector<std::string> replacing = only_slow;
  replacing.push_back("--replace");
  auto replaced = RunCommand(Shell(SumSweep(folder.path(), "replaced.json", replacing)));
  ASSERT_EQ(replaced.exit_code, 0) << replaced.out << replaced.err;
  EXPECT_EQ(winner_of(), slow);
}

// Every sweep end to end, at one configuration a problem (the built-in default; bandwidth's
// smallest size): each is verified, timed and written, or skipped naming what the device lacks.
TEST(CliSweepE2e, EverySweepRunsEndToEnd) {
  testing::ScratchFolder folder("sweep");
  auto result = RunCommand(Shell({kRefract, "sweep", "--sweep", "all", "--quick", "--samples", "3",
                                  "--seed", "5", "--filter", "*/default,bandwidth/*/16KiB",
                                  "--journal", (folder.path() / "sweep.journal").string(), "--json",
                                  (folder.path() / "sweep.json").string()}));
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  std::set<std::string> sweeps;
  for (const auto& [id, row] : RowsOf(Read(folder.path() / "sweep.json"))) {
    sweeps.insert(row.at("params").at("sweep").get<std::string>());
    if (row.at("status") == "skipped") {
      EXPECT_NE(row.at("message").get<std::string>().find("needs"), std::string::npos) << id;
      continue;
    }
    EXPECT_EQ(row.at("status"), "ok") << id << ": " << row.at("message");
    EXPECT_GT(row.at("verification").at("elements").get<int>(), 0) << id;
    EXPECT_EQ(row.at("times_ms").size(), 3u) << id;
  }
  EXPECT_EQ(sweeps, (std::set<std::string>{"bandwidth", "reduction", "q4-gemv", "q2-scan",
                                           "matmul-f32", "subgroups", "f16"}));
}

// A glob that matches no configuration of the chosen sweeps is a usage error naming it, even
// when another glob matches (a typo must not silently shrink the run).
TEST(CliSweepE2e, AFilterGlobThatMatchesNothingIsAUsageErrorNamingIt) {
  auto result = RunCommand(kRefract +
                           " sweep --sweep reduction --quick --list --filter "
                           "'*/default,*/wg=9999'");
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_NE(result.err.find("--filter '*/wg=9999' matches no configuration"), std::string::npos)
      << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
  result = RunCommand(kRefract + " sweep --sweep reduction --quick --list --filter '*/default'");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("/default"), std::string::npos) << result.out;
}

// --pass-ms reaches the worker: the built-in default (about 20 ms a dispatch on lavapipe, a few
// µs on a GPU) fills a 300 ms pass with more dispatches than a 2 ms one (one, on lavapipe).
TEST(CliSweepE2e, ThePassLengthSetsTheDispatchesASample) {
  testing::ScratchFolder folder("sweep");
  std::map<std::string, uint64_t> dispatches;
  for (const std::string pass_ms : {"2", "300"}) {
    auto result = RunCommand(Shell(SumSweep(folder.path(), "pass" + pass_ms + ".json",
                                            {"--filter", "*/default", "--pass-ms", pass_ms})));
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    const json row =
        RowsOf(Read(folder.path() / ("pass" + pass_ms + ".json"))).at("reduction/sum-1m/default");
    dispatches[pass_ms] = row.at("dispatches_per_sample").get<uint64_t>();
  }
  EXPECT_GT(dispatches["300"], dispatches["2"]);
}

// A row rotating through cold copies whose dispatch is long (every q4 GEMV on lavapipe) is timed
// again in 50 ms passes and says so; one that reads a single copy keeps the sweep's passes.
TEST(CliSweepE2e, ALongColdDispatchIsTimedAgainInLongPassesAndItsProblemFromTheStart) {
  testing::ScratchFolder folder("sweep");
  const std::string first = "q4-gemv/qwen2.5-0.5b/q+o/m1/tuned/rows=1:tpr=8:wg=256";
  const std::string later = "q4-gemv/qwen2.5-0.5b/q+o/m1/tuned/default";  // run after `first`
  std::map<std::string, json> documents;
  for (const std::string cold_mib : {"8", "0"}) {
    std::vector<std::string> argv = {
        kRefract, "sweep", "--sweep", "q4-gemv", "--quick", "--samples", "3", "--seed", "5",
        "--filter",
        // a comma separates globs: `?` stands for the id's commas
        "q4-gemv/qwen2.5-0.5b/q+o/m1/tuned/rows=1?tpr=8?wg=256," + later, "--journal",
        (folder.path() / ("journal" + cold_mib)).string(), "--json",
        (folder.path() / ("cold" + cold_mib + ".json")).string()};
    if (cold_mib != "0") argv.insert(argv.end(), {"--cold-mib", cold_mib});
    auto result = RunCommand(Shell(argv));
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    documents[cold_mib] = RowsOf(Read(folder.path() / ("cold" + cold_mib + ".json")));
  }
  // Rotated through copies and ≥ 20 µs a dispatch on lavapipe: the first configuration is timed
  // twice, the problem's next one in long passes at once.
  for (const std::string& id : {first, later}) {
    const json& row = documents["8"].at(id);
    EXPECT_GT(row.at("params").at("copies").get<int>(), 1) << id;
    EXPECT_EQ(row.at("params").at("pass_ms"), 50.0) << id;
    EXPECT_EQ(row.at("status"), "ok") << id;
    ASSERT_FALSE(row.at("notes").empty()) << id;
  }
  EXPECT_EQ(documents["8"].at(first).at("notes").back().get<std::string>().rfind(
                "timed again in 50 ms passes", 0),
            0u);
  EXPECT_EQ(documents["8"].at(later).at("notes").back().get<std::string>().rfind(
                "timed in 50 ms passes from the start", 0),
            0u);
  for (const std::string& id : {first, later}) {  // --quick without --cold-mib: one copy
    const json& single = documents["0"].at(id);
    EXPECT_EQ(single.at("params").at("copies"), 1) << id;
    EXPECT_FALSE(single.at("params").contains("pass_ms")) << id;
  }
}

TEST(CliSweepE2e, EveryTunedKernelIsSweepableOverItsOwnAxes) {
  auto result = RunCommand(kRefract + " sweep --kernel add --quick --list");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const char* id : {"kernel:add/qwen2.5-0.5b/t1/tuned/vpt=1:wg=64",
                         "kernel:add/embeddinggemma2/t128/tuned/vpt=4:wg=256",
                         "kernel:add/qwen2.5-0.5b/t2048/tuned/default",
                         "kernel:add/qwen2.5-0.5b/t2048/tuned/seed"}) {
    EXPECT_NE(result.out.find(std::string(id) + "\n"), std::string::npos) << id << result.out;
  }
  EXPECT_EQ(result.out.find("/baseline/"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace refract
