#include "suites/ceilings/ceilings_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace refract::suites::ceilings {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

/// True for an ok row with a finite metric and no suspect flag: a figure a ceiling may use.
bool Trusted(const results::ResultRow& row) {
  return row.status == results::RowStatus::kOk && std::isfinite(row.metric_value) &&
         std::find(row.flags.begin(), row.flags.end(), "suspect") == row.flags.end();
}

double OkMetric(const std::vector<results::ResultRow>& rows, std::string_view id) {
  for (const results::ResultRow& row : rows) {
    if (row.id == id && Trusted(row)) return row.metric_value;
  }
  return results::kNoValue;
}

double PeakWithPrefix(const std::vector<results::ResultRow>& rows, std::string_view prefix) {
  double peak = results::kNoValue;
  for (const results::ResultRow& row : rows) {
    if (!StartsWith(row.id, prefix) || !Trusted(row)) continue;
    if (!std::isfinite(peak) || row.metric_value > peak) peak = row.metric_value;
  }
  return peak;
}

/// The FMA rows that define a type's peak, and the type a math row belongs to.
struct TypePeak {
  std::string_view type_prefix;  ///< rows of this type start with it, e.g. "f32-"
  std::string_view fma_prefix;   ///< its FMA/MAD rows, e.g. "f32-fma-"
  std::string_view key;          ///< the summary key of its peak
};
constexpr TypePeak kTypePeaks[] = {
    {"f32-", "f32-fma-", "f32_fma_flops"},
    {"f16-", "f16-fma-", "f16_fma_flops"},
    {"i32-", "i32-mad-", "i32_mad_ops"},
};

/// The highest share of its type's peak FMA rate a row may reach, for rows whose op can never
/// be cheaper than a multiply-add; 0 for other rows. Both kinds count 2 ops a step, as an FMA.
/// - Math (x = op(x) + b, cos(sin(x)), x = x/a + b): a step takes at least two instructions and
///   one of them is the op (a transcendental or a multi-instruction sequence), so a native-type
///   device stays at or below 0.5 of the FMA rate (H200 ≤ 0.13, lavapipe ≤ 0.44 with emulated
///   f16). Above 0.75 the op was removed: the x/a trap (a reciprocal hoisted out of the loop)
///   runs at about 1.0.
/// - Conversions: a device may fold a conversion into the neighbouring instruction, so only
///   beating the FMA rate itself (1.0) is impossible.
double MaxShareOfFma(std::string_view id) {
  constexpr std::string_view kMathOps[] = {"-div", "-sqrt", "-rsqrt", "-pow", "-sincos", "-log"};
  auto has = [&](std::string_view op) { return id.find(op) != std::string_view::npos; };
  if (std::any_of(std::begin(kMathOps), std::end(kMathOps), has)) return 0.75;
  if (has("-convert")) return 1.0;
  return 0;
}

/// A compute row above this multiple of the device's fastest FMA/MAD/dp4a rate is impossible:
/// no ALU op issues faster than a multiply-add, and the counts give a multiply-add 2 ops.
constexpr double kMaxRateOverFastestPeak = 2.0;

const TypePeak* TypeOf(std::string_view id) {
  for (const TypePeak& peak : kTypePeaks) {
    if (StartsWith(id, peak.type_prefix)) return &peak;
  }
  return nullptr;
}

}  // namespace

std::map<std::string, double> SummarizeCeilings(const std::vector<results::ResultRow>& rows) {
  std::map<std::string, double> summary;
  auto put = [&](const std::string& key, double value) {
    if (std::isfinite(value)) summary[key] = value;
  };
  put("read_bandwidth_Bps", OkMetric(rows, "read-linear"));
  put("write_bandwidth_Bps", OkMetric(rows, "write-linear"));
  for (const TypePeak& peak : kTypePeaks)
    put(std::string(peak.key), PeakWithPrefix(rows, peak.fma_prefix));
  put("i8_dp4a_ops", std::max(OkMetric(rows, "i8-dp4a"), OkMetric(rows, "i8-dp4a-matvec")));
  for (const results::ResultRow& row : rows) {
    const TypePeak* type = TypeOf(row.id);
    if (type == nullptr || StartsWith(row.id, type->fma_prefix)) continue;
    if (!Trusted(row)) continue;
    auto fma = summary.find(std::string(type->key));
    if (fma == summary.end() || !(fma->second > 0)) continue;
    std::string key = row.id;
    std::replace(key.begin(), key.end(), '-', '_');
    put(key + "_ratio", row.metric_value / fma->second);
  }
  return summary;
}

void FlagImpossibleRates(std::vector<results::ResultRow>& rows) {
  std::map<std::string, double> summary = SummarizeCeilings(rows);
  double fastest_peak = 0;
  for (std::string_view key : {"f32_fma_flops", "f16_fma_flops", "i32_mad_ops", "i8_dp4a_ops"}) {
    if (auto peak = summary.find(std::string(key)); peak != summary.end()) {
      fastest_peak = std::max(fastest_peak, peak->second);
    }
  }
  auto flag = [](results::ResultRow& row, const std::string& reason) {
    if (std::find(row.flags.begin(), row.flags.end(), "suspect") != row.flags.end()) return;
    row.flags.push_back("suspect");
    row.flag_reasons.push_back("suspect: " + reason);
  };
  for (results::ResultRow& row : rows) {
    if (row.status != results::RowStatus::kOk || !std::isfinite(row.metric_value)) continue;
    const TypePeak* type = TypeOf(row.id);
    if (const double max_share = MaxShareOfFma(row.id); type != nullptr && max_share > 0) {
      auto fma = summary.find(std::string(type->key));
      if (fma != summary.end() && row.metric_value > max_share * fma->second) {
        flag(row, fmt::format("{} runs at {:.2f}x the device's peak {}, above the {:.2f}x its op "
                              "can reach: the op was likely hoisted out of the loop or folded",
                              row.id, row.metric_value / fma->second, type->key, max_share));
        continue;
      }
    }
    // No ALU row can run far above the fastest FMA/MAD/dp4a rate of the same device.
    if (row.category == "compute" && fastest_peak > 0 &&
        row.metric_value > kMaxRateOverFastestPeak * fastest_peak) {
      flag(row, fmt::format("{} claims {:.3g} ops/s, over {}x the device's fastest multiply-add "
                            "rate: its work was likely hoisted or folded",
                            row.id, row.metric_value, kMaxRateOverFastestPeak));
    }
  }
}

}  // namespace refract::suites::ceilings
