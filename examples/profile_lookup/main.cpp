// What an engine does with a refract profile store: load it, ask for the q4 GEMV
// configuration (refract's matmul-q4 on int8 activations) at its own N × K on its adapter,
// and fall back to its built-in default when the store has none.
//   profile_lookup STORE ADAPTER_KEY N K [DAWN_PACKAGE]
#include <refract/profile.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

/// `text` as a size: a finite number > 0, written whole.
std::optional<double> SizeOf(const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(value) || value <= 0) return std::nullopt;
  return value;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: profile_lookup STORE ADAPTER_KEY N K [DAWN_PACKAGE]\n";
    return 2;
  }
  const std::optional<double> n = SizeOf(argv[3]), k = SizeOf(argv[4]);
  if (!n || !k) {
    std::cerr << "profile_lookup: N and K must be numbers > 0, not '" << argv[3] << "', '"
              << argv[4] << "'\n";
    return 2;
  }
  refract::profile::Store store;
  try {
    store = refract::profile::LoadStore(argv[1]);
  } catch (const refract::profile::ProfileError& error) {
    std::cerr << "profile_lookup: " << error.what() << "\n";
    return 2;
  }
  refract::profile::Query query{
      .adapter_key = argv[2], .kernel = "matmul-q4", .variant = "tuned-q8"};
  query.shape = {{"m", 1}, {"n", *n}, {"k", *k}};
  if (argc > 5) query.dawn_package = argv[5];  // an entry of another Dawn is stale
  const refract::profile::Answer answer = refract::profile::Lookup(store, query);
  for (const refract::profile::Stale& stale : answer.stale) {
    std::cout << "stale: " << stale.problem << ": " << stale.reason << "\n";
  }
  if (!answer.choice) {
    std::cout << "built-in default: " << answer.note << "\n";
    return 0;
  }
  std::cout << (answer.exact ? "exact" : "nearest") << ": " << answer.note << "\n";
  for (const auto& [axis, value] : answer.choice->params) {
    std::cout << "  " << axis << " = " << value << "\n";
  }
  std::cout << "  measured " << answer.choice->median_ms * 1000 << " us a dispatch\n";
  return 0;
}
