#include "cli/kernels_profile.h"

#include <algorithm>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::cli {
namespace {

std::string Listed(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

/// `id`'s row among `kernel`'s rows made with `settings`.
std::unique_ptr<suites::kernels::KernelBenchmark> Rebuilt(
    const std::string& kernel, const std::string& id, const ops::Settings& settings,
    suites::kernels::KernelSelection selection, suites::kernels::CatalogOptions catalog) {
  selection.kernels = {kernel};
  catalog.settings = settings;
  for (auto& row : suites::kernels::MakeKernelRows(selection, catalog)) {
    if (row->info().id != id) continue;
    auto* kernel_row = dynamic_cast<suites::kernels::KernelBenchmark*>(row.get());
    REFRACT_THROW_IF(kernel_row == nullptr, Error, id + " is no kernels row");
    row.release();
    return std::unique_ptr<suites::kernels::KernelBenchmark>(kernel_row);
  }
  throw Error("no kernels row " + id + " with the profile's settings");
}

}  // namespace

std::vector<std::string> KernelsCompiled(gpu::Context& context,
                                         suites::kernels::KernelBenchmark& row) {
  wgsl::TakeKernelsUsed();  // only this row's compiles count below
  try {
    row.Prepare(context);
  } catch (...) {
    row.Release();
    throw;
  }
  std::vector<std::string> compiled = wgsl::TakeKernelsUsed();
  row.Release();
  context.Settle();
  return compiled;
}

std::optional<std::string> EntryRefusal(const profile::Entry& entry,
                                        const std::vector<ops::Axis>& axes) {
  const ops::Settings settings(entry.winner.params.begin(), entry.winner.params.end());
  return ops::SettingsProblem(settings, axes);
}

std::optional<std::string> StaleFor(const profile::Entry& entry,
                                    const std::vector<std::string>& compiled,
                                    const std::vector<ops::Axis>& axes) {
  if (entry.stamp.kernels != compiled) {
    return "it names the kernels " + Listed(entry.stamp.kernels) +
           ", its configuration compiles " + Listed(compiled);
  }
  const profile::Query expect{.dawn_package = REFRACT_DAWN_PACKAGE,
                              .kernel_hash = wgsl::KernelsHash(compiled),
                              .axes_hash = ops::AxesHashOf(axes)};
  return profile::StaleReason(entry, expect);
}

void ApplyProfile(const profile::Store& store, gpu::Context& context,
                  const suites::kernels::KernelSelection& selection,
                  const suites::kernels::CatalogOptions& catalog,
                  std::vector<std::unique_ptr<bench::Benchmark>>& rows) {
  const std::string key = IdentityOf(context.description()).Key();
  const auto profile =
      std::find_if(store.profiles.begin(), store.profiles.end(),
                   [&](const profile::AdapterProfile& p) { return p.adapter.key == key; });
  for (auto& row : rows) {
    auto* kernel_row = dynamic_cast<suites::kernels::KernelBenchmark*>(row.get());
    if (kernel_row == nullptr || kernel_row->variant() == suites::kernels::Variant::kBaseline) {
      continue;
    }
    const bench::BenchmarkInfo& info = kernel_row->info();
    const std::string kernel = info.identity.kernel;
    const std::string variant = info.identity.variant;
    const std::string problem = info.identity.problem;
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
    std::unique_ptr<suites::kernels::KernelBenchmark> winner;
    if (entry != nullptr) {
      const std::vector<ops::Axis> axes = kernel_row->OpAxes();
      const ops::Settings settings(entry->winner.params.begin(), entry->winner.params.end());
      if (const std::optional<std::string> refusal = EntryRefusal(*entry, axes)) {
        source = "built-in default: the profile entry is refused: " + *refusal;
      } else {
        try {
          suites::kernels::CatalogOptions one_copy = catalog;
          one_copy.cold_footprint_bytes = 1;
          auto probe = Rebuilt(kernel, info.id, settings, selection, one_copy);
          if (auto missing = probe->MissingRequirement(context)) {
            source = "built-in default: the profile entry is refused: its configuration cannot "
                     "run here: " + *missing;
          } else if (auto stale = StaleFor(*entry, KernelsCompiled(context, *probe), axes)) {
            source = "built-in default: the profile entry is stale: " + *stale;
          } else {
            winner = Rebuilt(kernel, info.id, settings, selection, catalog);
          }
        } catch (const DeviceLostError&) {
          throw;
        } catch (const Error& error) {
          source = "built-in default: the profile entry is refused: its configuration does "
                   "not compile here: " + std::string(error.what());
        }
      }
    }
    if (winner) {
      row = std::move(winner);
      kernel_row = dynamic_cast<suites::kernels::KernelBenchmark*>(row.get());
      source =
          "profile: the " + entry->sweep + " sweep's winner, measured " + entry->stamp.measured_at;
    }
    kernel_row->Rename(kernel_row->info().id, kernel_row->info().category,
                       {{kConfigSourceParam, source}});
  }
}

}  // namespace refract::cli
