// libFuzzer target: the readers of refract's JSON documents (results/record_file.h) and of
// profile stores (refract/profile.h) on any bytes, on semantic mutations of any input that is
// JSON (a number made negative, zero, null, tiny or huge, or past a double's range), on the
// text classes of profile/document_text.h (a leading byte order mark changes nothing; a NUL and
// what follows it, or a byte that is never UTF-8, is refused), and on store values that mean
// nothing for a kernel (read as written; refused by ops::SettingsProblem, the check refract
// applies before it runs an entry). A crash, a sanitizer report, a hang, an exception that is
// neither refract::Error nor profile::ProfileError, an error that does not name its source, a
// record or store that does not survive writing and reading back, or a class that is not held
// is a finding. Build and run: `make fuzz` (README, "Fuzzing").
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "ops/axis.h"
#include "refract/profile.h"
#include "results/json_io.h"
#include "results/record_file.h"

namespace {

constexpr const char* kSource = "fuzz-input.json";

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "finding: %s\n", what.c_str());
  std::abort();
}

template <typename Parse>
void Check(Parse parse, std::string_view text) {
  try {
    parse(text);
  } catch (const refract::Error& error) {
    const std::string message = error.what();
    if (message.rfind(std::string("'") + kSource + "': ", 0) != 0) {
      Finding("error does not start with the source: " + message);
    }
  } catch (const refract::profile::ProfileError& error) {
    if (std::string_view(error.what()).empty()) Finding("profile error without a message");
  }
  // Anything else thrown escapes, and libFuzzer reports it with the input.
}

/// Whether `parse` refuses `text` (throws refract::Error or profile::ProfileError).
template <typename Parse>
bool Refused(Parse parse, std::string_view text) {
  try {
    parse(text);
  } catch (const refract::Error&) {
    return true;
  } catch (const refract::profile::ProfileError&) {
    return true;
  }
  return false;
}

// Every number of `value`, by JSON pointer.
void Numbers(const nlohmann::json& value, const nlohmann::json::json_pointer& at,
             std::vector<nlohmann::json::json_pointer>& out) {
  if (value.is_number()) out.push_back(at);
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) Numbers(item, at / key, out);
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) Numbers(value[i], at / i, out);
  }
}

// Semantic mutations of a document that is JSON: one of its numbers (picked by the input's
// bytes) made negative, zero, null, a millionth and a trillion times itself. Each variant must
// read as a record that round-trips or fail naming the source, like any input.
template <typename Parse>
void CheckSemanticMutations(Parse parse, std::string_view text) {
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_discarded()) return;
  std::vector<nlohmann::json::json_pointer> numbers;
  Numbers(document, nlohmann::json::json_pointer(), numbers);
  if (numbers.empty()) return;
  const size_t pick = std::hash<std::string_view>{}(text) % numbers.size();
  const nlohmann::json& original = document[numbers[pick]];
  const double value = original.get<double>();
  for (const nlohmann::json& replacement :
       {nlohmann::json(-value - 1), nlohmann::json(0), nlohmann::json(nullptr),
        nlohmann::json(value * 1e-6), nlohmann::json(value * 1e12)}) {
    nlohmann::json changed = document;
    changed[numbers[pick]] = replacement;
    Check(parse, changed.dump());
  }
  // Past a double's range: JSON text can hold it, a double cannot (written as text).
  nlohmann::json marked = document;
  marked[numbers[pick]] = "@huge@";
  std::string huge = marked.dump();
  huge.replace(huge.find("\"@huge@\""), 8, "-1e400");
  Check(parse, huge);
  if (!Refused(parse, huge)) Finding("a number past a double was read");
}

// The text classes, on an input that `parse` reads: with a leading byte order mark it still
// reads; with a NUL and garbage after it, or a byte that is never UTF-8 inside it, it is refused.
// (A number past a double's range: CheckSemanticMutations.)
template <typename Parse>
void CheckTextClasses(Parse parse, std::string_view text) {
  if (Refused(parse, text)) return;
  const std::string whole(text);
  if (Refused(parse, "\xEF\xBB\xBF" + whole)) Finding("a leading byte order mark was refused");
  if (!Refused(parse, whole + std::string("\0}", 2))) Finding("a NUL and garbage were read");
  const size_t at = std::hash<std::string_view>{}(text) % (whole.size() + 1);
  if (!Refused(parse, whole.substr(0, at) + "\xFF" + whole.substr(at))) {
    Finding("a 0xFF byte was read");
  }
}

/// Values a store may hold that mean nothing for a kernel (a workgroup of 100 or 0, a flag of
/// 2, an axis the op lacks, no params): the reader takes them as written, and the check refract
/// applies before it runs an entry refuses every one.
void CheckMeaninglessParams(const refract::profile::Store& store) {
  using refract::ops::Settings;
  static const std::vector<refract::ops::Axis> axes = {
      refract::ops::WorkgroupAxis(),
      refract::ops::FlagAxis("subgroups", "1: subgroup operations", "1 where there are some"),
      refract::ops::CountAxis("items", "vec4 an invocation sums", "8", 64, {1, 8})};
  const std::vector<Settings> meaningless = {{{"wg", 100}, {"subgroups", 0}, {"items", 1}},
                                             {{"wg", 0}, {"subgroups", 0}, {"items", 1}},
                                             {{"wg", 64}, {"subgroups", 2}, {"items", 1}},
                                             {{"wg", 64}, {"subgroups", 0}, {"tiles", 4}},
                                             {}};
  for (size_t p = 0; p < store.profiles.size(); ++p) {
    for (size_t e = 0; e < store.profiles[p].entries.size(); ++e) {
      for (const Settings& params : meaningless) {
        refract::profile::Store changed = store;
        changed.profiles[p].entries[e].winner.params = {params.begin(), params.end()};
        if (refract::profile::ParseStore(refract::profile::StoreToJson(changed)) != changed) {
          Finding("a store with meaningless params did not read back as written");
        }
        if (!refract::ops::SettingsProblem(params, axes)) Finding("meaningless params passed");
      }
    }
  }
}

/// The profile store reader (include/refract/profile.h): a store (which writes and reads back
/// equal, and holds the meaningless-params class) or a ProfileError, which escapes.
void ReadProfile(std::string_view text) {
  const refract::profile::Store store = refract::profile::ParseStore(text);
  if (refract::profile::ParseStore(refract::profile::StoreToJson(store)) != store) {
    Finding("profile round trip changed the store");
  }
  CheckMeaninglessParams(store);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto read_run = [](std::string_view input) {
    const refract::results::RunRecord record = refract::results::ParseRunRecord(input, kSource);
    // What was read writes and reads back to the same document.
    const nlohmann::json written = refract::results::ToJson(record);
    const refract::results::RunRecord again =
        refract::results::ParseRunRecord(written.dump(), "written");
    if (refract::results::ToJson(again) != written) Finding("round trip changed the record");
  };
  Check(read_run, text);
  CheckSemanticMutations(read_run, text);
  CheckTextClasses(read_run, text);
  Check([](std::string_view input) { refract::results::ParseDeviceInfo(input, kSource); }, text);
  Check(ReadProfile, text);
  CheckSemanticMutations(ReadProfile, text);
  CheckTextClasses(ReadProfile, text);
  return 0;
}
