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
#include "cli/number_checks.h"
#include "cli/gpu_options.h"
#include "cli/kernels_profile.h"
#include "cli/profile_store.h"
#include "cli/report_outputs.h"
#include "gpu/context.h"
#include "kernels/embedded_kernels.h"
#include "suites/sweeps/sweep_catalog.h"
#include "suites/user/user_sweep.h"
#include "tune/user_kernel.h"

namespace refract::cli {
namespace {

constexpr const char* kDefaultStore = "refract-profile.json";
/// `refract tune` entries are named after their spec: sweep "tune:<spec name>".
constexpr const char* kTunePrefix = "tune:";

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
  return params.empty() ? "(no axes)" : ops::SettingsText(params);
}

/// A dispatch's time [ms] as µs, or as ms from a millisecond on.
std::string Duration(double ms) {
  return ms >= 1 ? fmt::format("{:.3f} ms", ms) : fmt::format("{:.2f} µs", ms * 1000);
}

/// What a sweep's default row is: a `refract tune` spec's default, else refract's own.
std::string DefaultName(const std::string& sweep) {
  return sweep.rfind(kTunePrefix, 0) == 0 ? "the spec's default" : "the built-in default";
}

/// `choice` in a line; `default_name` is what its `over_default` compares with.
std::string ChoiceText(const profile::Choice& choice, const std::string& default_name) {
  std::string text =
      fmt::format("{}  {} (p10–p90 {}–{})", SettingsText(choice.params), Duration(choice.median_ms),
                  Duration(choice.p10_ms), Duration(choice.p90_ms));
  if (choice.runner_up_margin) {
    text += fmt::format(", runner-up +{:.1f} %", 100 * *choice.runner_up_margin);
  }
  if (choice.over_default)
    text += fmt::format(", {:.2f}x {}", *choice.over_default, default_name);
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
          << "    winner: " << ChoiceText(e.winner, DefaultName(e.sweep)) << ", of "
          << (e.grid ? std::to_string(e.grid->size()) + " configurations"
                     : std::string("a grid not recorded (schema 1)"))
          << "\n";
      if (!e.winner_default_limits) {
        out << "    within the default limits: none measured\n";
      } else if (e.winner_default_limits->row == e.winner.row) {
        out << "    within the default limits: the same\n";
      } else {
        out << "    within the default limits: " << ChoiceText(*e.winner_default_limits, DefaultName(e.sweep)) << "\n";
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
  std::string tune_kernel;  ///< --tune: a user kernel whose `refract tune` entries to re-verify
  std::string tune_spec;    ///< --spec: its spec
};

/// `entry`'s winner rebuilt by this refract from its params (the configuration itself, whatever
/// row id it was measured as) at the sweep's problem; null, with `why`, when this refract has no
/// such sweep or problem.
std::unique_ptr<suites::kernels::KernelBenchmark> WinnerRow(const profile::Entry& entry,
                                                            std::string& why) {
  const std::string prefix = "kernel:";
  const ops::Settings settings(entry.winner.params.begin(), entry.winner.params.end());
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
      why = "this refract has no sweep " + entry.sweep;
      return nullptr;
    }
    for (const suites::sweeps::Sweep& sweep : sweeps) {
      if (auto row = suites::sweeps::ConfigurationRow(sweep, entry.problem, settings)) return row;
    }
  }
  why = "this refract's " + entry.sweep + " sweep has no problem " + entry.problem;
  return nullptr;
}

/// `entry`'s winner as a row of the user's kernel `user` (a `refract tune` entry of its spec);
/// null, with `why`, when the files changed since it was measured or the spec has no such
/// problem.
std::unique_ptr<suites::kernels::KernelBenchmark> UserWinnerRow(
    const profile::Entry& entry, const std::shared_ptr<const tune::UserKernel>& user,
    std::string& why) {
  if (entry.stamp.kernel_hash != user->StampHash()) {
    why = "the kernel or its spec changed since it was measured (their hash " +
          entry.stamp.kernel_hash.substr(0, 12) + "… then, " + user->StampHash().substr(0, 12) +
          "… now)";
    return nullptr;
  }
  const suites::sweeps::Sweep sweep = suites::user::MakeUserSweep(user, false, 1, 1);
  const ops::Settings settings(entry.winner.params.begin(), entry.winner.params.end());
  if (auto row = suites::sweeps::ConfigurationRow(sweep, entry.problem, settings)) return row;
  why = "the spec has no problem " + entry.problem;
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
  std::shared_ptr<const tune::UserKernel> user;  // --tune's kernel, its entries re-verified
  if (!options.tune_kernel.empty()) {
    user = std::make_shared<const tune::UserKernel>(
        tune::LoadUserKernel(options.tune_kernel, options.tune_spec));
  }
  int wrong = 0;
  int stale = 0;
  int refused = 0;
  for (const profile::Entry& entry : found->entries) {
    const std::string what =
        entry.sweep + " " + entry.problem + " " + SettingsText(entry.winner.params);
    std::string why;
    const bool user_entry = entry.sweep.rfind(kTunePrefix, 0) == 0;
    if (user_entry && (!user || entry.sweep != kTunePrefix + user->spec.name)) {
      out << "skipped " << what << ": a refract tune entry"
          << (user ? " of another spec than --spec's" : "")
          << " (`refract profile check --tune KERNEL.wgsl --spec SPEC.json` re-verifies it)\n";
      continue;
    }
    std::unique_ptr<suites::kernels::KernelBenchmark> row =
        user_entry ? UserWinnerRow(entry, user, why) : WinnerRow(entry, why);
    if (!row) {
      out << "stale   " << what << ": " << why << "\n";
      ++stale;
      continue;
    }
    const std::vector<ops::Axis> axes = row->OpAxes();
    if (const std::optional<std::string> refusal = EntryRefusal(entry, axes)) {
      out << "refused " << what << ": " << *refusal << "\n";
      ++refused;
      continue;
    }
    try {
      if (auto missing = row->MissingRequirement(context)) {
        out << "skipped " << what << ": " << *missing << "\n";
        continue;
      }
      wgsl::TakeKernelsUsed();  // only this row's compiles count below
      row->Prepare(context);
      const std::vector<std::string> used = wgsl::TakeKernelsUsed();
      if (auto reason = user_entry ? std::nullopt : StaleFor(entry, used, axes)) {
        out << "stale   " << what << ": " << *reason << "\n";
        ++stale;
      } else {
        const VerificationRecord record = row->Verify(context);
        out << fmt::format("ok      {}: verified, {} elements, largest error {:.3g}\n", what,
                           record.elements, record.max_abs_error);
      }
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
  out << fmt::format(
      "{} entries: {} no longer compute the right answer, {} stale, {} refused (values that "
      "mean nothing for the op)\n",
      found->entries.size(), wrong, stale, refused);
  return wrong > 0 || refused > 0 ? kExitRowsFailed : kExitOk;
}

}  // namespace

Registered RegisterProfile(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("profile", "Show, merge or re-check profile stores (docs/PROFILES.md)");
  command->require_subcommand(1);

  auto show = std::make_shared<ShowOptions>();
  CLI::App* show_command = command->add_subcommand("show", "Print a store's winners");
  CheckFileName(show_command->add_option("file", show->path, "The store")->capture_default_str());
  show_command->add_option("--adapter", show->adapter,
                           "Only the adapters whose key contains this (any case)");
  show_command->add_flag("--json", show->json, "The selected profiles as a store, in JSON");

  auto merge = std::make_shared<MergeOptions>();
  CLI::App* merge_command = command->add_subcommand(
      "merge", "Combine stores: the newer entry of the same adapter and problem wins");
  CheckFileName(merge_command->add_option("inputs", merge->inputs, "The stores, in order"))
      ->required()
      ->expected(1, -1);
  CheckFileName(merge_command->add_option("-o,--output", merge->output,
                                          "The merged store (- = stdout)"))
      ->required();

  auto check = std::make_shared<CheckOptions>();
  CLI::App* check_command =
      command->add_subcommand("check", "Re-verify this device's winners against the CPU reference");
  CheckFileName(check_command->add_option("file", check->path, "The store")->capture_default_str());
  AddGpuOptions(*check_command, check->gpu);
  CheckFileName(check_command->add_option(
      "--tune", check->tune_kernel,
      "A kernel of `refract tune` (its WGSL file): its entries are re-verified against its spec's "
      "reference too"));
  CheckFileName(check_command->add_option("--spec", check->tune_spec, "--tune's spec"));
  check_command->get_option("--tune")->needs("--spec");
  check_command->get_option("--spec")->needs("--tune");

  Action action = [=](std::ostream& out, std::ostream& err) {
    if (show_command->parsed()) return Show(*show, out);
    if (merge_command->parsed()) return Merge(*merge, out, err);
    return Check(*check, out);
  };
  return {command, action};
}

}  // namespace refract::cli
