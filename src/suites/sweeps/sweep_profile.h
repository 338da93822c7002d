// A sweep run's winners as profile entries (include/refract/profile.h), pure (no GPU): one
// entry per reviewed problem that has a winner, and the store a run writes (--profile).
#pragma once

#include <string>
#include <vector>

#include "base/adapter_identity.h"
#include "refract/profile.h"
#include "results/run_record.h"

namespace refract::suites::sweeps {

/// The entries of `rows` (reviewed by ReviewSweepRows: flags winner, winner-default-limits,
/// cliff): per category with a `winner` row, the fastest configuration of the problem's own op
/// (rows of its built-in default's variant: a seed row of another kernel, the baseline of a
/// `--kernel` sweep, is only the reference of over_seed, even when it was faster) with its axes
/// (its params "axes") and times, the runner-up margin and the speed-ups over the category's
/// "default" and "seed" rows, the default-limits winner, the cliffs along the main axis, and
/// the stamp from the winner's params (kernels, kernel_hash, axes, axes_hash), `measured_at`
/// and this build's version and Dawn, and the grid: the label (id after the category) of every
/// row of the op's variant the problem ran. A problem whose winner lacks a stamp param (a journal of
/// an older refract), or with a row "not run" (interrupted, a budget spent: the grid did not run
/// whole), is left out, with a line in `notes`.
std::vector<profile::Entry> EntriesOf(const std::vector<results::ResultRow>& rows,
                                      const std::string& measured_at,
                                      std::vector<std::string>& notes);

/// The profile adapter record of `identity`.
profile::Adapter AdapterOf(const AdapterIdentity& identity);

/// `store` with `entries` in `adapter`'s profile: an entry of the same kernel, variant and
/// problem is replaced when profile::ReplacementProblem allows it (a store never gets worse
/// because a run looked at less: a `--filter`ed or smaller grid keeps the old winner) or when
/// `replace` says so, and kept otherwise with a line in `notes`; the others are kept, other
/// adapters' profiles untouched; the adapter's profile is added when the store has none.
profile::Store WithEntries(profile::Store store, const profile::Adapter& adapter,
                           const std::vector<profile::Entry>& entries, bool replace,
                           std::vector<std::string>& notes);

}  // namespace refract::suites::sweeps
