// libFuzzer target: the readers of refract's JSON documents (results/record_file.h) on any
// bytes. A crash, a sanitizer report, a hang, an exception that is not refract::Error, an
// error that does not name its source, or a record that does not survive writing and reading
// back is a finding. Build and run: `make fuzz` (README, "Fuzzing").
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/error.h"
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Check(
      [](std::string_view input) {
        const refract::results::RunRecord record = refract::results::ParseRunRecord(input, kSource);
        // What was read writes and reads back to the same document.
        const nlohmann::json written = refract::results::ToJson(record);
        const refract::results::RunRecord again =
            refract::results::ParseRunRecord(written.dump(), "written");
        if (refract::results::ToJson(again) != written) Finding("round trip changed the record");
      },
      text);
  Check([](std::string_view input) { refract::results::ParseDeviceInfo(input, kSource); }, text);
  return 0;
}
