#include "cli/profile_store.h"

#include <filesystem>
#include <ostream>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "results/output_file.h"
#include "suites/sweeps/sweep_profile.h"

namespace refract::cli {

profile::Store ReadStore(const std::string& path) {
  try {
    return profile::LoadStore(path);
  } catch (const profile::ProfileError& error) {
    throw EnvironmentError(std::string("profile store ") + error.what());
  }
}

profile::Store ReadStoreOrEmpty(const std::string& path) {
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) return {};
  return ReadStore(path);
}

void WriteStore(const std::string& path, const profile::Store& store, std::ostream& out) {
  results::WriteOutput(path, profile::StoreToJson(store), out);
}

void AddSweepToStore(const std::string& path, const results::RunRecord& record, std::ostream& out,
                     std::ostream& lines) {
  std::vector<std::string> notes;
  const std::vector<profile::Entry> entries =
      suites::sweeps::EntriesOf(record.rows, record.finished_at, notes);
  for (const std::string& note : notes) lines << note << "\n";
  if (entries.empty()) {
    lines << "the profile " << path << " is unchanged: no sweep problem has a winner\n";
    return;
  }
  const profile::Adapter adapter = suites::sweeps::AdapterOf(IdentityOf(record.device));
  const profile::Store store =
      suites::sweeps::WithEntries(ReadStoreOrEmpty(path), adapter, entries);
  WriteStore(path, store, out);
  if (path != "-") {
    lines << "profile written to " << path << ": " << entries.size() << " entr"
          << (entries.size() == 1 ? "y" : "ies") << " for " << adapter.key << "\n";
  }
}

}  // namespace refract::cli
