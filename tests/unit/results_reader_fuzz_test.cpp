// The readers of refract's JSON documents fed truncated, mutated and random inputs: no crash,
// no hang, and either a record or a refract::Error that names the file and what is wrong.
// Deterministic (seeded) and fast; tests/fuzz/ has the libFuzzer target for longer searches.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "base/error.h"
#include "results/json_io.h"
#include "results/record_file.h"
#include "testing/scratch_folder.h"

namespace refract::results {
namespace {

using nlohmann::json;

// Real documents of this schema, written by refract on lavapipe (tests/data/README.md).
const std::string kDataDir = std::string(REFRACT_SOURCE_DIR) + "/tests/data/";

std::string ReadData(const std::string& name) {
  std::ifstream file(kDataDir + name, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

using Parser = std::function<void(std::string_view text, const std::string& source)>;
const Parser kRunParser = [](std::string_view text, const std::string& source) {
  ParseRunRecord(text, source);
};
const Parser kInfoParser = [](std::string_view text, const std::string& source) {
  ParseDeviceInfo(text, source);
};

// "" when `text` parsed, else the refract::Error's message. Anything else thrown fails the
// test, as does an error that does not start by naming `source`.
std::string Outcome(const Parser& parse, std::string_view text, const std::string& source) {
  try {
    parse(text, source);
    return "";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("'" + source + "': ", 0), 0u) << message;
    EXPECT_GT(message.size(), source.size() + 6) << "says nothing about what is wrong";
    return message;
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not a refract::Error: " << error.what() << "\ninput: " << text.substr(0, 200);
  }
  return "(other exception)";
}

// The real run document cut down to a small one (two rows, a few features and limits), for
// the tests that parse it thousands of times; `indent` as json::dump takes it.
std::string SmallRunDocument(int indent) {
  json document = json::parse(ReadData("lavapipe-run.json"));
  json& results = document["results"];
  results.erase(results.begin() + 1, results.end() - 1);  // f32-div (error), read-linear (ok)
  json& device = document["device"];
  for (const char* list : {"adapter_features", "features", "wgsl_language_features"}) {
    device[list].erase(device[list].begin() + 1, device[list].end());
  }
  for (const char* limits : {"adapter_limits", "limits"}) {
    json kept = json::object();
    kept[device[limits].begin().key()] = device[limits].begin().value();
    device[limits] = kept;
  }
  return document.dump(indent);
}

TEST(ResultsReaderFuzz, CheckedInDocumentsAreValid) {
  // The mutation tests start from these; a schema change must regenerate them.
  EXPECT_EQ(Outcome(kRunParser, ReadData("lavapipe-run.json"), "run.json"), "");
  EXPECT_EQ(Outcome(kInfoParser, ReadData("lavapipe-info.json"), "info.json"), "");
  EXPECT_EQ(Outcome(kRunParser, SmallRunDocument(-1), "small.json"), "");
}

TEST(ResultsReaderFuzz, EveryTruncationOfADocumentIsAnErrorNamingTheFile) {
  const std::string text = SmallRunDocument(-1);  // compact: ends with its closing brace
  for (size_t length = 0; length < text.size(); ++length) {
    const std::string message =
        Outcome(kRunParser, std::string_view(text).substr(0, length), "small.json");
    ASSERT_NE(message.find("not valid JSON"), std::string::npos)
        << "truncated to " << length << " bytes: " << message;
  }
}

// One random edit of `text`: a byte changed, inserted or removed, a span removed or doubled,
// or a JSON token that breaks types or ranges put in.
void Mutate(std::string& text, std::mt19937_64& rng) {
  static const char* const kTokens[] = {
      "null", "true", "-1", "0", "1.5", "1e999", "-0", "18446744073709551616", "4294967296", "\"\"",
      "\"x\"", "[]", "{}", "[null]", "{\"\":0}", "\"\\ud800\"", "\"\\u0000\"", ",", ":", "\"ok\"",
      "\"error\"", "\"running\"", "\"median\"", "2", "9007199254740993",
      // semantic: negative, tiny, huge, a count of 10^12
      "-0.5", "1e-300", "1e300", "1000000000000"};
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  const size_t at = pick(text.size() + 1);
  switch (rng() % 7) {
    case 0:  // flip one bit
      if (at < text.size()) text[at] = static_cast<char>(text[at] ^ (1 << pick(8)));
      break;
    case 1:  // any byte
      if (at < text.size()) text[at] = static_cast<char>(rng());
      break;
    case 2:
      text.insert(at, 1, static_cast<char>(rng()));
      break;
    case 3:  // remove a span
      text.erase(at, 1 + pick(32));
      break;
    case 4:  // double a span
      if (at < text.size()) text.insert(at, text.substr(at, 1 + pick(64)));
      break;
    case 5:  // a token
      text.insert(at, kTokens[pick(std::size(kTokens))]);
      break;
    default: {  // a value after a key replaced by a token
      const size_t colon = text.find(": ", at);
      if (colon == std::string::npos) break;
      const size_t end = text.find_first_of(",\n}", colon + 2);
      if (end == std::string::npos) break;
      text.replace(colon + 2, end - colon - 2, kTokens[pick(std::size(kTokens))]);
    }
  }
}

TEST(ResultsReaderFuzz, MutatedRealDocumentsAreRecordsOrNamedErrors) {
  for (const auto& [name, parser, count, original] :
       {std::tuple{"small run document", kRunParser, 3000, SmallRunDocument(2)},
        std::tuple{"lavapipe-info.json", kInfoParser, 300, ReadData("lavapipe-info.json")}}) {
    std::mt19937_64 rng(20261201);
    int parsed = 0, rejected = 0;
    for (int i = 0; i < count; ++i) {
      std::string text = original;
      for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) Mutate(text, rng);
      (Outcome(parser, text, "mutated.json").empty() ? parsed : rejected)++;
      if (::testing::Test::HasFailure()) FAIL() << name << " mutation " << i << ":\n" << text;
    }
    EXPECT_GT(rejected, count / 2) << name;  // the mutations do reach the checks
    EXPECT_GT(parsed, 0) << name;            // and some keep a valid document
  }
}

// Calls `visit(path, pointer)` for every value under `value`, paths spelled as the readers
// name fields: "results[2].stats.min", "device.vendor".
void ForEachValue(const json& value, const std::string& path, const json::json_pointer& pointer,
                  const std::function<void(const std::string&, const json::json_pointer&)>& visit) {
  if (!path.empty()) visit(path, pointer);
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      ForEachValue(item, path.empty() ? key : path + "." + key, pointer / key, visit);
    }
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      ForEachValue(value[i], path + "[" + std::to_string(i) + "]", pointer / i, visit);
    }
  }
}

TEST(ResultsReaderFuzz, EveryFieldMissingOrWronglyTypedIsNamed) {
  const json original = json::parse(SmallRunDocument(-1));
  const json wrong_values[] = {nullptr, true, -1, 1.5, "x", json::array(), json::object()};
  int checked = 0;
  ForEachValue(original, "", json::json_pointer(),
               [&](const std::string& path, const json::json_pointer& pointer) {
                 std::vector<json> variants;
                 for (const json& wrong : wrong_values) {
                   json changed = original;
                   changed[pointer] = wrong;
                   variants.push_back(std::move(changed));
                 }
                 if (original[pointer.parent_pointer()].is_object()) {
                   json removed = original;
                   removed[pointer.parent_pointer()].erase(pointer.back());
                   variants.push_back(std::move(removed));
                 }
                 for (const json& variant : variants) {
                   const std::string message = Outcome(kRunParser, variant.dump(), "run.json");
                   ++checked;
                   // Accepted (null for a number, any key of a free-form map) or refused naming the
                   // field.
                   if (!message.empty()) {
                     ASSERT_NE(message.find(path), std::string::npos) << path << ": " << message;
                   }
                 }
               });
  EXPECT_GT(checked, 1000);  // every field of every kind of record
}

// Semantic mutations: well-typed values that no run writes. Row 1 of the small document is
// read-linear (ok, with samples); each change is refused, naming the field and the row.
TEST(ResultsReaderFuzz, ImpossibleValuesAreRefusedNamingTheFieldAndTheRow) {
  const json original = json::parse(SmallRunDocument(-1));
  ASSERT_EQ(original["results"][1]["id"], "read-linear");
  ASSERT_EQ(original["results"][1]["status"], "ok");
  const std::string first_id = original["results"][0]["id"];
  const double min = original["results"][1]["stats"]["min"];
  struct Case {
    std::string pointer;  // JSON pointer of the value changed
    json value;
    std::string field;  // what the error must name (the field, or the one it contradicts)
  };
  const std::vector<Case> cases = {
      {"/results/1/times_ms/0", -1, "results[1].times_ms[0]"},
      {"/results/1/times_ms/0", 0, "results[1].times_ms[0]"},
      {"/results/1/times_ms/0", nullptr, "results[1].times_ms[0]"},
      {"/results/1/throttled_ms", json::array({-2.0}), "results[1].throttled_ms[0]"},
      {"/results/1/stats/min", -1, "results[1].stats.min"},
      {"/results/1/stats/min", 0, "results[1].stats.min"},
      {"/results/1/stats/min", min * 0.5, "results[1].stats.min"},
      {"/results/1/stats/median", nullptr, "results[1].stats.median"},
      {"/results/1/stats/p90", min * 0.1, "results[1].stats.p90"},
      {"/results/1/stats/mean", 1e300, "results[1].stats.mean"},
      {"/results/1/stats/count", 1000000000000, "results[1].stats.count"},
      {"/results/1/stats/ci95", -1, "results[1].stats.ci95"},
      {"/results/1/stats/stddev", -0.5, "results[1].stats.stddev"},
      {"/results/1/times_ms", json::array(), "results[1].times_ms"},
      {"/results/1/metric_value", 0, "results[1].metric_value"},
      {"/results/1/metric_value", -5e9, "results[1].metric_value"},
      {"/results/1/metric_value", nullptr, "results[1].metric_value"},
      {"/results/1/work_per_dispatch", -1, "results[1].work_per_dispatch"},
      {"/results/1/speedup", 0, "results[1].speedup"},
      {"/results/1/verification/max_abs_error", -1e-6, "results[1].verification.max_abs_error"},
      {"/results/1/id", first_id, "results[1].id"},
      {"/results/1/id", "", "results[1].id"},
      {"/summary/read_bandwidth_Bps", 0, "summary.read_bandwidth_Bps"},
      {"/summary/read_bandwidth_Bps", -5e9, "summary.read_bandwidth_Bps"},
      {"/wall_time_s", -1, "wall_time_s"},
      {"/results/1/verification/mismatches", 0, "results[1].verification.mismatches"},
      {"/results/1/verification/mismatches", 1000000000000, "results[1].verification.mismatches"},
  };
  for (const Case& c : cases) {
    json changed = original;
    changed[json::json_pointer(c.pointer)] = c.value;
    const std::string message = Outcome(kRunParser, changed.dump(), "run.json");
    EXPECT_NE(message.find(c.field), std::string::npos)
        << c.pointer << " = " << c.value.dump() << ": " << message;
    if (c.field.rfind("results[1]", 0) == 0 && c.field != "results[1].id") {
      EXPECT_NE(message.find("row 'read-linear'"), std::string::npos) << message;
    }
  }
  // A huge but consistent time is a slow row, not an impossible one.
  json slow = original;
  for (json& t : slow["results"][1]["times_ms"]) t = t.get<double>() * 1e6;
  for (const char* key : {"min", "mean", "median", "stddev", "ci95", "p10", "p90"}) {
    json& value = slow["results"][1]["stats"][key];
    if (!value.is_null()) value = value.get<double>() * 1e6;
  }
  slow["results"][1]["metric_value"] = slow["results"][1]["metric_value"].get<double>() / 1e6;
  EXPECT_EQ(Outcome(kRunParser, slow.dump(), "run.json"), "");
}

// The text's own classes, before any field: numbers past a double (named by their field),
// encodings (not UTF-8, a NUL and what follows it, a second byte order mark) and the size. A
// leading byte order mark is ignored: the document reads as without it.
TEST(ResultsReaderFuzz, TextsThatAreNoDocumentTextAreRefusedNamingWhy) {
  const std::string text = SmallRunDocument(1);
  const size_t wall = text.find("\"wall_time_s\": ");
  ASSERT_NE(wall, std::string::npos);
  const size_t value = wall + std::string("\"wall_time_s\": ").size();
  const std::string huge =
      text.substr(0, value) + "1e400" + text.substr(text.find_first_of(",\n}", value));
  struct Case {
    std::string name;
    std::string text;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"a number past a double", huge, "document.wall_time_s: not finite (a number beyond a double"},
      {"a negative one", std::string(huge).replace(huge.find("1e400"), 5, "-1e400"),
       "document.wall_time_s: not finite"},
      {"a NUL then garbage", text + std::string("\0garbage", 8), "a NUL character at byte"},
      {"invalid UTF-8", text.substr(0, 10) + "\xff" + text.substr(10), "not valid UTF-8 at byte 10"},
      {"a surrogate in UTF-8", text + "\xed\xa0\x80", "not valid UTF-8"},
      {"two byte order marks", "\xef\xbb\xbf\xef\xbb\xbf" + text, "a second byte order mark"},
      {"over 64 MiB", text + std::string((size_t{64} << 20) - text.size() + 1, ' '),
       "larger than 64 MiB"},
  };
  for (const Case& c : cases) {
    const std::string message = Outcome(kRunParser, c.text, "run.json");
    EXPECT_NE(message.find(c.says), std::string::npos) << c.name << ": " << message;
  }
  EXPECT_EQ(Outcome(kRunParser, "\xef\xbb\xbf" + text, "run.json"), "");
  EXPECT_EQ(ParseRunRecord("\xef\xbb\xbf" + text, "a").rows.size(),
            ParseRunRecord(text, "b").rows.size());
}

TEST(ResultsReaderFuzz, RandomBytesAreNamedErrors) {
  std::mt19937_64 rng(7);
  const std::string json_alphabet = "{}[]\":,0123456789.eE+-truefalsn \\u";
  for (int i = 0; i < 3000; ++i) {
    std::string text(rng() % 300, '\0');
    for (char& c : text) {
      c = i % 2 == 0 ? static_cast<char>(rng()) : json_alphabet[rng() % json_alphabet.size()];
    }
    Outcome(kRunParser, text, "random.json");
    Outcome(kInfoParser, text, "random.json");
    if (::testing::Test::HasFailure()) FAIL() << "input " << i;
  }
}

TEST(ResultsReaderFuzz, DeepNestingIsAnErrorNotAStackOverflow) {
  const size_t depth = 100000;  // far past any stack a recursive parser could use
  const std::string open(depth, '[');
  EXPECT_NE(Outcome(kRunParser, open, "deep.json").find("not valid JSON"), std::string::npos);
  const std::string closed = open + std::string(depth, ']');
  EXPECT_NE(Outcome(kRunParser, closed, "deep.json").find("(document)"), std::string::npos);
  const std::string as_version = "{\"schema_version\": " + closed + "}";
  EXPECT_NE(Outcome(kRunParser, as_version, "deep.json").find("schema_version"), std::string::npos);
}

TEST(ResultsReaderFuzz, FilesAreNamedInEveryError) {
  const testing::ScratchFolder scratch("reader");
  const std::filesystem::path& folder = scratch.path();
  auto error_of = [](const std::filesystem::path& path) {
    try {
      ReadRunRecordFile(path);
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("(no error)");
  };
  const std::string missing = error_of(folder / "absent.json");
  EXPECT_NE(missing.find((folder / "absent.json").string()), std::string::npos) << missing;
  EXPECT_NE(missing.find("No such file or directory"), std::string::npos) << missing;
  const std::string is_folder = error_of(folder);
  EXPECT_NE(is_folder.find("is a folder"), std::string::npos) << is_folder;
  // A device is never read (its bytes may be endless), nor a named pipe opened (with no writer
  // the open would block for ever); a file's bytes are cut off at the cap.
  const std::string device = error_of("/dev/zero");
  EXPECT_NE(device.find("is a device, not a file"), std::string::npos) << device;
  ASSERT_EQ(mkfifo((folder / "pipe").c_str(), 0600), 0);
  const std::string pipe = error_of(folder / "pipe");
  EXPECT_NE(pipe.find("is a named pipe, not a file"), std::string::npos) << pipe;
  std::ofstream(folder / "huge.json") << "{";
  std::filesystem::resize_file(folder / "huge.json", (uint64_t{64} << 20) + 1);  // sparse
  const std::string huge = error_of(folder / "huge.json");
  EXPECT_NE(huge.find("larger than 64 MiB"), std::string::npos) << huge;
  std::ofstream(folder / "bad.json") << "{\"schema_version\": 2,";
  const std::string malformed = error_of(folder / "bad.json");
  EXPECT_EQ(malformed.rfind("'" + (folder / "bad.json").string() + "': not valid JSON", 0), 0u)
      << malformed;
  std::ofstream(folder / "good.json") << ReadData("lavapipe-run.json");
  EXPECT_EQ(ReadRunRecordFile(folder / "good.json").rows.size(), 4u);
  EXPECT_EQ(ReadDeviceInfoFile(kDataDir + "lavapipe-info.json").backend, "vulkan");
}

}  // namespace
}  // namespace refract::results
