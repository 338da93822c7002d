// refract profile show | merge | check: the profile stores `refract sweep --profile` writes
// (docs/PROFILES.md). Reading is strict: a file that is not a store is exit 2, left untouched.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <ostream>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "cli/app.h"
#include "cli/commands.h"
#include "cli/gpu_options.h"
#include "cli/profile_store.h"
#include "cli/report_outputs.h"
#include "gpu/context.h"
#include "kernels/embedded_kernels.h"
#include "suites/sweeps/sweep_catalog.h"

namespace refract::cli {
namespace {

constexpr const char* kDefaultStore = "refract-profile.json";

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// The profiles whose adapter key contains `adapter` (any case); all when it is empty.
profile::Store Selected(const profile::Store& store, const std::string& adapter) {
  if (adapter.empty()) return store;
  profile::Store selected;
  for (const profile::AdapterProfile& p : store.profiles) {
    if (Lower(p.adapter.key).find(Lower(adapter)) != std::string::npos) {
      selected.profiles.push_back(p);
    }
  }
  return selected;
}

std::string SettingsText(const std::map<std::string, uint32_t>& params) {
  std::string text;
  for (const auto& [name, value] : params) {
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(value);
  }
  return text.empty() ? "(no axes)" : text;
}

/// A dispatch's time [ms] as µs, or as ms from a millisecond on.
std::string Duration(double ms) {
  return ms >= 1 ? fmt::format("{:.3f} ms", ms) : fmt::format("{:.2f} µs", ms * 1000);
}

std::string ChoiceText(const profile::Choice& choice) {
  std::string text =
      fmt::format("{}  {} (p10–p90 {}–{})", SettingsText(choice.params), Duration(choice.median_ms),
                  Duration(choice.p10_ms), Duration(choice.p90_ms));
  if (choice.runner_up_margin) {
    text += fmt::format(", runner-up +{:.1f} %", 100 * *choice.runner_up_margin);
  }
  if (choice.over_default)
    text += fmt::format(", {:.2f}x the built-in default", *choice.over_default);
  if (choice.over_seed) text += fmt::format(", {:.2f}x the seed's", *choice.over_seed);
  return text;
}

void PrintStore(std::ostream& out, const profile::Store& store) {
  if (store.profiles.empty()) out << "no profile matches\n";
  for (const profile::AdapterProfile& p : store.profiles) {
    out << p.adapter.key << "  (" << p.entries.size() << " entr"
        << (p.entries.size() == 1 ? "y" : "ies") << ")\n";
    for (const profile::Entry& e : p.entries) {
      out << "  " << e.sweep << "  " << e.kernel << " " << e.variant << "  " << e.problem << "\n"
          << "    winner: " << ChoiceText(e.winner) << "\n";
      if (!e.winner_default_limits) {
        out << "    within the default limits: none measured\n";
      } else if (e.winner_default_limits->row == e.winner.row) {
        out << "    within the default limits: the same\n";
      } else {
        out << "    within the default limits: " << ChoiceText(*e.winner_default_limits) << "\n";
      }
      for (const profile::Cliff& cliff : e.cliffs) {
        out << fmt::format("    cliff at {} = {:g}: {}\n", cliff.axis, cliff.at, cliff.reason);
      }
      out << "    measured " << e.stamp.measured_at << " with refract " << e.stamp.refract_version
          << ", " << e.stamp.dawn_package << "\n";
    }
  }
}

struct ShowOptions {
  std::string path = kDefaultStore;
  std::string adapter;
  bool json = false;
};

int Show(const ShowOptions& options, std::ostream& out) {
  const profile::Store store = Selected(ReadStore(options.path), options.adapter);
  if (options.json) {
    out << profile::StoreToJson(store);
  } else {
    PrintStore(out, store);
  }
  return kExitOk;
}

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output;
};

int Merge(const MergeOptions& options, std::ostream& out, std::ostream& err) {
  CheckOutputPaths({options.output}, options.inputs);
  std::vector<profile::Store> stores;
  for (const std::string& input : options.inputs) stores.push_back(ReadStore(input));
  profile::Store merged;
  std::vector<std::string> notes;
  for (size_t i = 0; i < stores.size(); ++i) {
    notes.push_back("from " + options.inputs[i] + ":");
    merged = profile::Merge(merged, stores[i], &notes);
  }
  WriteStore(options.output, merged, out);
  std::ostream& lines = options.output == "-" ? err : out;
  for (const std::string& note : notes) lines << note << "\n";
  if (options.output != "-") {
    size_t entries = 0;
    for (const auto& p : merged.profiles) entries += p.entries.size();
    lines << fmt::format("merged into {}: {} adapter{}, {} entries\n", options.output,
                         merged.profiles.size(), merged.profiles.size() == 1 ? "" : "s", entries);
  }
  return kExitOk;
}

struct CheckOptions {
  std::string path = kDefaultStore;
  GpuOptions gpu;
};

/// The sweep row `entry`'s winner was measured as, rebuilt by this refract; null when it has
/// none of that id (a sweep or grid since changed).
std::unique_ptr<suites::kernels::KernelBenchmark> WinnerRow(const profile::Entry& entry) {
  const std::string prefix = "kernel:";
  for (bool quick : {false, true}) {
    suites::sweeps::SweepSelection selection{.quick = quick, .seed = 1, .cold_footprint_bytes = 1};
    if (entry.sweep.rfind(prefix, 0) == 0) {
      selection.kernels = {entry.sweep.substr(prefix.size())};
    } else {
      selection.sweeps = {entry.sweep};
    }
    std::vector<suites::sweeps::Sweep> sweeps;
    try {
      sweeps = suites::sweeps::MakeSweeps(selection);
    } catch (const UsageError&) {
      return nullptr;  // a sweep or kernel this refract does not have
    }
    for (auto& sweep : sweeps) {
      for (auto& row : sweep.rows) {
        if (row && row->info().id == entry.winner.row) return std::move(row);
      }
    }
  }
  return nullptr;
}

/// Re-verifies every winner of this device's entries against the CPU reference.
int Check(const CheckOptions& options, std::ostream& out) {
  const profile::Store store = ReadStore(options.path);
  gpu::Context context(ToContextOptions(options.gpu));
  const std::string key = IdentityOf(context.description()).Key();
  const auto found =
      std::find_if(store.profiles.begin(), store.profiles.end(),
                   [&](const profile::AdapterProfile& p) { return p.adapter.key == key; });
  if (found == store.profiles.end()) {
    out << "no profile of this adapter (" << key << ") in " << options.path << "\n";
    return kExitOk;
  }
  int wrong = 0;
  int stale = 0;
  for (const profile::Entry& entry : found->entries) {
    const std::string what = entry.sweep + " " + entry.problem + " " + entry.winner.row;
    std::unique_ptr<suites::kernels::KernelBenchmark> row = WinnerRow(entry);
    if (!row) {
      out << "stale   " << what << ": this refract has no such configuration\n";
      ++stale;
      continue;
    }
    profile::Query expect{.dawn_package = REFRACT_DAWN_PACKAGE,
                          .kernel_hash = wgsl::KernelsHash(entry.stamp.kernels),
                          .axes_hash = ops::AxesHashOf(row->OpAxes())};
    if (auto reason = profile::StaleReason(entry, expect)) {
      out << "stale   " << what << ": " << *reason << "\n";
      ++stale;
      continue;
    }
    try {
      if (auto missing = row->MissingRequirement(context)) {
        out << "skipped " << what << ": " << *missing << "\n";
        continue;
      }
      row->Prepare(context);
      const VerificationRecord record = row->Verify(context);
      out << fmt::format("ok      {}: verified, {} elements, largest error {:.3g}\n", what,
                         record.elements, record.max_abs_error);
    } catch (const DeviceLostError&) {
      throw;
    } catch (const Error& error) {
      out << "WRONG   " << what << ": " << error.what() << "\n";
      ++wrong;
    }
    row->Release();
    row.reset();
    context.Settle();
  }
  out << fmt::format("{} entries: {} no longer compute the right answer, {} stale\n",
                     found->entries.size(), wrong, stale);
  return wrong > 0 ? kExitRowsFailed : kExitOk;
}

}  // namespace

Registered RegisterProfile(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("profile", "Show, merge or re-check profile stores (docs/PROFILES.md)");
  command->require_subcommand(1);

  auto show = std::make_shared<ShowOptions>();
  CLI::App* show_command = command->add_subcommand("show", "Print a store's winners");
  show_command->add_option("file", show->path, "The store")->capture_default_str();
  show_command->add_option("--adapter", show->adapter,
                           "Only the adapters whose key contains this (any case)");
  show_command->add_flag("--json", show->json, "The selected profiles as a store, in JSON");

  auto merge = std::make_shared<MergeOptions>();
  CLI::App* merge_command = command->add_subcommand(
      "merge", "Combine stores: the newer entry of the same adapter and problem wins");
  merge_command->add_option("inputs", merge->inputs, "The stores, in order")
      ->required()
      ->expected(1, -1);
  merge_command->add_option("-o,--output", merge->output, "The merged store (- = stdout)")
      ->required();

  auto check = std::make_shared<CheckOptions>();
  CLI::App* check_command =
      command->add_subcommand("check", "Re-verify this device's winners against the CPU reference");
  check_command->add_option("file", check->path, "The store")->capture_default_str();
  AddGpuOptions(*check_command, check->gpu);

  Action action = [=](std::ostream& out, std::ostream& err) {
    if (show_command->parsed()) return Show(*show, out);
    if (merge_command->parsed()) return Merge(*merge, out, err);
    return Check(*check, out);
  };
  return {command, action};
}

}  // namespace refract::cli
