// Every row of the kernels catalog (both models, every shape, both variants) checked without a
// device against the limits of lavapipe, of the H200 (their `refract info` documents) and of
// WebGPU's defaults: the default configurations adapt to each device's invocations and
// workgroup memory, so the only things that may refuse a row are a binding too large to exist
// and a capability the device lacks (WebGPU's defaults name no WGSL language feature: no
// dot4I8Packed for the q8 GEMV).
#include <gtest/gtest.h>

#include "base/device_limits.h"
#include "results/record_file.h"
#include "suites/kernels/catalog.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

DeviceLimits LimitsOfInfo(const std::string& name) {
  return LimitsOf(
      results::ReadDeviceInfoFile(std::string(REFRACT_SOURCE_DIR) + "/tests/data/" + name));
}

TEST(KernelsDefaults, EveryRowFitsEveryDeviceButForBindingSizes) {
  const struct {
    const char* name;
    DeviceLimits limits;
    bool binds_everything;  // a 4 GiB binding: every row of the catalog fits
  } devices[] = {{"lavapipe", LimitsOfInfo("lavapipe-info.json"), false},
                 {"h200", LimitsOfInfo("h200-info.json"), true},
                 {"webgpu-defaults", WebGpuDefaultLimits(), false}};
  for (const std::string& model : ModelNames()) {
    const auto rows = MakeKernelRows({.model = model}, {});
    ASSERT_GT(rows.size(), 100u);
    for (const auto& device : devices) {
      size_t refused = 0;
      for (const auto& row : rows) {
        const auto* kernel_row = dynamic_cast<const KernelBenchmark*>(row.get());
        ASSERT_NE(kernel_row, nullptr);
        const ops::Refusal problem = kernel_row->CheckOn(device.limits);
        if (!problem) continue;
        ++refused;
        EXPECT_FALSE(device.binds_everything)
            << device.name << " " << row->info().id << ": " << *problem;
        const bool binding = problem->find("storage binding") != std::string::npos;
        const bool capability = !device.limits.packed_4x8_dot &&
                                problem->find("dot4I8Packed") != std::string::npos;
        EXPECT_TRUE(binding || capability)
            << device.name << " " << row->info().id << ": " << *problem;
      }
      // The f32 LM head (544 MB) does not bind in 128 MiB; everything else does.
      if (!device.binds_everything) {
        EXPECT_GT(refused, 0u) << device.name;
      }
    }
  }
}

}  // namespace
}  // namespace refract::suites::kernels
