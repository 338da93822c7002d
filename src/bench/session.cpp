#include "bench/session.h"

#include <chrono>
#include <ctime>

namespace refract::bench {
namespace {

double SteadyNowS() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string IsoUtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

RunSession::RunSession(std::string command, std::map<std::string, std::string> options,
                       uint64_t seed)
    : start_s_(SteadyNowS()) {
  record_.tool_version = REFRACT_VERSION;
  record_.dawn_package = REFRACT_DAWN_PACKAGE;
  record_.command = std::move(command);
  record_.options = std::move(options);
  record_.seed = seed;
  record_.started_at = IsoUtcNow();
}

const results::RunRecord& RunSession::Run(gpu::Context& context,
                                          const std::vector<std::vector<Benchmark*>>& stages,
                                          RunOptions options, const SuiteRules& rules,
                                          results::RunObserver* observer) {
  record_.device = context.description();
  options.scheduler.seed = record_.seed;
  record_.rows.clear();
  for (const std::vector<Benchmark*>& stage : stages) {
    for (results::ResultRow& row : RunBenchmarks(context, stage, options, observer)) {
      record_.rows.push_back(std::move(row));
    }
  }
  rules.Review(record_.rows);
  record_.summary = rules.Summarize(record_.rows);
  record_.finished_at = IsoUtcNow();
  record_.wall_time_s = SteadyNowS() - start_s_;
  return record_;
}

const results::RunRecord& RunSession::Finish(const DeviceDescription& device,
                                             std::vector<results::ResultRow> rows,
                                             results::Summary summary) {
  record_.device = device;
  record_.rows = std::move(rows);
  record_.summary = std::move(summary);
  record_.finished_at = IsoUtcNow();
  record_.wall_time_s = SteadyNowS() - start_s_;
  return record_;
}

}  // namespace refract::bench
