// A sweep run's winners as profile entries (include/refract/profile.h), pure (no GPU): one
// entry per reviewed problem that has a winner, and the store a run writes (--profile).
#pragma once

#include <string>
#include <vector>

#include "base/adapter_identity.h"
#include "refract/profile.h"
#include "results/run_record.h"
#include "suites/sweeps/sweep_review.h"

namespace refract::suites::sweeps {

/// The entries of `rows` as `review` (ReviewSweepRows of them) found them: per problem with a
/// winner, the winner and the default-limits winner with their margins, axes (params "axes")
/// and times, the speed-ups over the problem's default and seed rows, the cliffs along the main
/// axis, the shape (the winner's identity's dimensions that are no axis of the op), the grid
/// (the label, the id after the category, of every candidate the winner was chosen from) and
/// the stamp from the winner's params (kernels, kernel_hash, axes, axes_hash), `measured_at` and
/// this build's version and Dawn. A problem whose winner lacks a stamp param (a journal of an
/// older refract), or with a row "not run" (interrupted, a budget spent: the grid did not run
/// whole), is left out, with a line in `notes`.
std::vector<profile::Entry> EntriesOf(const std::vector<results::ResultRow>& rows,
                                      const SweepReview& review, const std::string& measured_at,
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
