// The shared runner's handling of a lost or hung device and of a stop request during the
// prepare/verify loop, with fake benchmarks (the failures are thrown by the fakes: no GPU work),
// and the context's injected device loss (REFRACT_INJECT_DEVICE_LOSS) on a context of its own.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "bench/runner.h"
#include "gpu/context.h"
#include "measure/workload_outcome.h"
#include "suites/smoke/smoke_benchmark.h"
#include "testing/shared_context.h"

namespace refract {
namespace {

using results::ResultRow;
using results::RowStatus;
using testing::SharedContext;

/// A benchmark that does nothing on the GPU; Prepare runs `on_prepare` (which may throw).
class FakeBenchmark final : public bench::Benchmark {
 public:
  FakeBenchmark(std::string id, std::function<void()> on_prepare = nullptr)
      : on_prepare_(std::move(on_prepare)) {
    info_.id = std::move(id);
    info_.category = "fake";
    info_.unit = "op/s";
  }
  const bench::BenchmarkInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context&) const override {
    return std::nullopt;
  }
  void Prepare(gpu::Context&) override {
    ++prepared;
    if (on_prepare_) on_prepare_();
  }
  VerificationRecord Verify(gpu::Context&) override { return {}; }
  std::span<const gpu::Dispatch> Dispatches() const override { return {}; }
  double WorkPerDispatch() const override { return 1; }
  void Release() override { ++released; }

  int prepared = 0;
  int released = 0;

 private:
  bench::BenchmarkInfo info_;
  std::function<void()> on_prepare_;
};

std::vector<ResultRow> RunFakes(std::vector<std::unique_ptr<FakeBenchmark>>& fakes,
                                const bench::RunOptions& options = {}) {
  std::vector<bench::Benchmark*> pointers;
  for (auto& fake : fakes) pointers.push_back(fake.get());
  return bench::RunBenchmarks(SharedContext(), pointers, options, nullptr);
}

TEST(BenchRunner, ADeviceLostInPreparationEndsEveryRowNotYetDone) {
  std::vector<std::unique_ptr<FakeBenchmark>> fakes;
  fakes.push_back(std::make_unique<FakeBenchmark>("verified"));
  fakes.push_back(std::make_unique<FakeBenchmark>(
      "loses", [] { throw DeviceLostError("the GPU device was lost: reset"); }));
  fakes.push_back(std::make_unique<FakeBenchmark>("later"));
  const std::vector<ResultRow> rows = RunFakes(fakes);
  ASSERT_EQ(rows.size(), 3u);
  for (const ResultRow& row : rows) {
    EXPECT_EQ(row.status, RowStatus::kError) << row.id;
    EXPECT_EQ(row.message, "the GPU device was lost: reset") << row.id;
  }
  EXPECT_EQ(fakes[2]->prepared, 0);  // nothing more is asked of a lost device
  for (const auto& fake : fakes) EXPECT_GE(fake->released, 1) << fake->info().id;
}

// The harness's idle injection takes whole milliseconds only, and says so before any row runs.
TEST(BenchRunner, AnIdleInjectionThatIsNoWholeNumberIsRefusedBeforeAnyRow) {
  for (const char* value : {"abc", "-5", "1.5", "", "3600001"}) {
    SCOPED_TRACE(value);
    ASSERT_EQ(setenv("REFRACT_INJECT_IDLE_MS", value, 1), 0);
    std::vector<std::unique_ptr<FakeBenchmark>> fakes;
    fakes.push_back(std::make_unique<FakeBenchmark>("row"));
    try {
      RunFakes(fakes);
      ADD_FAILURE() << "accepted";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("REFRACT_INJECT_IDLE_MS"), std::string::npos);
    }
    EXPECT_EQ(fakes[0]->prepared, 0);
  }
  ASSERT_EQ(setenv("REFRACT_INJECT_IDLE_MS", "0", 1), 0);
  std::vector<std::unique_ptr<FakeBenchmark>> fakes;
  fakes.push_back(std::make_unique<FakeBenchmark>("row"));
  EXPECT_EQ(RunFakes(fakes).size(), 1u);
  ASSERT_EQ(unsetenv("REFRACT_INJECT_IDLE_MS"), 0);
}

TEST(BenchRunner, AHangInPreparationFailsThatRowAndNotRunsTheOthers) {
  std::vector<std::unique_ptr<FakeBenchmark>> fakes;
  fakes.push_back(std::make_unique<FakeBenchmark>("verified"));
  fakes.push_back(std::make_unique<FakeBenchmark>(
      "hangs", [] { throw DeviceHungError("reading a buffer back: did not finish within 3 s"); }));
  fakes.push_back(std::make_unique<FakeBenchmark>("later"));
  const std::vector<ResultRow> rows = RunFakes(fakes);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].status, RowStatus::kError);
  EXPECT_EQ(rows[1].message, "reading a buffer back: did not finish within 3 s");
  for (size_t i : {0u, 2u}) {
    EXPECT_EQ(rows[i].status, RowStatus::kError) << rows[i].id;
    EXPECT_EQ(rows[i].message, kNotRunAfterHang) << rows[i].id;
  }
  EXPECT_EQ(fakes[2]->prepared, 0);
}

TEST(BenchRunner, AStopRequestSkipsTheRowsNotYetPrepared) {
  bool stop = false;
  std::vector<std::unique_ptr<FakeBenchmark>> fakes;
  fakes.push_back(std::make_unique<FakeBenchmark>("first", [&] { stop = true; }));
  fakes.push_back(std::make_unique<FakeBenchmark>("second"));
  bench::RunOptions options;
  options.scheduler.stop_requested = [&] { return stop; };
  const std::vector<ResultRow> rows = RunFakes(fakes, options);
  ASSERT_EQ(rows.size(), 2u);
  // "first" was verified, then the scheduler saw the stop before measuring it.
  for (const ResultRow& row : rows) {
    EXPECT_EQ(row.status, RowStatus::kSkipped) << row.id;
    EXPECT_EQ(row.message, measure::kInterruptedMessage) << row.id;
  }
  EXPECT_EQ(fakes[1]->prepared, 0);
}

/// Sets an environment variable for the life of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

TEST(GpuContextInjection, LosesTheDeviceBeforeTheNthPassThroughTheDeviceLostPath) {
  std::unique_ptr<gpu::Context> context;
  {
    ScopedEnv inject("REFRACT_INJECT_DEVICE_LOSS", "3");
    context = std::make_unique<gpu::Context>();
  }
  suites::smoke::SmokeBenchmark smoke(1024);
  smoke.Prepare(*context);  // uploads only: no pass
  int passes_ok = 0;
  try {
    for (int i = 0; i < 10; ++i) {
      context->RunPass(smoke.Dispatches(), 1, false);
      ++passes_ok;
    }
    FAIL() << "the injected loss never came";
  } catch (const DeviceLostError& error) {
    EXPECT_NE(std::string(error.what()).find("the GPU device was lost"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("REFRACT_INJECT_DEVICE_LOSS"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(passes_ok, 2);
  // The device stays lost: every later call says so.
  EXPECT_THROW(context->RunPass(smoke.Dispatches(), 1, false), DeviceLostError);
  EXPECT_THROW(context->EmptySubmitWallNs(), DeviceLostError);
  EXPECT_FALSE(context->hung());
  smoke.Release();
}

}  // namespace
}  // namespace refract
