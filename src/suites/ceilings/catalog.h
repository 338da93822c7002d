// Every row of the ceilings suite, and how a run selects among them (--filter, --category,
// --preset).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/benchmark.h"

namespace refract::suites::ceilings {

struct CatalogOptions {
  /// Buffer size of the bandwidth rows [bytes]; nothing = DefaultBandwidthBufferBytes.
  std::optional<uint64_t> bandwidth_buffer_bytes;
};

/// Every row, in display order: bandwidth, then compute, then algorithm rows.
std::vector<std::unique_ptr<bench::Benchmark>> MakeCatalog(const CatalogOptions& options);

/// Named row sets. kCore: the issue-3 core (linear bandwidth, FMA/MAD per type and shape,
/// dp4a); kQuick: a representative dozen for a fast look; kFull: every row.
enum class Preset { kCore, kQuick, kFull };

/// "core", "quick", "full" ↔ Preset; PresetFromName throws UsageError on anything else.
Preset PresetFromName(const std::string& name);
const std::vector<std::string>& PresetRowIds(Preset preset);  ///< empty for kFull (= all)

struct Selection {
  /// fnmatch-style globs on row ids; when non-empty they choose from the whole catalog and the
  /// preset is ignored.
  std::vector<std::string> globs;
  std::optional<std::string> category;  ///< "compute", "bandwidth" or "algorithm"
  Preset preset = Preset::kFull;
};

/// The rows of `catalog` that `selection` picks, in catalog order. Throws UsageError for a glob
/// that matches no row, an unknown category, or a selection that leaves nothing.
std::vector<std::unique_ptr<bench::Benchmark>> SelectRows(
    std::vector<std::unique_ptr<bench::Benchmark>> catalog, const Selection& selection);

}  // namespace refract::suites::ceilings
