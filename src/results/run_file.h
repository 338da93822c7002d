// Reading a run's results back from a JSON file, with errors that name the file.
#pragma once

#include <string>

#include "results/run_record.h"

namespace refract::results {

/// Reads the run document at `path` (as `--json FILE` wrote it). Throws refract::UsageError
/// naming `path` when the file cannot be read, is not JSON, is of another schema version, is a
/// device description (`refract info --json`) instead of a run, or lacks a field.
RunRecord ReadRunFile(const std::string& path);

}  // namespace refract::results
