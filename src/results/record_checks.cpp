#include "results/record_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "results/json_fields.h"

namespace refract::results {
namespace {

using json_fields::Fail;
using json_fields::Index;
using json_fields::Join;

// Relative slack of the ordering checks: values written with 17 significant digits read back
// within an ulp; 1e-9 also admits the interpolation of p10/p90 in another precision.
constexpr double kOrderSlack = 1e-9;

// Checks values of one row, naming it in each failure.
class RowChecker {
 public:
  RowChecker(const ResultRow& row, const std::string& where) : row_(row), where_(where) {}

  void Positive(const std::string& field, double value, bool may_be_null) const {
    if (std::isnan(value) && may_be_null) return;
    if (!std::isfinite(value) || value <= 0) Bad(field, value, "a finite number above 0");
  }
  void NotNegative(const std::string& field, double value, bool may_be_null) const {
    if (std::isnan(value) && may_be_null) return;
    if (!std::isfinite(value) || value < 0) Bad(field, value, "a finite number of 0 or more");
  }
  [[noreturn]] void Bad(const std::string& field, double value, const std::string& expected) const {
    Fail(Join(where_, field),
         fmt::format("of row '{}' is {}, expected {}", row_.id, Text(value), expected));
  }
  [[noreturn]] void Inconsistent(const std::string& field, const std::string& problem) const {
    Fail(Join(where_, field), fmt::format("of row '{}' {}", row_.id, problem));
  }

  static std::string Text(double value) {
    return std::isnan(value) ? std::string("null") : fmt::format("{}", value);
  }

 private:
  const ResultRow& row_;
  const std::string& where_;
};

void CheckStats(const ResultRow& row, const std::string& where, const RowChecker& check) {
  const Statistics& s = row.stats;
  const std::string times = Join(where, "times_ms");
  if (s.count != row.times_ms.size()) {
    check.Inconsistent("stats.count", fmt::format("is {} beside {} values in {}", s.count,
                                                  row.times_ms.size(), times));
  }
  const std::pair<const char*, double> values[] = {{"stats.min", s.min},
                                                   {"stats.mean", s.mean},
                                                   {"stats.median", s.median},
                                                   {"stats.p10", s.p10},
                                                   {"stats.p90", s.p90}};
  if (row.times_ms.empty()) {
    for (const auto& [field, value] : values) {
      if (!std::isnan(value)) check.Inconsistent(field, "is set while " + times + " is empty");
    }
    return;
  }
  for (const auto& [field, value] : values) check.Positive(field, value, /*may_be_null=*/false);
  check.NotNegative("stats.stddev", s.stddev, /*may_be_null=*/true);
  check.NotNegative("stats.ci95", s.ci95, /*may_be_null=*/true);
  const auto [smallest, largest] = std::minmax_element(row.times_ms.begin(), row.times_ms.end());
  const std::string smallest_name = Index(times, smallest - row.times_ms.begin());
  const std::string largest_name = Index(times, largest - row.times_ms.begin());
  auto above = [](double a, double b) { return a > b * (1 + kOrderSlack); };
  if (std::abs(s.min - *smallest) > *smallest * kOrderSlack) {
    check.Inconsistent("stats.min", fmt::format("is {}, but the smallest sample is {} = {}", s.min,
                                                smallest_name, *smallest));
  }
  // Each must not exceed the next: min ≤ p10 ≤ median ≤ p90 ≤ the largest sample.
  const std::pair<std::string, double> order[] = {{"stats.min", s.min},
                                                  {"stats.p10", s.p10},
                                                  {"stats.median", s.median},
                                                  {"stats.p90", s.p90},
                                                  {"", *largest}};
  for (size_t i = 1; i < std::size(order); ++i) {
    if (above(order[i - 1].second, order[i].second)) {
      const std::string next = order[i].first.empty() ? largest_name + ", the largest sample,"
                                                      : Join(where, order[i].first);
      check.Inconsistent(
          order[i - 1].first,
          fmt::format("is {}, above {} = {}", order[i - 1].second, next, order[i].second));
    }
  }
  if (above(s.min, s.mean) || above(s.mean, *largest)) {
    check.Inconsistent("stats.mean", fmt::format("is {}, outside the samples' range {} to {}",
                                                 s.mean, *smallest, *largest));
  }
}

void CheckRow(const ResultRow& row, const std::string& where) {
  const RowChecker check(row, where);
  for (size_t i = 0; i < row.times_ms.size(); ++i) {
    check.Positive(Index("times_ms", i), row.times_ms[i], /*may_be_null=*/false);
  }
  for (size_t i = 0; i < row.throttled_ms.size(); ++i) {
    check.Positive(Index("throttled_ms", i), row.throttled_ms[i], /*may_be_null=*/false);
  }
  CheckStats(row, where, check);
  if (row.status == RowStatus::kOk) {
    if (row.times_ms.empty()) {
      check.Inconsistent("times_ms", "is empty while " + Join(where, "status") + " is ok");
    }
    check.Positive("metric_value", row.metric_value, /*may_be_null=*/false);
  } else {
    check.Positive("metric_value", row.metric_value, /*may_be_null=*/true);
  }
  check.NotNegative("work_per_dispatch", row.work_per_dispatch, /*may_be_null=*/false);
  check.Positive("speedup", row.speedup, /*may_be_null=*/true);
  const VerificationRecord& v = row.verification;
  check.NotNegative("verification.max_abs_error", v.max_abs_error, /*may_be_null=*/true);
  check.NotNegative("verification.tolerance.absolute", v.tolerance.absolute, false);
  check.NotNegative("verification.tolerance.relative", v.tolerance.relative, false);
  if (v.model_deviation) {
    check.NotNegative("verification.model_deviation", *v.model_deviation, /*may_be_null=*/true);
  }
  if (v.mismatches && (*v.mismatches == 0 || *v.mismatches > v.elements)) {
    check.Inconsistent("verification.mismatches",
                       std::to_string(*v.mismatches) + " of " + std::to_string(v.elements) +
                           " elements: a failed check has 1 to `elements` mismatches");
  }
  if (row.roofline) {
    const Roofline& r = *row.roofline;
    check.Positive("roofline.ceiling", r.ceiling, /*may_be_null=*/true);
    check.Positive("roofline.fraction", r.fraction, /*may_be_null=*/true);
    check.NotNegative("roofline.flops", r.flops, /*may_be_null=*/false);
    check.NotNegative("roofline.bytes", r.bytes, /*may_be_null=*/false);
    check.NotNegative("roofline.intensity", r.intensity, /*may_be_null=*/true);
  }
  if (row.alternate) {
    check.Positive("alternate.time_ms", row.alternate->time_ms, /*may_be_null=*/true);
    check.Positive("alternate.fraction", row.alternate->fraction, /*may_be_null=*/true);
  }
  if (row.decode) {
    const DecodeFigures& d = *row.decode;
    for (const auto& [field, value] : {std::pair<const char*, double>{"wall_ms", d.wall_ms},
                                       {"gpu_ms", d.gpu_ms},
                                       {"host_ms", d.host_ms},
                                       {"read_bandwidth", d.read_bandwidth},
                                       {"bandwidth_bound_ms", d.bandwidth_bound_ms},
                                       {"bandwidth_fraction", d.bandwidth_fraction},
                                       {"dispatch_floor_ms", d.dispatch_floor_ms},
                                       {"dispatch_bound_ms", d.dispatch_bound_ms},
                                       {"dispatch_fraction", d.dispatch_fraction},
                                       {"split_ms", d.split_ms}}) {
      check.Positive(std::string("decode.") + field, value, /*may_be_null=*/true);
    }
    check.NotNegative("decode.weight_bytes", d.weight_bytes, /*may_be_null=*/false);
    check.NotNegative("decode.cache_bytes", d.cache_bytes, /*may_be_null=*/false);
    for (size_t i = 0; i < d.split.size(); ++i) {
      check.Positive("decode.split[" + std::to_string(i) + "].ms", d.split[i].ms, true);
      if (d.split[i].bytes) {
        check.Positive("decode.split[" + std::to_string(i) + "].bytes", *d.split[i].bytes, false);
      }
    }
  }
}

}  // namespace

void CheckRowMeaning(const ResultRow& row, const std::string& where) {
  if (row.id.empty()) Fail(Join(where, "id"), "is empty");
  CheckRow(row, where);
}

void CheckRecordMeaning(const RunRecord& record) {
  if (!std::isnan(record.wall_time_s) &&
      (!std::isfinite(record.wall_time_s) || record.wall_time_s < 0)) {
    Fail("wall_time_s", fmt::format("is {}, expected a finite number of 0 or more",
                                    RowChecker::Text(record.wall_time_s)));
  }
  for (const auto& [name, value] : record.summary) {
    if (!std::isnan(value) && (!std::isfinite(value) || value <= 0)) {
      Fail(Join("summary", name),
           fmt::format("is {}, expected a finite rate, ratio or time above 0", value));
    }
  }
  std::set<std::string> ids;
  for (size_t i = 0; i < record.rows.size(); ++i) {
    const ResultRow& row = record.rows[i];
    const std::string where = Index("results", i);
    if (row.id.empty()) Fail(Join(where, "id"), "is empty");
    if (!ids.insert(row.id).second) {
      Fail(Join(where, "id"), "'" + row.id + "' is the id of an earlier row too");
    }
    CheckRow(row, where);
  }
}

}  // namespace refract::results
