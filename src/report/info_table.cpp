#include "report/info_table.h"

#include <fmt/format.h>

#include <set>
#include <string>
#include <vector>

#include "report/text_table.h"
#include "report/units.h"

namespace refract::report {
namespace {

constexpr size_t kWidth = 100;
constexpr std::string_view kIndent = "  ";

std::string OrMissing(const std::string& text) {
  return text.empty() ? std::string(kMissing) : text;
}

std::string SubgroupSizes(const DeviceDescription& device) {
  if (device.subgroup_min_size == 0 && device.subgroup_max_size == 0) {
    return std::string(kMissing);
  }
  if (device.subgroup_min_size == device.subgroup_max_size) {
    return std::to_string(device.subgroup_min_size);
  }
  return fmt::format("{}–{}", device.subgroup_min_size, device.subgroup_max_size);
}

// "Title (n)" and then the items, comma-separated, wrapped at kWidth columns.
void WriteList(std::ostream& out, std::string_view title, const std::vector<std::string>& items) {
  out << '\n' << title << " (" << items.size() << ")\n";
  if (items.empty()) {
    out << kIndent << kMissing << '\n';
    return;
  }
  std::string line(kIndent);
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() > kIndent.size() && line.size() + 1 + item.size() > kWidth) {
      out << line << '\n';
      line = kIndent;
    }
    if (line.size() > kIndent.size()) line += ' ';
    line += item;
  }
  out << line << '\n';
}

void WriteLines(std::ostream& out, const TextTable& table) {
  for (const std::string& line : table.Lines()) out << line << '\n';
}

std::string LimitValue(const std::map<std::string, uint64_t>& limits, const std::string& name) {
  auto it = limits.find(name);
  return it == limits.end() ? std::string(kMissing) : std::to_string(it->second);
}

}  // namespace

void RenderInfoTable(std::ostream& out, const DeviceDescription& device) {
  out << "Adapter\n";
  TextTable identity;
  identity.AddRow({"  vendor", OrMissing(device.vendor)});
  identity.AddRow({"  architecture", OrMissing(device.architecture)});
  identity.AddRow({"  device", OrMissing(device.device)});
  identity.AddRow({"  description", OrMissing(device.description)});
  identity.AddRow({"  backend", OrMissing(device.backend)});
  identity.AddRow({"  adapter type", OrMissing(device.adapter_type)});
  identity.AddRow({"  vendor ID", fmt::format("{:#06x}", device.vendor_id)});
  identity.AddRow({"  device ID", fmt::format("{:#06x}", device.device_id)});
  identity.AddRow({"  subgroup sizes", SubgroupSizes(device)});
  identity.AddRow({"  Dawn package", OrMissing(device.dawn_package)});
  WriteLines(out, identity);

  WriteList(out, "Enabled toggles", device.enabled_toggles);
  WriteList(out, "Disabled toggles", device.disabled_toggles);
  WriteList(out, "Adapter features", device.adapter_features);
  WriteList(out, "Device features", device.device_features);
  WriteList(out, "WGSL language features", device.wgsl_language_features);

  std::set<std::string> names;
  for (const auto& [name, value] : device.device_limits) names.insert(name);
  for (const auto& [name, value] : device.adapter_limits) names.insert(name);
  out << "\nLimits (" << names.size() << ")\n";
  TextTable limits({false, true, true});
  limits.AddRow({"  name", "device", "adapter"});
  for (const std::string& name : names) {
    limits.AddRow({"  " + name, LimitValue(device.device_limits, name),
                   LimitValue(device.adapter_limits, name)});
  }
  WriteLines(out, limits);

  if (device.subgroup_matrix_configs.empty()) return;
  out << "\nSubgroup-matrix configs (" << device.subgroup_matrix_configs.size() << ")\n";
  TextTable configs({false, false, true, true, true});
  configs.AddRow({"  component", "result", "M", "N", "K"});
  for (const SubgroupMatrixConfig& config : device.subgroup_matrix_configs) {
    configs.AddRow({"  " + config.component_type, config.result_type, std::to_string(config.m),
                    std::to_string(config.n), std::to_string(config.k)});
  }
  WriteLines(out, configs);
}

}  // namespace refract::report
