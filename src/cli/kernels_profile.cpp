#include "cli/kernels_profile.h"

#include <algorithm>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "kernels/embedded_kernels.h"
#include "suites/kernels/kernel_benchmark.h"

namespace refract::cli {
namespace {

std::string TextParam(const bench::BenchmarkInfo& info, const char* name) {
  auto found = info.params.find(name);
  return found != info.params.end() && found->second.IsText() ? found->second.AsText() : "";
}

/// `id`'s row among `kernel`'s rows made with `settings`.
std::unique_ptr<bench::Benchmark> Rebuilt(const std::string& kernel, const std::string& id,
                                          const ops::Settings& settings,
                                          suites::kernels::KernelSelection selection,
                                          suites::kernels::CatalogOptions catalog) {
  selection.kernels = {kernel};
  catalog.settings = settings;
  for (auto& row : suites::kernels::MakeKernelRows(selection, catalog)) {
    if (row->info().id == id) return std::move(row);
  }
  throw Error("no kernels row " + id + " with the profile's settings");
}

}  // namespace

void ApplyProfile(const profile::Store& store, const DeviceDescription& device,
                  const suites::kernels::KernelSelection& selection,
                  const suites::kernels::CatalogOptions& catalog,
                  std::vector<std::unique_ptr<bench::Benchmark>>& rows) {
  const std::string key = IdentityOf(device).Key();
  const auto profile =
      std::find_if(store.profiles.begin(), store.profiles.end(),
                   [&](const profile::AdapterProfile& p) { return p.adapter.key == key; });
  for (auto& row : rows) {
    auto* kernel_row = dynamic_cast<suites::kernels::KernelBenchmark*>(row.get());
    if (kernel_row == nullptr || kernel_row->variant() == suites::kernels::Variant::kBaseline) {
      continue;
    }
    const bench::BenchmarkInfo& info = kernel_row->info();
    const std::string kernel = TextParam(info, "kernel");
    const std::string variant(suites::kernels::VariantName(kernel_row->variant()));
    const std::string problem = info.id.substr(info.id.find('/') + 1);
    std::string source;
    const profile::Entry* entry = nullptr;
    if (profile == store.profiles.end()) {
      source = "built-in default: the profile has no entry of this adapter (" +
               std::to_string(store.profiles.size()) + " other adapter" +
               (store.profiles.size() == 1 ? "" : "s") + ")";
    } else {
      for (const profile::Entry& e : profile->entries) {
        if (e.kernel == kernel && e.variant == variant && e.problem == problem) entry = &e;
      }
      if (entry == nullptr) source = "built-in default: no profile entry of this problem";
    }
    if (entry != nullptr) {
      const profile::Query expect{.dawn_package = REFRACT_DAWN_PACKAGE,
                                  .kernel_hash = wgsl::KernelsHash(entry->stamp.kernels),
                                  .axes_hash = ops::AxesHashOf(kernel_row->OpAxes())};
      if (auto reason = profile::StaleReason(*entry, expect)) {
        source = "built-in default: the profile entry is stale: " + *reason;
        entry = nullptr;
      }
    }
    if (entry != nullptr) {
      const ops::Settings settings(entry->winner.params.begin(), entry->winner.params.end());
      row = Rebuilt(kernel, info.id, settings, selection, catalog);
      kernel_row = dynamic_cast<suites::kernels::KernelBenchmark*>(row.get());
      source =
          "profile: the " + entry->sweep + " sweep's winner, measured " + entry->stamp.measured_at;
    }
    kernel_row->Rename(kernel_row->info().id, kernel_row->info().category,
                       {{kConfigSourceParam, source}});
  }
}

}  // namespace refract::cli
