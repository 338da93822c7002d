// What `refract sweep` and `refract tune` share: the flags of a run of configurations (its
// journal, budget, resume, profile store, pass length) and running a plan of sweeps — a worker
// process verifies and times each configuration, the supervisor keeps the journal and replaces
// a worker that died, and the journal becomes one results document with winners and cliffs,
// the reports and the store's entries.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/suite_command.h"
#include "suites/sweeps/sweep_catalog.h"

namespace refract::cli {

/// A sweep's samples a configuration when --samples is not given (SWEEPS.md: 25).
inline constexpr uint32_t kSweepSamples = 25;

struct SweepRunOptions : CommonOptions {
  bool quick = false;
  double budget_min = 0;
  bool resume = false;
  std::string journal_path = "refract-sweep.journal";
  std::string profile_path;  ///< the store the winners go into; "": none
  bool replace = false;      ///< --replace: this run's entries replace the store's whatever grid
  bool list = false;
  double pass_ms = 2;
  double warmup_ms = 20;
  std::vector<std::string> filters;  ///< globs over configuration ids; empty: all
};

/// Adds --quick, --budget, --resume, --journal, --profile, --replace, --list, --filter,
/// --pass-ms, --warmup-ms and the common flags to `command`.
void AddSweepRunOptions(CLI::App& command, SweepRunOptions& options);

/// `names` joined by ','.
std::string Joined(const std::vector<std::string>& names);

/// The seed the journal at `path` was started with, to resume it without --seed; nothing when
/// it cannot be read (the resume then names what is wrong).
std::optional<uint64_t> JournalSeed(const std::string& path);

/// With --list: prints every configuration's id and returns true.
bool ListOnly(const std::vector<suites::sweeps::Sweep>& plan, const SweepRunOptions& options,
              std::ostream& out);

/// Runs `plan` as `refract <command>`: checks the outputs can be written and that none leads to
/// the journal or to one of `inputs` (the files the run reads; an output there would destroy it),
/// and that the store is one,
/// starts or resumes the journal (a resume must match `identity`: the same configurations on
/// the same inputs), supervises the workers, writes the document (`described` and the run's
/// options as its options), the reports and the store's entries. Returns the exit code.
int RunPlan(std::vector<suites::sweeps::Sweep>& plan, const SweepRunOptions& options,
            const std::string& command, const nlohmann::json& identity,
            std::map<std::string, std::string> described, uint64_t seed,
            std::vector<std::string> inputs, std::ostream& out);

}  // namespace refract::cli
