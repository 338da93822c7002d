// The profile store file as refract's commands use it: read strictly (a file that is not a
// store is an EnvironmentError naming it, exit 2, and is left as it was) and written atomically.
#pragma once

#include <iosfwd>
#include <string>

#include "base/device_description.h"
#include "refract/profile.h"
#include "results/run_record.h"
#include "suites/sweeps/sweep_review.h"

namespace refract::cli {

/// The store at `path`; EnvironmentError with the reader's message when it cannot be read or
/// is not a valid store.
profile::Store ReadStore(const std::string& path);

/// The store at `path`, or an empty one when nothing is there (a run's first write).
profile::Store ReadStoreOrEmpty(const std::string& path);

/// Writes `store` to `path` atomically (results::WriteOutput: through links; "-" is stdout).
void WriteStore(const std::string& path, const profile::Store& store, std::ostream& out);

/// Adds a sweep run's winners (`review`, the review of `record`'s rows) to the store at `path`
/// (read again now: another run may have written it since this one began), replacing only this
/// adapter's entries of the problems it swept, and of those only the ones
/// suites::sweeps::WithEntries allows (all with `replace`); says what it wrote and what it kept
/// on `lines`. A run with no winner, or whose every entry is kept, writes nothing and says so.
void AddSweepToStore(const std::string& path, const results::RunRecord& record,
                     const suites::sweeps::SweepReview& review, bool replace, std::ostream& out,
                     std::ostream& lines);

}  // namespace refract::cli
