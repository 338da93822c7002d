// The public profile reader (include/refract/profile.h) on the vectors it shares with the
// JavaScript reader (tests/data/profile_vectors.json), its round trip, and random bytes.
#include "refract/profile.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "profile/document_text.h"
#include "testing/scratch_folder.h"

namespace refract::profile {
namespace {

using nlohmann::json;

const json& Vectors() {
  static const json vectors = [] {
    std::ifstream file(std::string(REFRACT_SOURCE_DIR) + "/tests/data/profile_vectors.json");
    std::ostringstream text;
    text << file.rdbuf();
    return json::parse(text.str());
  }();
  return vectors;
}

Store StoreNamed(const std::string& name) {
  return ParseStore(Vectors().at("stores").at(name).dump());
}

/// The bytes of an invalid or accepted vector: its "text", its "text_hex", or a store of
/// "stores" written compactly with "prefix_hex" and "suffix_hex" around it and spaces up to
/// "pad_to_bytes".
std::string BytesOf(const json& vector) {
  auto hex = [](const std::string& digits) {
    std::string bytes;
    for (size_t i = 0; i + 1 < digits.size(); i += 2) {
      bytes += static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16));
    }
    return bytes;
  };
  if (vector.contains("text")) return vector.at("text").get<std::string>();
  if (vector.contains("text_hex")) return hex(vector.at("text_hex"));
  std::string bytes = hex(vector.value("prefix_hex", "")) +
                      Vectors().at("stores").at(vector.at("store").get<std::string>()).dump() +
                      hex(vector.value("suffix_hex", ""));
  if (vector.contains("pad_to_bytes")) bytes.resize(vector.at("pad_to_bytes").get<size_t>(), ' ');
  return bytes;
}

Query QueryOf(const json& q) {
  Query query{.adapter_key = q.at("adapter_key"), .kernel = q.at("kernel")};
  query.variant = q.value("variant", "");
  query.problem = q.value("problem", "");
  const json shape = q.value("shape", json::object());  // a temporary would dangle in the loop
  for (const auto& [name, size] : shape.items()) {
    query.shape[name] = size.get<double>();
  }
  query.default_limits = q.value("default_limits", false);
  query.dawn_package = q.value("dawn_package", "");
  query.kernel_hash = q.value("kernel_hash", "");
  query.axes_hash = q.value("axes_hash", "");
  return query;
}

TEST(ProfileVectors, EveryQueryGetsTheSharedAnswer) {
  ASSERT_GE(Vectors().at("queries").size(), 10u);
  for (const json& vector : Vectors().at("queries")) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    const Store store = StoreNamed(vector.at("store"));
    const Answer answer = Lookup(store, QueryOf(vector.at("query")));
    const json& expect = vector.at("expect");
    if (expect.at("params").is_null()) {
      EXPECT_FALSE(answer.choice.has_value());
    } else {
      ASSERT_TRUE(answer.choice.has_value()) << answer.note;
      EXPECT_EQ(json(answer.choice->params), expect.at("params"));
    }
    EXPECT_EQ(answer.exact, expect.at("exact").get<bool>());
    if (expect.at("problem").is_null()) {
      EXPECT_EQ(answer.entry, nullptr);
    } else {
      ASSERT_NE(answer.entry, nullptr);
      EXPECT_EQ(answer.entry->problem, expect.at("problem").get<std::string>());
    }
    EXPECT_EQ(answer.note, expect.at("note").get<std::string>());
    std::vector<std::string> stale;
    for (const Stale& s : answer.stale) {
      stale.push_back(s.problem);
      EXPECT_FALSE(s.reason.empty());
    }
    EXPECT_EQ(json(stale), expect.at("stale"));
  }
}

TEST(ProfileVectors, EveryInvalidTextIsRefusedNamingTheProblem) {
  ASSERT_GE(Vectors().at("invalid").size(), 10u);
  for (const json& vector : Vectors().at("invalid")) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    try {
      ParseStore(BytesOf(vector));
      ADD_FAILURE() << "read without an error";
    } catch (const ProfileError& error) {
      EXPECT_NE(std::string(error.what()).find(vector.at("error").get<std::string>()),
                std::string::npos)
          << error.what();
    }
  }
}

TEST(ProfileVectors, EveryAcceptedTextIsRead) {
  ASSERT_GE(Vectors().at("accepted").size(), 3u);
  for (const json& vector : Vectors().at("accepted")) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    EXPECT_EQ(ParseStore(BytesOf(vector)).profiles.size(), vector.at("adapters").get<size_t>());
  }
}

TEST(ProfileVectors, MergesKeepOtherAdaptersAndTheNewerEntry) {
  for (const json& vector : Vectors().at("merges")) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    std::vector<std::string> notes;
    const Store merged =
        Merge(StoreNamed(vector.at("base")), StoreNamed(vector.at("incoming")), &notes);
    const json& expect = vector.at("expect");
    std::vector<std::string> adapters;
    for (const AdapterProfile& p : merged.profiles) adapters.push_back(p.adapter.key);
    EXPECT_EQ(json(adapters), expect.at("adapters"));
    for (const json& winner : expect.at("winners")) {
      const Answer answer = Lookup(merged, {.adapter_key = winner.at("adapter"),
                                            .kernel = "matmul-q4",
                                            .variant = winner.at("variant"),
                                            .problem = winner.at("problem")});
      ASSERT_TRUE(answer.choice.has_value()) << answer.note;
      EXPECT_EQ(json(answer.choice->params), winner.at("params"));
    }
    for (const json& line : expect.at("notes")) {
      EXPECT_NE(std::find(notes.begin(), notes.end(), line.get<std::string>()), notes.end())
          << line;
    }
  }
}

TEST(ProfileVectors, EveryKernelHashIsComputedFromItsFiles) {
  ASSERT_GE(Vectors().at("kernel_hashes").size(), 3u);
  for (const json& vector : Vectors().at("kernel_hashes")) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    std::vector<KernelText> kernels;
    for (const json& kernel : vector.at("kernels")) {
      kernels.push_back({.name = kernel.at("name"), .text = kernel.at("text")});
    }
    EXPECT_EQ(KernelHash(kernels), vector.at("hash").get<std::string>());
  }
}

TEST(ProfileVectors, EveryAdapterKeyIsMadeFromItsFields) {
  ASSERT_GE(Vectors().at("adapter_keys").size(), 3u);
  for (const json& vector : Vectors().at("adapter_keys")) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    const json& a = vector.at("adapter");
    const Adapter adapter{.vendor = a.at("vendor"),
                          .architecture = a.at("architecture"),
                          .device = a.at("device"),
                          .vendor_id = a.at("vendor_id"),
                          .device_id = a.at("device_id"),
                          .driver = a.at("driver"),
                          .backend = a.at("backend"),
                          .subgroup_min_size = a.at("subgroup_min_size"),
                          .subgroup_max_size = a.at("subgroup_max_size")};
    EXPECT_EQ(AdapterKeyOf(adapter), vector.at("key").get<std::string>());
  }
  for (const std::string name : {"two-adapters", "newer"}) {
    for (const AdapterProfile& profile : StoreNamed(name).profiles) {
      EXPECT_EQ(AdapterKeyOf(profile.adapter), profile.adapter.key);
    }
  }
}

TEST(ProfileStore, RoundTripsThroughItsJson) {
  const Store store = StoreNamed("two-adapters");
  const std::string text = StoreToJson(store);
  const Store again = ParseStore(text);
  EXPECT_EQ(again, store);
  EXPECT_EQ(StoreToJson(again), text);
  EXPECT_EQ(again.profiles.size(), 2u);
}

TEST(ProfileStore, WhatIsNoRegularFileIsRefusedWithoutBeingOpened) {
  const testing::ScratchFolder folder("profile-special-files");
  const std::string fifo = (folder.path() / "store-fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // A named pipe with no writer would block an open for reading for ever: it must be refused
  // before any open, so this test ends (ctest's timeout would be the failure otherwise).
  for (const auto& [path, says] : std::vector<std::pair<std::string, std::string>>{
           {fifo, "is a named pipe, not a file"},
           {folder.path().string(), "is a folder, not a file"},
           {"/dev/zero", "is a device, not a file"},
           {"/dev/null", "is a device, not a file"},
           {(folder.path() / "missing.json").string(), "cannot be opened"}}) {
    SCOPED_TRACE(path);
    try {
      LoadStore(path);
      ADD_FAILURE() << "read";
    } catch (const ProfileError& error) {
      EXPECT_EQ(std::string(error.what()).rfind(path + ": " + says, 0), 0u) << error.what();
    }
  }
  // Through a link, the target is what counts.
  const std::string link = (folder.path() / "link-to-fifo").string();
  ASSERT_EQ(symlink(fifo.c_str(), link.c_str()), 0);
  EXPECT_THROW(LoadStore(link), ProfileError);
}

TEST(ProfileStore, TheSizeLimitIsSixtyFourMebibytesExactly) {
  const std::string store = StoreToJson(StoreNamed("two-adapters"));
  std::string text = store;
  text.resize(size_t{64} << 20, ' ');
  EXPECT_FALSE(document::TextProblem(text).has_value());
  text.push_back(' ');
  EXPECT_EQ(document::TextProblem(text), "larger than 64 MiB: no refract document");
}

TEST(ProfileStore, MissingFileAndRandomBytesAreClearErrors) {
  EXPECT_THROW(LoadStore("/nonexistent/refract-profile.json"), ProfileError);
  const std::string valid = StoreToJson(StoreNamed("two-adapters"));
  std::mt19937 random(7);
  int refused = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % text.size();
      switch (random() % 3) {
        case 0:
          text[at] = static_cast<char>(random() % 256);
          break;
        case 1:
          text.erase(at, 1 + random() % 16);
          break;
        default:
          text.resize(at);
          break;
      }
    }
    try {
      ParseStore(text);  // some mutations leave a valid store: that is fine
    } catch (const ProfileError& error) {
      EXPECT_GT(std::string(error.what()).size(), 5u);
      ++refused;
    }
  }
  EXPECT_GT(refused, 200);  // most random edits break the text, and each is an error, not a crash
}

TEST(ProfileHashes, KernelHashFollowsEveryTextAndNotTheOrder) {
  const std::string a = KernelHash({{"b", "two"}, {"a", "one"}});
  EXPECT_EQ(a, KernelHash({{"a", "one"}, {"b", "two"}}));
  EXPECT_NE(a, KernelHash({{"a", "one"}, {"b", "two "}}));
  EXPECT_NE(a, KernelHash({{"a", "one"}, {"c", "two"}}));
  // The boundary between name and text is part of the hash.
  EXPECT_NE(KernelHash({{"ab", "c"}}), KernelHash({{"a", "bc"}}));
  EXPECT_EQ(a.size(), 64u);
}

TEST(ProfileHashes, AxesHashChangesWithANameAMeaningOrTheAllowedValues) {
  const AxisText wg{"wg", "invocations of a workgroup", "a power of two from 32 to 1024"};
  const AxisText rows{"rows", "rows an invocation takes", "1 to 8"};
  const std::string hash = AxesHash({wg, rows});
  EXPECT_EQ(hash, AxesHash({rows, wg}));
  EXPECT_NE(hash, AxesHash({{"workgroup", wg.meaning, wg.allowed}, rows}));
  EXPECT_NE(hash, AxesHash({{wg.name, "threads", wg.allowed}, rows}));
  EXPECT_NE(hash, AxesHash({{wg.name, wg.meaning, "a power of two from 32 to 256"}, rows}));
}

}  // namespace
}  // namespace refract::profile
