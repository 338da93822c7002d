// The spec evaluated: its expressions at a problem and configuration, the configurations, and
// the checks of a spec against its shaders (kernel_spec.h).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "tune/kernel_spec.h"
#include "tune/spec_refusal.h"

namespace refract::tune {

Names NamesOf(const ProblemSpec& problem, const ops::Settings& settings) {
  Names names = problem.sizes;
  for (const auto& [name, value] : settings) names[name] = value;
  return names;
}

Evaluated Evaluate(const KernelSpec& spec, const ProblemSpec& problem,
                   const ops::Settings& settings) {
  const Names names = NamesOf(problem, settings);
  Evaluated evaluated;
  const Names sizes = NamesOf(problem, {});  // a binding's size is the problem's, not an axis's
  for (const BindingSpec& binding : spec.bindings) {
    const uint64_t bytes = EvaluateWhole(binding.size, sizes, binding.field + ".size");
    if (bytes == 0) Refuse(binding.field + ".size", "'" + binding.size + "' is 0 bytes");
    evaluated.binding_bytes.push_back(bytes);
  }
  for (size_t i = 0; i < 3; ++i) {
    evaluated.workgroup_size[i] = EvaluateWhole(spec.workgroup_size[i], names,
                                                fmt::format("spec.workgroup_size[{}]", i));
    evaluated.grid[i] = EvaluateWhole(spec.grid[i], names, fmt::format("spec.grid[{}]", i));
  }
  if (!spec.workgroup_bytes.empty()) {
    evaluated.workgroup_bytes = EvaluateWhole(spec.workgroup_bytes, names, "spec.workgroup_bytes");
  }
  evaluated.flop = Evaluate(spec.flop, names, "spec.metric.flop");
  evaluated.bytes = Evaluate(spec.bytes, names, "spec.metric.bytes");
  if (evaluated.flop < 0) Refuse("spec.metric.flop", "below 0");
  if (evaluated.bytes < 0) Refuse("spec.metric.bytes", "below 0");
  if (evaluated.flop == 0 && evaluated.bytes == 0) {
    Refuse("spec.metric", "both flop and bytes are 0: a row needs a rate");
  }
  for (const auto& [name, value] : settings) evaluated.constants[name] = value;
  for (const auto& [name, expression] : spec.constants) {
    evaluated.constants[name] = tune::Evaluate(expression, names, "spec.constants." + name);
  }
  return evaluated;
}

std::vector<ops::Settings> Configurations(const KernelSpec& spec, const ProblemSpec& problem,
                                          bool quick) {
  std::vector<ops::Settings> points = {{}};
  for (const AxisSpec& axis : spec.axes) {
    std::vector<ops::Settings> next;
    for (const ops::Settings& point : points) {
      for (uint32_t value : quick ? axis.quick : axis.values) {
        ops::Settings with = point;
        with[axis.name] = value;
        next.push_back(std::move(with));
      }
    }
    points = std::move(next);
  }
  std::vector<ops::Settings> kept;
  for (const ops::Settings& point : points) {
    const Names names = NamesOf(problem, point);
    bool passes = true;
    for (size_t i = 0; i < spec.restrictions.size() && passes; ++i) {
      passes = EvaluateCondition(spec.restrictions[i], names, fmt::format("spec.restrictions[{}]", i));
    }
    if (passes) kept.push_back(point);
  }
  return kept;
}

ops::Settings DefaultSettings(const KernelSpec& spec) {
  ops::Settings settings;
  for (const AxisSpec& axis : spec.axes) settings[axis.name] = axis.default_value;
  return settings;
}

std::vector<ops::Axis> AxesOf(const KernelSpec& spec) {
  std::vector<ops::Axis> axes;
  for (const AxisSpec& axis : spec.axes) {
    ops::Axis op_axis{.name = axis.name,
                      .meaning = "override constant " + axis.name + " of " + spec.name,
                      .default_rule = std::to_string(axis.default_value) + " (the spec's default)",
                      .min = *std::min_element(axis.values.begin(), axis.values.end()),
                      .max = *std::max_element(axis.values.begin(), axis.values.end()),
                      .choices = axis.values,
                      .grid = axis.values,
                      .quick = axis.quick};
    std::sort(op_axis.choices.begin(), op_axis.choices.end());
    axes.push_back(std::move(op_axis));
  }
  return axes;
}

std::string ProblemPath(const std::string& path, const std::string& problem) {
  std::string out = path;
  for (size_t at = out.find("{problem}"); at != std::string::npos; at = out.find("{problem}", at)) {
    out.replace(at, 9, problem);
    at += problem.size();
  }
  return out;
}

void CheckSpec(const KernelSpec& spec, const WgslDeclarations& kernel,
               const std::string& kernel_name, const WgslDeclarations& reference,
               const std::string& reference_name) {
  auto overrides_of = [](const WgslDeclarations& declarations) {
    std::string names;
    for (const auto& [name, line] : declarations.overrides) names += (names.empty() ? "" : ", ") + name;
    return names.empty() ? std::string("none") : names;
  };
  if (!kernel.entry_points.contains(spec.entry)) {
    Refuse("spec.entry", fmt::format("{} has no @compute fn {}", kernel_name, spec.entry));
  }
  for (const AxisSpec& axis : spec.axes) {
    if (!kernel.overrides.contains(axis.name)) {
      Refuse("spec.axes." + axis.name, fmt::format("{} declares no override {} (its overrides: {})",
                                                   kernel_name, axis.name, overrides_of(kernel)));
    }
  }
  for (const auto& [name, expression] : spec.constants) {
    if (!kernel.overrides.contains(name)) {
      Refuse("spec.constants." + name, fmt::format("{} declares no override {} (its overrides: {})",
                                                   kernel_name, name, overrides_of(kernel)));
    }
  }
  for (const BindingSpec& binding : spec.bindings) {
    const auto declared = kernel.bindings.find({binding.group, binding.binding});
    if (declared == kernel.bindings.end()) {
      Refuse(binding.field, fmt::format("{} declares no {}", kernel_name,
                                        BindingName(binding.group, binding.binding)));
    }
    const WgslBinding& var = declared->second;
    const bool matches = binding.kind == BindingKind::kUniform
                             ? var.address_space == "uniform"
                             : var.address_space == "storage" &&
                                   var.access == (binding.kind == BindingKind::kRead ? "read" : "read_write");
    if (!matches) {
      const std::string wanted = binding.kind == BindingKind::kUniform ? "var<uniform>"
                                 : binding.kind == BindingKind::kRead
                                     ? "var<storage, read>"
                                     : "var<storage, read_write>";
      Refuse(binding.field + ".kind",
             fmt::format("{}:{}: '{}' is var<{}{}>; the spec's kind means {}", kernel_name,
                         var.line, var.name, var.address_space,
                         var.access.empty() ? "" : ", " + var.access, wanted));
    }
  }
  for (const auto& [key, var] : kernel.bindings) {
    const bool listed = std::any_of(spec.bindings.begin(), spec.bindings.end(), [&](const BindingSpec& b) {
      return b.group == key.first && b.binding == key.second;
    });
    if (!listed) {
      Refuse("spec.bindings", fmt::format("{}:{}: '{}' ({}) has no binding in the spec",
                                          kernel_name, var.line, var.name,
                                          BindingName(key.first, key.second)));
    }
  }
  if (!spec.reference.FromFiles()) {
    if (!reference.entry_points.contains(spec.reference.entry)) {
      Refuse("spec.reference.entry",
             fmt::format("{} has no @compute fn {}", reference_name, spec.reference.entry));
    }
    for (const auto& [name, expression] : spec.reference.constants) {
      if (!reference.overrides.contains(name)) {
        Refuse("spec.reference.constants." + name,
               fmt::format("{} declares no override {} (its overrides: {})", reference_name, name,
                           overrides_of(reference)));
      }
    }
    for (const auto& [key, var] : reference.bindings) {
      const bool listed = std::any_of(spec.bindings.begin(), spec.bindings.end(), [&](const BindingSpec& b) {
        return b.group == key.first && b.binding == key.second;
      });
      if (!listed) {
        Refuse("spec.reference", fmt::format("{}:{}: '{}' ({}) has no binding in the spec",
                                             reference_name, var.line, var.name,
                                             BindingName(key.first, key.second)));
      }
    }
  }
  const ops::Settings fallback = DefaultSettings(spec);
  for (const ProblemSpec& problem : spec.problems) {
    const Names sizes = NamesOf(problem, {});
    for (const BindingSpec& binding : spec.bindings) {
      for (const std::string& name : binding.contents.names) {
        if (!problem.sizes.contains(name)) {
          Refuse(binding.field + ".contents.names",
                 fmt::format("problem {} has no size {}", problem.name, name));
        }
      }
    }
    const Names default_names = NamesOf(problem, fallback);
    for (size_t i = 0; i < spec.restrictions.size(); ++i) {
      if (!EvaluateCondition(spec.restrictions[i], default_names,
                             fmt::format("spec.restrictions[{}]", i))) {
        Refuse(fmt::format("spec.restrictions[{}]", i),
               fmt::format("the default configuration {} fails it at problem {}",
                           ops::SettingsText(fallback), problem.name));
      }
    }
    const Evaluated at_default = Evaluate(spec, problem, fallback);
    for (const ops::Settings& settings : Configurations(spec, problem, false)) {
      Evaluate(spec, problem, settings);
    }
    for (size_t b = 0; b < spec.bindings.size(); ++b) {
      const BindingSpec& binding = spec.bindings[b];
      const uint64_t bytes = at_default.binding_bytes[b];
      if (binding.contents.kind == Contents::Kind::kSizes && bytes < 4 * binding.contents.names.size()) {
        Refuse(binding.field + ".size",
               fmt::format("{} bytes cannot hold {} sizes of 4 bytes", bytes, binding.contents.names.size()));
      }
      if ((binding.contents.kind == Contents::Kind::kRandom ||
           binding.contents.kind == Contents::Kind::kConstant) &&
          bytes % ElementBytes(binding.contents.type) != 0) {
        Refuse(binding.field + ".size", fmt::format("{} bytes is no whole number of {}", bytes,
                                                    ElementTypeName(binding.contents.type)));
      }
      if (binding.contents.kind == Contents::Kind::kFile) {
        const std::string path = ProblemPath(binding.contents.path, problem.name);
        std::error_code error;
        const uint64_t file_bytes = std::filesystem::file_size(path, error);
        if (error) Refuse(binding.field + ".contents.path", path + ": " + error.message());
        if (file_bytes != bytes) {
          Refuse(binding.field + ".contents.path",
                 fmt::format("{} holds {} bytes, the binding {} at problem {}", path, file_bytes,
                             bytes, problem.name));
        }
      }
    }
    for (const OutputSpec& output : spec.outputs) {
      const auto at = std::find_if(spec.bindings.begin(), spec.bindings.end(), [&](const BindingSpec& b) {
        return b.group == output.group && b.binding == output.binding;
      });
      const uint64_t bytes = at_default.binding_bytes[at - spec.bindings.begin()];
      if (bytes % ElementBytes(output.type) != 0) {
        Refuse(output.field, fmt::format("its binding's {} bytes is no whole number of {}", bytes,
                                         ElementTypeName(output.type)));
      }
      if (spec.reference.FromFiles()) {
        const std::string path = ProblemPath(spec.reference.files.at({output.group, output.binding}),
                                             problem.name);
        std::error_code error;
        const uint64_t file_bytes = std::filesystem::file_size(path, error);
        if (error) Refuse("spec.reference.files", path + ": " + error.message());
        if (file_bytes != bytes) {
          Refuse("spec.reference.files",
                 fmt::format("{} holds {} bytes, the output {} {} at problem {}: the reference is "
                             "of another output size",
                             path, file_bytes, BindingName(output.group, output.binding), bytes,
                             problem.name));
        }
      }
    }
    if (!spec.reference.FromFiles()) {
      for (size_t i = 0; i < 3; ++i) {
        EvaluateWhole(spec.reference.grid[i], sizes, fmt::format("spec.reference.grid[{}]", i));
      }
      for (const auto& [name, expression] : spec.reference.constants) {
        tune::Evaluate(expression, sizes, "spec.reference.constants." + name);
      }
    }
  }
}

}  // namespace refract::tune
