// Profiles as a user makes and uses them: `refract sweep --profile` writes a store that the
// published schema and the JavaScript reader accept, `refract kernels --profile` runs a tuned
// row with the profile's (non-default) winner, verified; `profile show`, `merge` and `check`
// (a winner that no longer computes the right answer is marked); a store that is not a store is
// exit 2 for every command that reads it, and the file is left as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "refract/profile.h"
#include "testing/golden.h"
#include "testing/planted_kernel.h"
#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
const std::string kSource = REFRACT_SOURCE_DIR;
const char* kRmsnormRow = "rmsnorm/qwen2.5-0.5b/t1/tuned";

std::string ReadText(const fs::path& path) { return testing::ReadTextFile(path.string()); }

void WriteText(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string Q(const fs::path& path) { return "'" + path.string() + "' "; }

/// The quick rmsnorm sweep at Qwen's one-token shape (14 configurations), its winners added to
/// `store`.
testing::CommandResult SweepRmsnorm(const fs::path& folder, const fs::path& store) {
  return RunCommand(kRefract + " sweep --kernel rmsnorm --quick --samples 3 --seed 5 --filter " +
                    "'kernel:rmsnorm/qwen2.5-0.5b/t1/*' --journal " + Q(folder / "journal") +
                    "--json " + Q(folder / "sweep.json") + "--profile " + Q(store));
}

/// The quick reduction sweep (5 configurations), its winner added to `store`.
testing::CommandResult SweepSum(const fs::path& folder, const fs::path& store) {
  return RunCommand(kRefract + " sweep --sweep reduction --quick --samples 3 --seed 5 --journal " +
                    Q(folder / "journal") + "--profile " + Q(store));
}

json RowOf(const fs::path& document, const std::string& id) {
  std::string ids;
  const json parsed = json::parse(ReadText(document));  // a temporary would dangle in the loop
  for (const json& row : parsed.at("results")) {
    if (row.at("id") == id) return row;
    ids += " " + row.at("id").get<std::string>();
  }
  ADD_FAILURE() << "no row " << id << " in " << document << ", only" << ids;
  return json::object();
}

TEST(CliProfileE2e, ASweepsProfileIsValidAndKernelsRunsItsWinnerVerified) {
  testing::ScratchFolder folder("profile");
  const fs::path store = folder.path() / "profile.json";
  auto swept = SweepRmsnorm(folder.path(), store);
  ASSERT_EQ(swept.exit_code, 0) << swept.out << swept.err;
  EXPECT_NE(swept.out.find("profile written to " + store.string() + ": 1 entry"), std::string::npos)
      << swept.out;
  // The published schema (Ajv) and the JavaScript reader accept what refract wrote.
  auto validated = RunCommand("node '" + kSource + "/tests/js/validate_profile.mjs' " + Q(store));
  EXPECT_EQ(validated.exit_code, 0) << validated.out << validated.err;

  // The winner made a configuration the built-in default is not: wg 1024 and vpt 1 are never
  // the default rule's choice at hidden 896, and the row must still verify with it. (Its
  // reduction, subgroups, stays the winner's: another would compile other kernel files than
  // the entry's stamp names, and the entry would be stale.)
  json document = json::parse(ReadText(store));
  json& entry = document.at("profiles").at(0).at("entries").at(0);
  ASSERT_EQ(entry.at("problem"), "qwen2.5-0.5b/t1/tuned");
  const json subgroups = entry.at("winner").at("params").at("subgroups");
  entry["winner"]["params"] = {{"subgroups", subgroups}, {"vpt", 1}, {"wg", 1024}};
  WriteText(store, document.dump(2));
  const fs::path kernels = folder.path() / "kernels.json";
  auto ran = RunCommand(kRefract + " kernels --kernel rmsnorm --preset quick --samples 3 " +
                        "--profile " + Q(store) + "--json " + Q(kernels));
  ASSERT_EQ(ran.exit_code, 0) << ran.out << ran.err;
  const json row = RowOf(kernels, kRmsnormRow);
  EXPECT_EQ(row.at("status"), "ok") << row.at("message");
  EXPECT_GT(row.at("verification").at("elements").get<int>(), 0);
  EXPECT_EQ(row.at("params").at("wg"), 1024);
  EXPECT_EQ(row.at("params").at("vpt"), 1);
  EXPECT_EQ(row.at("params")
                .at("config_source")
                .get<std::string>()
                .rfind("profile: the kernel:rmsnorm sweep's winner, measured ", 0),
            0u)
      << row.at("params");

  // Merging it with the shared vectors' stores keeps every adapter; the output is a store.
  const fs::path vectors_store = folder.path() / "vectors.json";
  WriteText(vectors_store, json::parse(ReadText(kSource + "/tests/data/profile_vectors.json"))
                               .at("stores")
                               .at("two-adapters")
                               .dump());
  const fs::path merged = folder.path() / "merged.json";
  auto merging =
      RunCommand(kRefract + " profile merge " + Q(vectors_store) + Q(store) + "-o " + Q(merged));
  ASSERT_EQ(merging.exit_code, 0) << merging.out << merging.err;
  EXPECT_NE(merging.out.find("merged into " + merged.string() + ": 3 adapters"), std::string::npos)
      << merging.out;
  EXPECT_EQ(profile::LoadStore(merged.string()).profiles.size(), 3u);
  // An output that is one of the inputs is refused, and the input kept.
  const std::string before = ReadText(store);
  auto onto_input =
      RunCommand(kRefract + " profile merge " + Q(vectors_store) + Q(store) + "-o " + Q(store));
  EXPECT_EQ(onto_input.exit_code, 2) << onto_input.out << onto_input.err;
  EXPECT_EQ(ReadText(store), before);

  auto shown = RunCommand(kRefract + " profile show " + Q(merged) + "--adapter H200");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("NVIDIA H200"), std::string::npos) << shown.out;
  EXPECT_EQ(shown.out.find("llvmpipe"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("winner: rows=1:tpr=32:wg=256"), std::string::npos) << shown.out;
}

TEST(CliProfileE2e, CheckReverifiesWinnersAndMarksOneThatComputesWrong) {
  testing::ScratchFolder folder("profile");
  const fs::path store = folder.path() / "profile.json";
  auto swept = SweepSum(folder.path(), store);
  ASSERT_EQ(swept.exit_code, 0) << swept.out << swept.err;
  auto checked = RunCommand(kRefract + " profile check " + Q(store));
  ASSERT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("ok      reduction sum-1m items="), std::string::npos)
      << checked.out;
  EXPECT_NE(checked.out.find("1 entries: 0 no longer compute the right answer, 0 stale, 0 refused"),
            std::string::npos)
      << checked.out;

  // The winner is rebuilt from its params, not from the row id it was measured as: params that
  // mean nothing for the op are refused (exit 1), however right the row id.
  {
    json changed = json::parse(ReadText(store));
    changed.at("profiles").at(0).at("entries").at(0)["winner"]["params"]["wg"] = 100;
    const fs::path bad = folder.path() / "bad-params.json";
    WriteText(bad, changed.dump(2));
    auto refused = RunCommand(kRefract + " profile check " + Q(bad));
    EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
    EXPECT_NE(refused.out.find("refused reduction sum-1m"), std::string::npos) << refused.out;
    EXPECT_NE(refused.out.find("wg 100 is not allowed"), std::string::npos) << refused.out;
    // An entry given another kernel's files (and their true hash) is stale, not ok.
    changed = json::parse(ReadText(store));
    json& stamp = changed.at("profiles").at(0).at("entries").at(0)["stamp"];
    stamp["kernels"] = {"llm_softmax_tuned"};
    stamp["kernel_hash"] = profile::KernelHash(
        {{"llm_softmax_tuned", ReadText(kSource + "/src/kernels/llm_softmax_tuned.wgsl")}});
    WriteText(bad, changed.dump(2));
    auto stale = RunCommand(kRefract + " profile check " + Q(bad));
    EXPECT_EQ(stale.exit_code, 0) << stale.out << stale.err;
    EXPECT_NE(stale.out.find("stale   reduction sum-1m"), std::string::npos) << stale.out;
    EXPECT_NE(stale.out.find("it names the kernels llm_softmax_tuned, its configuration compiles "
                             "sum_reduce"),
              std::string::npos)
        << stale.out;
  }

  // A kernel that sums half of its items, stamped as the winner's own text: the stamp is
  // fresh, the answer wrong. (Any other edit of the kernel makes the entry stale instead.)
  json document = json::parse(ReadText(store));
  json& entry = document.at("profiles").at(0).at("entries").at(0);
  entry["winner"]["params"]["items"] = 8;  // its row id stays: the params are the winner
  const std::string wrong =
      testing::EditedKernel("sum_reduce", "for (var i = 0u; i < ITEMS; i++) {",
                            "for (var i = 0u; i < max(ITEMS / 2u, 1u); i++) {");
  ASSERT_EQ(entry.at("stamp").at("kernels"), json({"sum_reduce"}));
  entry["stamp"]["kernel_hash"] = profile::KernelHash({{"sum_reduce", wrong}});
  WriteText(store, document.dump(2));
  const std::string before = ReadText(store);
  {
    const testing::PlantedKernel planted("sum_reduce", wrong);
    auto marked = RunCommand(kRefract + " profile check " + Q(store));
    EXPECT_EQ(marked.exit_code, 1) << marked.out << marked.err;
    EXPECT_NE(marked.out.find("WRONG   reduction sum-1m items=8:"),
              std::string::npos)
        << marked.out;
  }
  // Without the planted kernel the entry's kernel hash is not this build's: stale, not wrong.
  auto stale = RunCommand(kRefract + " profile check " + Q(store));
  EXPECT_EQ(stale.exit_code, 0) << stale.out << stale.err;
  EXPECT_NE(stale.out.find("stale   reduction sum-1m"), std::string::npos) << stale.out;
  EXPECT_NE(stale.out.find("the kernel source changed"), std::string::npos) << stale.out;
  EXPECT_EQ(ReadText(store), before);  // check never writes
}

TEST(CliProfileE2e, AStoreThatIsNoStoreIsExit2ForEveryReaderAndLeftUntouched) {
  testing::ScratchFolder folder("profile");
  const std::string valid = json::parse(ReadText(kSource + "/tests/data/profile_vectors.json"))
                                .at("stores")
                                .at("two-adapters")
                                .dump(1);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = valid;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  };
  struct Case {
    std::string name;
    std::string text;  ///< what a regular file holds
    std::string says;
  };
  const std::vector<Case> cases = {
      {"corrupt", "{\"format\": \"refract-profile-store\", \"schema_", "not JSON"},
      {"truncated", valid.substr(0, valid.size() / 3), "not JSON"},
      {"foreign", "{\"schema_version\": 2, \"tool\": \"refract\", \"results\": []}",
       "missing field 'format'"},
      {"future",
       [&] {
         json future = json::parse(valid);
         future["schema_version"] = 9;
         return future.dump();
       }(),
       "schema 9 is newer"},
      // Numbers a store cannot hold, in a time, an axis and a shape: named by their field.
      {"huge time", replaced("\"median_ms\": 0.0032", "\"median_ms\": 1e400"),
       "store.profiles[0].entries[0].winner.median_ms: not finite"},
      {"huge axis", replaced("\"wg\": 256", "\"wg\": 1e400"),
       "store.profiles[0].entries[0].winner.params.wg: not finite"},
      {"huge shape", replaced("\"k\": 896", "\"k\": 1e400"),
       "store.profiles[0].entries[0].shape.k: not finite"},
      // Encodings: the same rule in every reader (docs/PROFILES.md, "The text of a store").
      {"nul", valid + std::string("\0garbage", 8), "a NUL character at byte"},
      {"not utf-8", replaced("NVIDIA H200", "NVIDIA \xff"), "not valid UTF-8"},
      {"yesterday", replaced("2026-12-01T17:07:14Z", "yesterday"), "not a UTC time"},
  };
  // (`sweep --profile` checks its output first: a folder is then "a folder" it cannot write.)
  const std::vector<std::pair<std::string, std::string>> special = {
      {"fifo", "is a named pipe, not a file"}, {"folder", "folder"}, {"device", "is a device"}};
  auto commands = [&](const fs::path& store) {
    return std::vector<std::string>{
        "profile show " + Q(store), "profile check " + Q(store),
        "kernels --kernel rmsnorm --preset quick --profile " + Q(store),
        "sweep --sweep reduction --quick --journal " + Q(folder.path() / "j") + "--profile " +
            Q(store),
        "profile merge " + Q(store) + "-o " + Q(folder.path() / "out.json")};
  };
  auto expect_refused = [&](const fs::path& store, const std::string& says) {
    for (const std::string& command : commands(store)) {
      // A named pipe is never opened: no command blocks on one (timeout would be the failure).
      auto result = RunCommand("timeout 120 " + kRefract + " " + command);
      EXPECT_EQ(result.exit_code, 2) << command << result.out << result.err;
      EXPECT_NE(result.err.find(store.string()), std::string::npos) << command << result.err;
      EXPECT_NE(result.err.find(says), std::string::npos) << command << result.err;
    }
    EXPECT_FALSE(fs::exists(folder.path() / "out.json"));
    EXPECT_FALSE(fs::exists(folder.path() / "j"));  // the sweep stopped before it began
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path store = folder.path() / (c.name + ".json");
    WriteText(store, c.text);
    expect_refused(store, c.says);
    EXPECT_EQ(ReadText(store), c.text);
  }
  for (const auto& [kind, says] : special) {
    SCOPED_TRACE(kind);
    fs::path store = folder.path() / kind;
    if (kind == "fifo") {
      ASSERT_EQ(RunCommand("mkfifo " + Q(store)).exit_code, 0);
    }
    if (kind == "folder") fs::create_directory(store);
    if (kind == "device") store = "/dev/zero";
    expect_refused(store, says);
  }
}

}  // namespace
}  // namespace refract
