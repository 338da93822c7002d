// The decode sections of the report's data (report_model.h, BuildDecodeModels).
#include <fmt/format.h>

#include <cmath>

#include "report/model_json.h"
#include "report/report_model.h"
#include "report/units.h"
#include "results/params.h"

namespace refract::report {
namespace {

/// A kind's bytes a token and its bandwidth bound against its time: "1.19 MB, bound 0.39 µs at
/// read-linear, 12% of it"; "—" without bytes.
std::string BytesText(const results::DecodeKindTime& kind, double read_bandwidth) {
  if (!kind.bytes) return std::string(kMissing);
  std::string text = FormatSi(*kind.bytes, "B");
  if (!std::isfinite(read_bandwidth)) return text;
  const double bound_ms = *kind.bytes / read_bandwidth * 1e3;
  text += ", bound " + FormatDuration(bound_ms) + " at read-linear";
  if (std::isfinite(kind.ms)) text += fmt::format(", {:.0f}% of it", 100 * bound_ms / kind.ms);
  return text;
}

/// "1 pass", "2 passes".
std::string Count(uint64_t n, std::string_view what) {
  const bool sibilant = what.ends_with("s") || what.ends_with("ch");
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : sibilant ? "es" : "s");
}

/// "1 pass a token", "2 passes a prefill", "1 pass per 16 tokens" (`each` of them a `unit`).
std::string PerUnit(double each, std::string_view what, std::string_view unit) {
  if (!(each > 0)) return fmt::format("{} a {}", Count(0, what), unit);
  if (each >= 1) {
    return fmt::format("{} a {}", Count(static_cast<uint64_t>(std::lround(each)), what), unit);
  }
  return fmt::format("1 {} per {} {}s", what, std::lround(1 / each), unit);
}

std::string BoundText(double bound_ms, double fraction, std::string_view unit) {
  if (!std::isfinite(bound_ms)) return "not measured";
  return fmt::format("{} a {}; the step at {:.0f}% of it", FormatDuration(bound_ms), unit,
                     100 * fraction);
}

nlohmann::json DecodeSection(size_t file, const LabeledRun& run, const results::ResultRow& row) {
  const results::DecodeFigures empty;
  const results::DecodeFigures& d = row.decode ? *row.decode : empty;
  const double tokens_per_s =
      row.status == results::RowStatus::kOk ? row.metric_value : results::kNoValue;
  // A kind's share of the step and its time a dispatch beside the floor a dispatch.
  nlohmann::json split = nlohmann::json::array();
  for (const results::DecodeKindTime& kind : d.split) {
    const double share =
        std::isfinite(kind.ms) && d.split_ms > 0 ? kind.ms / d.split_ms : results::kNoValue;
    const double each_ms =
        kind.dispatches > 0 ? kind.ms / static_cast<double>(kind.dispatches) : results::kNoValue;
    // Its bandwidth bound (its bytes at the run's read rate) over its time.
    const double fraction = kind.bytes && std::isfinite(d.read_bandwidth) && std::isfinite(kind.ms)
                                ? *kind.bytes / d.read_bandwidth * 1e3 / kind.ms
                                : results::kNoValue;
    split.push_back(
        {{"kind", kind.kind},
         {"dispatches", kind.dispatches},
         {"time_ms", JsonNumber(kind.ms)},
         {"time_text", FormatDuration(kind.ms)},
         {"share", JsonNumber(share)},
         {"share_text",
          std::isfinite(share) ? fmt::format("{:.1f}%", 100 * share) : std::string(kMissing)},
         {"each_text", std::isfinite(each_ms) && std::isfinite(d.dispatch_floor_ms)
                           ? fmt::format("{} a dispatch ({:.1f}x the floor)",
                                         FormatDuration(each_ms), each_ms / d.dispatch_floor_ms)
                           : std::string(kMissing)},
         {"bytes", kind.bytes ? JsonNumber(*kind.bytes) : nlohmann::json(nullptr)},
         {"bytes_text", BytesText(kind, d.read_bandwidth)},
         {"bandwidth_fraction", JsonNumber(fraction)}});
  }
  const bool ok = std::isfinite(tokens_per_s);
  // A decode row counts a token's dispatches, a prefill row a whole prefill's.
  const std::string unit = results::TextOf(row.params, "phase") == "prefill" ? "prefill" : "token";
  // A decode row's sample is a token, a prefill row's a prompt (work_per_dispatch tokens).
  const double tokens_a_sample = row.work_per_dispatch > 0 ? row.work_per_dispatch : 1.0;
  return {
      {"file", file},
      {"label", run.label},
      {"id", row.id},
      {"status", std::string(results::ToString(row.status))},
      {"message", row.message},
      {"tokens_per_s", JsonNumber(tokens_per_s)},
      {"tokens_text", ok ? fmt::format("{:.4g} tokens/s", tokens_per_s) : std::string("no figure")},
      {"spread_text", ok ? fmt::format("p10–p90 {:.4g}–{:.4g} tokens/s over {} samples",
                                       tokens_a_sample * 1000 / row.stats.p90,
                                       tokens_a_sample * 1000 / row.stats.p10, row.stats.count)
                         : std::string()},
      {"step_text",
       ok ? fmt::format("{} a sample ({}); GPU busy {} of it, {} of host work to issue it; "
                        "{} a token by the host clock",
                        FormatDuration(row.stats.median), row.timing_method,
                        FormatDuration(d.gpu_ms), FormatDuration(d.host_ms),
                        FormatDuration(d.wall_ms))
          : std::string()},
      {"counts_text",
       fmt::format("{} a {}, {}, {}", Count(d.dispatches, "dispatch"), unit,
                   PerUnit(d.passes, "pass", unit), PerUnit(d.submits, "submit", unit))},
      {"bandwidth_text", BoundText(d.bandwidth_bound_ms, d.bandwidth_fraction, unit)},
      {"bandwidth_fraction", JsonNumber(d.bandwidth_fraction)},
      {"dispatch_text", BoundText(d.dispatch_bound_ms, d.dispatch_fraction, unit)},
      {"dispatch_fraction", JsonNumber(d.dispatch_fraction)},
      {"split_method", d.split_method},
      {"split_text", d.split.empty() ? std::string("not timed")
                                     : fmt::format("the step {} a token in these runs; "
                                                   "each kind what the step saves without it "
                                                   "({})",
                                                   FormatDuration(d.split_ms), d.split_method)},
      {"split", split}};
}

}  // namespace

nlohmann::json BuildDecodeModels(const std::vector<LabeledRun>& runs) {
  nlohmann::json sections = nlohmann::json::array();
  for (size_t f = 0; f < runs.size(); ++f) {
    const results::RunRecord& record = runs[f].record;
    if (record.command != "decode") continue;
    for (const results::ResultRow& row : record.rows) {
      if (row.category == "decode") sections.push_back(DecodeSection(f, runs[f], row));
    }
  }
  return sections;
}

}  // namespace refract::report
