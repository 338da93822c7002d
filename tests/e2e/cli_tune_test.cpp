// `refract tune` as a user runs it, on lavapipe: both examples end to end (their small
// problems, quick grids), the verification gate against planted bugs (wrong for one axis value,
// wrong for every value, a value that never finishes), the profile entry as both readers find it
// and lose it after a one-character edit, a grid over the device's limits skipped, and each
// error a user will make as exit 2 naming the spec field or the WGSL line. No verdict depends
// on a time: the winners judged are the only verified configurations.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "refract/profile.h"
#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
const std::string kSource = REFRACT_SOURCE_DIR;

std::string Q(const fs::path& path) { return "'" + path.string() + "'"; }

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteText(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

/// `text` with its one `from` replaced by `to` (the planted bug).
std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

/// A copy of tests/data/tune/scale.{wgsl,json} in `folder`, the kernel edited by `plant`.
struct Scale {
  fs::path kernel, spec;
};
Scale CopyScale(const fs::path& folder,
                const std::function<std::string(std::string)>& plant = [](std::string t) { return t; }) {
  const Scale copy{folder / "scale.wgsl", folder / "scale.json"};
  WriteText(copy.kernel, plant(ReadText(kSource + "/tests/data/tune/scale.wgsl")));
  WriteText(copy.spec, ReadText(kSource + "/tests/data/tune/scale.json"));
  return copy;
}

/// `refract tune` of `kernel` with `spec` on the small problems, 3 samples a configuration.
testing::CommandResult Tune(const fs::path& folder, const fs::path& kernel, const fs::path& spec,
                            const std::string& more = "") {
  return RunCommand(kRefract + " tune " + Q(kernel) + " --spec " + Q(spec) +
                    " --samples 3 --seed 3 --cold-mib 1 --journal " + Q(folder / "tune.journal") +
                    " --json " + Q(folder / "tune.json") + " " + more);
}

std::map<std::string, json> RowsOf(const fs::path& document) {
  const json parsed = json::parse(ReadText(document));  // a temporary would dangle in the loop
  std::map<std::string, json> rows;
  for (const json& row : parsed.at("results")) rows[row.at("id").get<std::string>()] = row;
  return rows;
}

bool Flagged(const json& row, const std::string& flag) {
  for (const json& f : row.at("flags")) {
    if (f == flag) return true;
  }
  return false;
}

TEST(CliTuneE2e, BothExamplesTuneEndToEndOnTheirQuickGrids) {
  for (const std::string name : {"matmul_f32/matmul_tiled", "q4_gemv/q4_gemv"}) {
    SCOPED_TRACE(name);
    testing::ScratchFolder folder("tune");
    const std::string base = kSource + "/examples/tune/" + name;
    const fs::path store = folder.path() / "store.json";
    const auto result = Tune(folder.path(), base + ".wgsl", base + ".json",
                             "--quick --filter 'tune:*/odd-*/*' --profile " + Q(store));
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    const auto rows = RowsOf(folder.path() / "tune.json");
    ASSERT_GE(rows.size(), 3u);
    size_t winners = 0;
    for (const auto& [id, row] : rows) {
      EXPECT_EQ(row.at("status"), "ok") << id << ": " << row.at("message");
      EXPECT_GT(row.at("verification").at("elements").get<uint64_t>(), 0u);
      winners += Flagged(row, "winner");
    }
    EXPECT_EQ(winners, 1u);
    const profile::Store written = profile::LoadStore(store.string());
    ASSERT_EQ(written.profiles.size(), 1u);
    ASSERT_EQ(written.profiles[0].entries.size(), 1u);
    EXPECT_EQ(written.profiles[0].entries[0].variant, "user");
    auto validated = RunCommand("node '" + kSource + "/tests/js/validate_profile.mjs' " + Q(store));
    EXPECT_EQ(validated.exit_code, 0) << validated.out << validated.err;
    EXPECT_FALSE(fs::exists(folder.path() / "tune.journal"));  // complete: the journal is gone
  }
}

// ITEMS = 2 drops the + 1: its rows are `error` and never win, however fast.
TEST(CliTuneE2e, AConfigurationWrongForOneAxisValueIsAnErrorAndNeverWins) {
  testing::ScratchFolder folder("tune");
  const Scale scale = CopyScale(folder.path(), [](std::string text) {
    return Replaced(text, "      y[at] = 2.0 * x[at] + 1.0;\n",
                    "      y[at] = 2.0 * x[at] + select(1.0, 0.0, ITEMS == 2u);\n");
  });
  const auto result = Tune(folder.path(), scale.kernel, scale.spec, "--filter 'tune:scale/n1000/*'");
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  const auto rows = RowsOf(folder.path() / "tune.json");
  ASSERT_EQ(rows.size(), 7u);
  for (const auto& [id, row] : rows) {
    const bool wrong = id.find("ITEMS=2") != std::string::npos;
    EXPECT_EQ(row.at("status"), wrong ? "error" : "ok") << id << ": " << row.at("message");
    if (wrong) {
      // The spec's reference is named as such: the user wrote no CPU model.
      const std::string message = row.at("message").get<std::string>();
      EXPECT_NE(message.find("outputs disagree with the reference ("), std::string::npos) << message;
      EXPECT_EQ(message.find("CPU"), std::string::npos) << message;
      EXPECT_FALSE(Flagged(row, "winner")) << id;
    }
  }
  size_t winners = 0;
  for (const auto& [id, row] : rows) winners += Flagged(row, "winner");
  EXPECT_EQ(winners, 1u);
}

TEST(CliTuneE2e, AKernelWrongForEveryValueHasNoWinnerAndExits1) {
  testing::ScratchFolder folder("tune");
  const Scale scale = CopyScale(folder.path(), [](std::string text) {
    return Replaced(text, "      y[at] = 2.0 * x[at] + 1.0;\n", "      y[at] = 2.0 * x[at];\n");
  });
  const fs::path store = folder.path() / "store.json";
  const auto result = Tune(folder.path(), scale.kernel, scale.spec,
                           "--filter 'tune:scale/n1000/*' --profile " + Q(store));
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  for (const auto& [id, row] : RowsOf(folder.path() / "tune.json")) {
    EXPECT_EQ(row.at("status"), "error") << id;
    EXPECT_FALSE(Flagged(row, "winner")) << id;
  }
  EXPECT_TRUE(!fs::exists(store) || profile::LoadStore(store.string()).profiles.empty() ||
              profile::LoadStore(store.string()).profiles[0].entries.empty());
}

// WG = 128 never finishes: the watchdog ends it, that configuration is `error`, and a new
// device runs the rest.
TEST(CliTuneE2e, AValueThatHangsCostsOnlyItself) {
  testing::ScratchFolder folder("tune");
  const Scale scale = CopyScale(folder.path(), [](std::string text) {
    return Replaced(text, "  for (var i = 0u; i < ITEMS; i++) {\n",
                    "  if (WG == 128u) {\n"
                    "    loop {\n"
                    "      y[0] += 1.0;\n"
                    "      if (y[0] < -1e30) { break; }\n"
                    "    }\n"
                    "  }\n"
                    "  for (var i = 0u; i < ITEMS; i++) {\n");
  });
  const auto result = Tune(folder.path(), scale.kernel, scale.spec,
                           "--filter 'tune:scale/n1000/ITEMS=1:*' --timeout-s 10");
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  const auto rows = RowsOf(folder.path() / "tune.json");
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& [id, row] : rows) {
    if (id.find("WG=128") != std::string::npos) {
      EXPECT_EQ(row.at("status"), "error");
      EXPECT_NE(row.at("message").get<std::string>().find("did not finish within 10 s"),
                std::string::npos)
          << row.at("message");
    } else {
      EXPECT_EQ(row.at("status"), "ok") << id << ": " << row.at("message");
    }
  }
}

/// What the JavaScript reader answers for `store` and the files: "fresh <params>" or "stale".
std::string JsAnswer(const fs::path& store, const Scale& scale, const std::string& adapter_key) {
  const fs::path script = store.parent_path() / "lookup.mjs";
  WriteText(script,
            "import { readFileSync } from 'node:fs';\n"
            "import { kernelHash, lookup, parseStore } from '" + kSource +
                "/js/refract-profile.mjs';\n"
                "const [store, kernel, spec, key] = process.argv.slice(2);\n"
                "const hash = await kernelHash([\n"
                "  { name: 'scale', text: readFileSync(kernel, 'utf8') },\n"
                "  { name: 'scale.spec', text: readFileSync(spec, 'utf8') }]);\n"
                "const answer = lookup(parseStore(readFileSync(store)), { adapter_key: key,\n"
                "  kernel: 'scale', problem: 'n1000', kernel_hash: hash });\n"
                "console.log(answer.choice ? `fresh ${JSON.stringify(answer.choice.params)}` : "
                "`stale ${answer.stale.length}`);\n");
  const auto run = RunCommand("node " + Q(script) + " " + Q(store) + " " + Q(scale.kernel) + " " +
                              Q(scale.spec) + " '" + adapter_key + "'");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.out;
}

TEST(CliTuneE2e, TheEntryIsFoundByBothReadersAndStaleAfterAOneCharacterEdit) {
  testing::ScratchFolder folder("tune");
  const Scale scale = CopyScale(folder.path());
  const fs::path store = folder.path() / "store.json";
  const auto result = Tune(folder.path(), scale.kernel, scale.spec,
                           "--filter 'tune:scale/n1000/*' --profile " + Q(store));
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  const profile::Store written = profile::LoadStore(store.string());
  ASSERT_EQ(written.profiles.size(), 1u);
  const std::string key = written.profiles[0].adapter.key;
  const auto query = [&] {
    return profile::Query{
        .adapter_key = key,
        .kernel = "scale",
        .problem = "n1000",
        .kernel_hash = profile::KernelHash(
            {{"scale", ReadText(scale.kernel)}, {"scale.spec", ReadText(scale.spec)}})};
  };
  const profile::Answer fresh = profile::Lookup(written, query());
  ASSERT_TRUE(fresh.choice.has_value()) << fresh.note;
  EXPECT_TRUE(fresh.exact);
  EXPECT_EQ(JsAnswer(store, scale, key).rfind("fresh", 0), 0u);
  const auto check = RunCommand(kRefract + " profile check " + Q(store) + " --tune " +
                                Q(scale.kernel) + " --spec " + Q(scale.spec));
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("ok      tune:scale n1000"), std::string::npos) << check.out;

  WriteText(scale.kernel, Replaced(ReadText(scale.kernel), "// The end-to-end", "// the end-to-end"));
  const profile::Answer stale = profile::Lookup(written, query());
  EXPECT_FALSE(stale.choice.has_value());
  ASSERT_EQ(stale.stale.size(), 1u);
  EXPECT_NE(stale.stale[0].reason.find("kernel source changed"), std::string::npos);
  EXPECT_EQ(JsAnswer(store, scale, key), "stale 1\n");
  const auto recheck = RunCommand(kRefract + " profile check " + Q(store) + " --tune " +
                                  Q(scale.kernel) + " --spec " + Q(scale.spec));
  EXPECT_NE(recheck.out.find("stale   tune:scale n1000"), std::string::npos) << recheck.out;
}

TEST(CliTuneE2e, AnOutputOntoAFileTheRunReadsIsRefusedAndTheFileKept) {
  testing::ScratchFolder folder("tune");
  const Scale scale = CopyScale(folder.path());
  const std::string kernel_text = ReadText(scale.kernel);
  const std::string spec_text = ReadText(scale.spec);
  for (const std::string& flag : {"--json " + Q(scale.kernel), "--html " + Q(scale.spec),
                                  "--profile " + Q(scale.kernel)}) {
    const auto result = RunCommand(kRefract + " tune " + Q(scale.kernel) + " --spec " +
                                   Q(scale.spec) + " --samples 3 --journal " +
                                   Q(folder.path() / "tune.journal") + " " + flag);
    EXPECT_EQ(result.exit_code, 2) << flag << ": " << result.out << result.err;
    EXPECT_EQ(ReadText(scale.kernel), kernel_text) << flag;
    EXPECT_EQ(ReadText(scale.spec), spec_text) << flag;
  }
}

TEST(CliTuneE2e, AGridOverTheDevicesLimitsIsSkippedAndTheRestRuns) {
  testing::ScratchFolder folder("tune");
  const Scale scale = CopyScale(folder.path());
  const auto result =
      Tune(folder.path(), scale.kernel, scale.spec, "--filter 'tune:scale/n2m/ITEMS=1:*'");
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  const auto rows = RowsOf(folder.path() / "tune.json");
  ASSERT_EQ(rows.size(), 3u);
  const json& over = rows.at("tune:scale/n2m/ITEMS=1:WG=32");
  EXPECT_EQ(over.at("status"), "skipped");
  EXPECT_NE(over.at("message").get<std::string>().find("a grid of 65536x1x1 workgroups"),
            std::string::npos)
      << over.at("message");
  EXPECT_EQ(rows.at("tune:scale/n2m/ITEMS=1:WG=64").at("status"), "ok");
}

/// Runs `refract tune --list` on the scale example with `change` made to its spec (and
/// `plant` to its kernel): exit 2 and the first line of standard error.
std::string UsageError(const std::function<void(json&)>& change,
                       const std::function<std::string(std::string)>& plant =
                           [](std::string t) { return t; }) {
  testing::ScratchFolder folder("tune");
  const Scale scale = CopyScale(folder.path(), plant);
  json spec = json::parse(ReadText(scale.spec));
  change(spec);
  WriteText(scale.spec, spec.dump(1));
  const auto result =
      RunCommand(kRefract + " tune " + Q(scale.kernel) + " --spec " + Q(scale.spec) + " --list");
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  return result.err.substr(0, result.err.find('\n'));
}

TEST(CliTuneE2e, EachMistakeIsExit2NamingTheSpecFieldOrTheWgslLine) {
  EXPECT_NE(UsageError([](json& s) { s["axes"]["TILE"] = {4, 8}; })
                .find("spec.axes.TILE: " ), std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["axes"]["TILE"] = {4, 8}; })
                .find("declares no override TILE (its overrides: ITEMS, WG)"),
            std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["bindings"][2]["binding"] = 5; })
                .find("spec.bindings[2]: "),
            std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["bindings"][2]["binding"] = 5; })
                .find("declares no @group(0) @binding(5)"),
            std::string::npos);
  EXPECT_NE(UsageError([](json&) {},
                       [](std::string t) {
                         return Replaced(t, "@group(0) @binding(2) var<uniform> dims: Dims;",
                                         "@group(0) @binding(2) var<uniform> dims: Dims;\n"
                                         "@group(0) @binding(3) var<storage, read> extra: "
                                         "array<f32>;");
                       })
                .find("scale.wgsl:17: 'extra' (@group(0) @binding(3)) has no binding in the spec"),
            std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["grid"][0] = "ceil_div(N, WG*ITEM)"; })
                .find("spec.grid[0]: 'ceil_div(N, WG*ITEM)': unknown name 'ITEM'"),
            std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["grid"][0] = "N/(WG-64)"; })
                .find("spec.grid[0]: 'N/(WG-64)' is infinite (a division by zero?)"),
            std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["bindings"][0]["size"] = "N*4*2^60"; })
                .find("spec.bindings[0].size: 'N*4*2^60' is 4.6"),
            std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["spec_version"] = 2; })
                .find("spec.spec_version: 2 is not 1, the version this refract reads"),
            std::string::npos);
  EXPECT_NE(UsageError([](json& s) { s["entry"] = "tuned"; }).find("spec.entry: "),
            std::string::npos);
  // A reference of files whose size is not the output's.
  testing::ScratchFolder folder("tune");
  WriteText(folder.path() / "expected-n1000.bin", std::string(400, '\0'));
  WriteText(folder.path() / "expected-n2m.bin", std::string(16, '\0'));
  const std::string file = (folder.path() / "expected-{problem}.bin").string();
  EXPECT_NE(UsageError([&](json& s) { s["reference"] = {{"files", {{"0:1", file}}}}; })
                .find("spec.reference.files: " + (folder.path() / "expected-n1000.bin").string() +
                      " holds 400 bytes, the output @group(0) @binding(1) 4000 at problem n1000: "
                      "the reference is of another output size"),
            std::string::npos);
}

}  // namespace
}  // namespace refract
