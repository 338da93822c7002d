// Scratch (not committed): times every row of this branch's families on the adapter.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "suites/kernels/activation_benchmark.h"
#include "suites/kernels/attention_benchmark.h"
#include "suites/kernels/norm_benchmark.h"
#include "suites/kernels/rope_benchmark.h"
#include "suites/kernels/softmax_benchmark.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {
using refract::testing::SharedContext;

void TimeRows(std::vector<std::unique_ptr<KernelBenchmark>> rows) {
  gpu::Context& context = SharedContext();
  const char* filter = std::getenv("ROW_FILTER");
  std::map<std::string, double> baseline_us;
  for (auto& row : rows) {
    if (filter && row->info().id.find(filter) == std::string::npos) continue;
    try {
      auto t0 = std::chrono::steady_clock::now();
      row->Prepare(context);
      VerificationRecord rec = row->Verify(context);
      double prep = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      auto one = context.RunPass(row->Dispatches(), 1, true);
      double per = one.gpu_ns.value_or(one.wall_ns);
      uint32_t reps = static_cast<uint32_t>(std::clamp(4e6 / std::max(per, 1.0), 1.0, 2000.0));
      double best = 1e30;
      for (int i = 0; i < 5; ++i) {
        auto t = context.RunPass(row->Dispatches(), reps, true);
        best = std::min(best, t.gpu_ns.value_or(t.wall_ns) / reps);
      }
      const double inv_ns = best / row->InvocationsPerDispatch();
      const KernelCost cost = row->Cost();
      const double rate = (row->metric() == Metric::kFlops ? cost.flops : cost.bytes) / inv_ns;
      std::string id = row->info().id;
      std::string key = id.substr(0, id.rfind('-'));
      std::string speedup;
      if (row->variant() == Variant::kBaseline) baseline_us[key] = inv_ns / 1e3;
      else if (baseline_us.count(key)) {
        char b[64]; snprintf(b, sizeof b, " speedup %.1fx", baseline_us[key] * 1e3 / inv_ns); speedup = b;
      }
      printf("ROW %-58s %10.2f us %9.1f %s copies %s cold %s err %.2g/%.2g prep %.1fs%s | %s\n", id.c_str(), inv_ns / 1e3,
             rate, row->metric() == Metric::kFlops ? "GFLOP/s" : "GB/s",
             results::ParamsText({{"c", row->info().params.at("copies")}}).c_str(),
             row->info().params.at("cold").ToString().c_str(), rec.max_abs_error,
             rec.tolerance.absolute + rec.tolerance.relative, prep, speedup.c_str(),
             results::ParamsText(row->info().params).c_str());
    } catch (const std::exception& e) {
      printf("ROW %-58s ERROR %s\n", row->info().id.c_str(), e.what());
    }
    fflush(stdout);
    row->Release();
  }
}

TEST(H200, Attention) { TimeRows(AttentionBenchmarks()); }
TEST(H200, Softmax) { TimeRows(SoftmaxBenchmarks()); }
TEST(H200, Norm) { TimeRows(NormBenchmarks()); }
TEST(H200, Rope) { TimeRows(RopeBenchmarks()); }
TEST(H200, Activation) { TimeRows(ActivationBenchmarks()); }
}  // namespace
}  // namespace refract::suites::kernels
