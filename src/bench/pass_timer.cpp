#include "bench/pass_timer.h"

#include "base/error.h"
#include "bench/benchmark.h"

namespace refract::bench {
namespace {
constexpr double kMsPerNs = 1e-6;
}  // namespace

measure::Sample PassTimer::Time(measure::Workload& workload, uint32_t dispatch_count) {
  const auto* benchmark = dynamic_cast<const Benchmark*>(&workload);
  REFRACT_THROW_IF(benchmark == nullptr, Error,
                   std::string(workload.id()) + ": the pass timer runs benchmarks only");
  const gpu::PassTiming timing =
      context_.RunPass(benchmark->Dispatches(), dispatch_count, timestamps_);
  measure::Sample sample;
  sample.wall_ms = timing.wall_ns * kMsPerNs;
  if (timing.gpu_ns) sample.gpu_ms = *timing.gpu_ns * kMsPerNs;
  return sample;
}

double PassTimer::EmptySubmitMs() { return context_.EmptySubmitWallNs() * kMsPerNs; }

}  // namespace refract::bench
