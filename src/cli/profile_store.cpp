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

void AddSweepToStore(const std::string& path, const results::RunRecord& record,
                     const suites::sweeps::SweepReview& review, bool replace, std::ostream& out,
                     std::ostream& lines) {
  std::vector<std::string> notes;
  const std::vector<profile::Entry> entries =
      suites::sweeps::EntriesOf(record.rows, review, record.finished_at, notes);
  for (const std::string& note : notes) lines << note << "\n";
  if (entries.empty()) {
    lines << "the profile " << path << " is unchanged: no sweep problem has a winner\n";
    return;
  }
  const profile::Adapter adapter = suites::sweeps::AdapterOf(IdentityOf(record.device));
  std::vector<std::string> kept;
  const profile::Store store =
      suites::sweeps::WithEntries(ReadStoreOrEmpty(path), adapter, entries, replace, kept);
  for (const std::string& note : kept) lines << note << "\n";
  const size_t written = entries.size() - kept.size();
  if (written == 0) {
    lines << "the profile " << path << " is unchanged: every entry it has is kept\n";
    return;
  }
  WriteStore(path, store, out);
  if (path != "-") {
    lines << "profile written to " << path << ": " << written << " entr"
          << (written == 1 ? "y" : "ies") << " for " << adapter.key << "\n";
  }
}

}  // namespace refract::cli
