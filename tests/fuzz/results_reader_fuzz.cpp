// libFuzzer target: the readers of refract's JSON documents (results/record_file.h) and of
// profile stores (refract/profile.h) on any bytes, and on semantic mutations of any input that
// is JSON (a number made negative, zero, null, tiny or huge). A crash, a sanitizer report, a
// hang, an exception that is neither refract::Error nor profile::ProfileError, an error that
// does not name its source, or a record or store that does not survive writing and reading back
// is a finding. Build and run: `make fuzz` (README, "Fuzzing").
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
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
  }
  // Anything else thrown escapes, and libFuzzer reports it with the input.
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
}

/// The profile store reader (include/refract/profile.h): a store or a ProfileError with a
/// message, and a store read writes and reads back equal.
void CheckProfile(std::string_view text) {
  try {
    const refract::profile::Store store = refract::profile::ParseStore(text);
    if (refract::profile::ParseStore(refract::profile::StoreToJson(store)) != store) {
      Finding("profile round trip changed the store");
    }
  } catch (const refract::profile::ProfileError& error) {
    if (std::string_view(error.what()).empty()) Finding("profile error without a message");
  }
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
  Check([](std::string_view input) { refract::results::ParseDeviceInfo(input, kSource); }, text);
  CheckProfile(text);
  CheckSemanticMutations(
      [](std::string_view input) {
        CheckProfile(input);
        return 0;
      },
      text);
  return 0;
}
