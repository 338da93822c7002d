#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report/info_table.h"

namespace refract::report {
namespace {

DeviceDescription Device() {
  DeviceDescription device;
  device.vendor = "nvidia";
  device.architecture = "hopper";
  device.device = "NVIDIA H200";
  device.description = "NVIDIA H200 (driver 550)";
  device.backend = "vulkan";
  device.adapter_type = "discrete-gpu";
  device.vendor_id = 0x10de;
  device.device_id = 0x2335;
  device.subgroup_min_size = 32;
  device.subgroup_max_size = 32;
  device.adapter_features = {"shader-f16", "subgroups", "timestamp-query"};
  device.device_features = {"shader-f16"};
  device.wgsl_language_features = {"packed_4x8_integer_dot_product"};
  device.adapter_limits = {{"maxBufferSize", 1099511627776}, {"maxBindGroups", 8}};
  device.device_limits = {{"maxBufferSize", 2147483648},
                          {"maxBindGroups", 4},
                          {"maxComputeInvocationsPerWorkgroup", 256}};
  device.enabled_toggles = {"allow_unsafe_apis"};
  device.disabled_toggles = {"lazy_clear_resource_on_first_use"};
  device.dawn_package = "bun-webgpu-linux-x64@0.1.7";
  return device;
}

std::string Render(const DeviceDescription& device) {
  std::ostringstream out;
  RenderInfoTable(out, device);
  return out.str();
}

TEST(ReportInfoTable, IdentityAndEveryLimit) {
  const std::string text = Render(Device());
  const std::string identity =
      "Adapter\n"
      "  vendor          nvidia\n"
      "  architecture    hopper\n"
      "  device          NVIDIA H200\n"
      "  description     NVIDIA H200 (driver 550)\n"
      "  backend         vulkan\n"
      "  adapter type    discrete-gpu\n"
      "  vendor ID       0x10de\n"
      "  device ID       0x2335\n"
      "  subgroup sizes  32\n"
      "  Dawn package    bun-webgpu-linux-x64@0.1.7\n";
  EXPECT_EQ(text.substr(0, identity.size()), identity);
  const std::string limits =
      "Limits (3)\n"
      "  name                                   device        adapter\n"
      "  maxBindGroups                               4              8\n"
      "  maxBufferSize                      2147483648  1099511627776\n"
      "  maxComputeInvocationsPerWorkgroup         256              —\n";
  EXPECT_NE(text.find(limits), std::string::npos) << text;
  for (const auto& [name, value] : Device().device_limits) {
    EXPECT_NE(text.find(name), std::string::npos) << name;
  }
  for (const char* part : {"Enabled toggles (1)\n  allow_unsafe_apis\n",
                           "Disabled toggles (1)\n  lazy_clear_resource_on_first_use\n",
                           "Adapter features (3)\n  shader-f16, subgroups, timestamp-query\n",
                           "Device features (1)\n  shader-f16\n",
                           "WGSL language features (1)\n  packed_4x8_integer_dot_product\n"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part;
  }
  EXPECT_EQ(text.find("Subgroup-matrix"), std::string::npos);
}

TEST(ReportInfoTable, LongListsWrapAndMatrixConfigsShow) {
  DeviceDescription device = Device();
  device.adapter_features.clear();
  for (int i = 0; i < 30; ++i) device.adapter_features.push_back("feature-" + std::to_string(i));
  device.subgroup_min_size = 16;
  device.subgroup_matrix_configs = {
      SubgroupMatrixConfig{.component_type = "f16", .result_type = "f32", .m = 8, .n = 8, .k = 16}};
  const std::string text = Render(device);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
  EXPECT_NE(text.find("feature-29\n"), std::string::npos);
  EXPECT_NE(text.find("subgroup sizes  16–32\n"), std::string::npos);
  EXPECT_NE(text.find("Subgroup-matrix configs (1)\n"
                      "  component  result  M  N   K\n"
                      "  f16        f32     8  8  16\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace refract::report
