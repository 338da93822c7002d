#include "tune/kernel_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "base/error.h"
#include "tune/spec_refusal.h"

namespace refract::tune {
namespace {

using nlohmann::json;

/// An object's fields read one by one; Done() refuses any field not read (a misspelt key must
/// not pass silently).
class Fields {
 public:
  Fields(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object.is_object()) Refuse(path_, "not an object");
  }
  const std::string& path() const { return path_; }
  std::string At(const std::string& key) const { return path_ + "." + key; }
  bool Has(const std::string& key) const { return object_.contains(key); }
  const json& Get(const std::string& key) {
    read_.insert(key);
    if (!object_.contains(key)) Refuse(At(key), "missing");
    return object_.at(key);
  }
  std::string Text(const std::string& key) {
    const json& value = Get(key);
    if (!value.is_string() || value.get<std::string>().empty()) {
      Refuse(At(key), "not a non-empty string");
    }
    return value.get<std::string>();
  }
  uint32_t Whole(const std::string& key, uint32_t largest = UINT32_MAX) {
    return WholeOf(Get(key), At(key), largest);
  }
  double Number(const std::string& key) {
    const json& value = Get(key);
    if (!value.is_number()) Refuse(At(key), "not a number");
    return value.get<double>();
  }
  /// An expression: a string, or a number written as one.
  std::string Expression(const std::string& key) { return ExpressionOf(Get(key), At(key)); }
  void Done() const {
    for (const auto& [key, value] : object_.items()) {
      if (!read_.contains(key)) Refuse(At(key), "unknown field");
    }
  }
  static uint32_t WholeOf(const json& value, const std::string& field, uint32_t largest) {
    if (!value.is_number_integer() || value.get<int64_t>() < 0 ||
        value.get<int64_t>() > static_cast<int64_t>(largest)) {
      Refuse(field, fmt::format("not a whole number from 0 to {}", largest));
    }
    return static_cast<uint32_t>(value.get<int64_t>());
  }
  static std::string ExpressionOf(const json& value, const std::string& field) {
    if (value.is_number()) return value.dump();
    if (!value.is_string() || value.get<std::string>().empty()) {
      Refuse(field, "not an expression (a string such as \"N*4\", or a number)");
    }
    return value.get<std::string>();
  }

 private:
  const json& object_;
  std::string path_;
  std::set<std::string> read_;
};

/// A size or axis becomes a param of every row: it may not take the name of one refract writes.
void RefuseReservedName(const std::string& field, const std::string& name) {
  static const std::set<std::string> kReserved = {
      "kernel", "variant", "model", "phase", "problem", "sweep", "role", "dims", "main_axis",
      "axes", "axes_hash", "kernels", "kernel_hash", "copies", "cold", "workgroup_size", "grid",
      "pass_ms", "over_default_limits", "timed_dispatch", "replaced_kernels"};
  if (kReserved.contains(name)) Refuse(field, "'" + name + "' is a name refract's rows use");
}

ElementType TypeOf(const std::string& text, const std::string& field) {
  if (text == "f32") return ElementType::kF32;
  if (text == "i32") return ElementType::kI32;
  if (text == "u32") return ElementType::kU32;
  if (text == "u8") return ElementType::kU8;
  Refuse(field, "'" + text + "' is no element type (f32, i32, u32, u8)");
}

std::string Resolved(const std::filesystem::path& folder, const std::string& path) {
  const std::filesystem::path given(path);
  return (given.is_absolute() ? given : folder / given).lexically_normal().string();
}

Contents ParseContents(const json& value, const std::string& path,
                       const std::filesystem::path& folder) {
  Fields fields(value, path);
  const std::string kind = fields.Text("kind");
  Contents contents;
  if (kind == "zeros") {
    contents.kind = Contents::Kind::kZeros;
  } else if (kind == "random") {
    contents.kind = Contents::Kind::kRandom;
    contents.type = TypeOf(fields.Text("type"), fields.At("type"));
    contents.min = fields.Number("min");
    contents.max = fields.Number("max");
    if (!(contents.min < contents.max)) Refuse(fields.At("max"), "not above min");
    if (contents.type != ElementType::kF32) {
      // Whole numbers uniform in [ceil(min), floor(max)]: some, all of the type (at most 2^32).
      const double lo = std::ceil(contents.min), hi = std::floor(contents.max);
      const double type_lo = contents.type == ElementType::kI32 ? -2147483648.0 : 0.0;
      const double type_hi = contents.type == ElementType::kI32  ? 2147483647.0
                             : contents.type == ElementType::kU8 ? 255.0
                                                                 : 4294967295.0;
      if (lo > hi || lo < type_lo || hi > type_hi) {
        Refuse(path, fmt::format("[{:.10g}, {:.10g}] holds no range of whole {} values within the "
                                 "type's ({:.10g} to {:.10g})",
                                 contents.min, contents.max, ElementTypeName(contents.type),
                                 type_lo, type_hi));
      }
    }
  } else if (kind == "constant") {
    contents.kind = Contents::Kind::kConstant;
    contents.type = TypeOf(fields.Text("type"), fields.At("type"));
    contents.value = fields.Number("value");
  } else if (kind == "sizes") {
    contents.kind = Contents::Kind::kSizes;
    const json& names = fields.Get("names");
    if (!names.is_array() || names.empty()) Refuse(fields.At("names"), "not a list of sizes");
    for (size_t i = 0; i < names.size(); ++i) {
      if (!names[i].is_string()) Refuse(fmt::format("{}[{}]", fields.At("names"), i), "not a name");
      contents.names.push_back(names[i].get<std::string>());
    }
  } else if (kind == "file") {
    contents.kind = Contents::Kind::kFile;
    contents.path = Resolved(folder, fields.Text("path"));
  } else {
    Refuse(fields.At("kind"), "'" + kind + "' is none of zeros, random, constant, sizes, file");
  }
  fields.Done();
  return contents;
}

std::array<std::string, 3> ParseTriple(const json& value, const std::string& field) {
  if (!value.is_array() || value.empty() || value.size() > 3) {
    Refuse(field, "not a list of 1 to 3 expressions (x, y, z)");
  }
  std::array<std::string, 3> triple{"1", "1", "1"};
  for (size_t i = 0; i < value.size(); ++i) {
    triple[i] = Fields::ExpressionOf(value[i], fmt::format("{}[{}]", field, i));
  }
  return triple;
}

std::map<std::string, std::string> ParseConstants(const json& value, const std::string& field) {
  if (!value.is_object()) Refuse(field, "not an object of NAME: expression");
  std::map<std::string, std::string> constants;
  for (const auto& [name, expression] : value.items()) {
    constants[name] = Fields::ExpressionOf(expression, field + "." + name);
  }
  return constants;
}

std::pair<uint32_t, uint32_t> BindingKey(const std::string& text, const std::string& field) {
  const size_t colon = text.find(':');
  try {
    if (colon != std::string::npos && colon > 0 && colon + 1 < text.size() &&
        text.find_first_not_of("0123456789:") == std::string::npos) {
      return {static_cast<uint32_t>(std::stoul(text.substr(0, colon))),
              static_cast<uint32_t>(std::stoul(text.substr(colon + 1)))};
    }
  } catch (const std::exception&) {
  }
  Refuse(field, "'" + text + "' is not \"group:binding\"");
}

AxisSpec ParseAxis(const std::string& name, const json& value, const std::string& field) {
  AxisSpec axis{.name = name};
  auto values_of = [&](const json& list, const std::string& at) {
    if (!list.is_array() || list.empty()) Refuse(at, "not a non-empty list of whole numbers");
    std::vector<uint32_t> values;
    for (size_t i = 0; i < list.size(); ++i) {
      const uint32_t v = Fields::WholeOf(list[i], fmt::format("{}[{}]", at, i), UINT32_MAX);
      if (std::find(values.begin(), values.end(), v) != values.end()) {
        Refuse(fmt::format("{}[{}]", at, i), fmt::format("{} is listed twice", v));
      }
      values.push_back(v);
    }
    return values;
  };
  if (value.is_array()) {
    axis.values = values_of(value, field);
    axis.default_value = axis.values.front();
  } else {
    Fields fields(value, field);
    axis.values = values_of(fields.Get("values"), fields.At("values"));
    axis.default_value =
        fields.Has("default") ? fields.Whole("default") : axis.values.front();
    if (fields.Has("quick")) axis.quick = values_of(fields.Get("quick"), fields.At("quick"));
    fields.Done();
    if (std::find(axis.values.begin(), axis.values.end(), axis.default_value) ==
        axis.values.end()) {
      Refuse(fields.At("default"), fmt::format("{} is not one of the values", axis.default_value));
    }
    for (size_t i = 0; i < axis.quick.size(); ++i) {
      if (std::find(axis.values.begin(), axis.values.end(), axis.quick[i]) == axis.values.end()) {
        Refuse(fmt::format("{}[{}]", fields.At("quick"), i),
               fmt::format("{} is not one of the values", axis.quick[i]));
      }
    }
  }
  if (axis.quick.empty()) axis.quick = axis.values;
  return axis;
}

OutputSpec ParseOutput(const json& value, const std::string& path) {
  Fields fields(value, path);
  OutputSpec output{.group = fields.Whole("group"),
                    .binding = fields.Whole("binding"),
                    .type = TypeOf(fields.Text("type"), fields.At("type")),
                    .field = path};
  if (output.type == ElementType::kU8) Refuse(fields.At("type"), "an output is f32, i32 or u32");
  if (fields.Has("tolerance")) {
    Fields tolerance(fields.Get("tolerance"), fields.At("tolerance"));
    for (const char* key : {"absolute", "relative", "ulps"}) {
      if (!tolerance.Has(key)) continue;
      const double number = tolerance.Number(key);
      if (!(number >= 0)) Refuse(tolerance.At(key), "below 0");
      (std::string(key) == "absolute"   ? output.absolute
       : std::string(key) == "relative" ? output.relative
                                        : output.ulps) = number;
    }
    tolerance.Done();
    if (output.ulps > 0 && output.type != ElementType::kF32) {
      Refuse(tolerance.At("ulps"), "units in the last place are for f32 outputs");
    }
  }
  fields.Done();
  return output;
}

ReferenceSpec ParseReference(const json& value, const std::string& path,
                             const std::filesystem::path& folder,
                             const std::filesystem::path& kernel_default) {
  Fields fields(value, path);
  ReferenceSpec reference;
  if (fields.Has("files")) {
    const json& files = fields.Get("files");
    if (!files.is_object() || files.empty()) {
      Refuse(fields.At("files"), "not an object of \"group:binding\": path");
    }
    for (const auto& [key, file] : files.items()) {
      const std::string at = fields.At("files") + "." + key;
      if (!file.is_string()) Refuse(at, "not a path");
      reference.files[BindingKey(key, at)] = Resolved(folder, file.get<std::string>());
    }
    for (const char* key : {"entry", "kernel", "grid", "constants"}) {
      if (fields.Has(key)) Refuse(fields.At(key), "a reference of files has no " + std::string(key));
    }
  } else {
    reference.entry = fields.Text("entry");
    reference.kernel = fields.Has("kernel") ? std::filesystem::path(Resolved(folder, fields.Text("kernel")))
                                            : kernel_default;
    reference.grid = ParseTriple(fields.Get("grid"), fields.At("grid"));
    if (fields.Has("constants")) {
      reference.constants = ParseConstants(fields.Get("constants"), fields.At("constants"));
    }
  }
  fields.Done();
  return reference;
}

}  // namespace

std::string_view ElementTypeName(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return "f32";
    case ElementType::kI32:
      return "i32";
    case ElementType::kU32:
      return "u32";
    case ElementType::kU8:
      return "u8";
  }
  return "?";
}

uint32_t ElementBytes(ElementType type) { return type == ElementType::kU8 ? 1 : 4; }

KernelSpec ParseSpec(std::string_view text, const std::filesystem::path& folder) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    throw UsageError(fmt::format("spec: not JSON: {}", error.what()));
  }
  Fields fields(document, "spec");
  if (!fields.Has("format") || fields.Get("format") != kSpecFormat) {
    Refuse(fields.At("format"), fmt::format("not \"{}\": this is no tuning spec", kSpecFormat));
  }
  const json& version = fields.Get("spec_version");
  if (!version.is_number_integer() || version.get<int64_t>() != kSpecVersion) {
    Refuse(fields.At("spec_version"),
           fmt::format("{} is not {}, the version this refract reads", version.dump(),
                       kSpecVersion));
  }
  KernelSpec spec;
  spec.name = fields.Text("name");
  spec.entry = fields.Text("entry");

  const json& problems = fields.Get("problems");
  if (!problems.is_array() || problems.empty()) Refuse(fields.At("problems"), "not a non-empty list");
  for (size_t i = 0; i < problems.size(); ++i) {
    Fields problem(problems[i], fmt::format("spec.problems[{}]", i));
    ProblemSpec parsed{.name = problem.Text("name")};
    if (parsed.name.find_first_of("/ ,*?[]") != std::string::npos) {
      Refuse(problem.At("name"), "holds one of / , * ? [ ] or a space (it is part of row ids)");
    }
    const json& sizes = problem.Get("sizes");
    if (!sizes.is_object()) Refuse(problem.At("sizes"), "not an object of NAME: number");
    for (const auto& [name, value] : sizes.items()) {
      if (!value.is_number()) Refuse(problem.At("sizes") + "." + name, "not a number");
      RefuseReservedName(problem.At("sizes") + "." + name, name);
      parsed.sizes[name] = value.get<double>();
    }
    problem.Done();
    for (const ProblemSpec& earlier : spec.problems) {
      if (earlier.name == parsed.name) Refuse(problem.At("name"), "named twice");
    }
    spec.problems.push_back(std::move(parsed));
  }

  const json& bindings = fields.Get("bindings");
  if (!bindings.is_array() || bindings.empty()) Refuse(fields.At("bindings"), "not a non-empty list");
  for (size_t i = 0; i < bindings.size(); ++i) {
    const std::string path = fmt::format("spec.bindings[{}]", i);
    Fields binding(bindings[i], path);
    BindingSpec parsed{.group = binding.Whole("group"), .binding = binding.Whole("binding")};
    const std::string kind = binding.Text("kind");
    if (kind == "read") {
      parsed.kind = BindingKind::kRead;
    } else if (kind == "read_write") {
      parsed.kind = BindingKind::kReadWrite;
    } else if (kind == "uniform") {
      parsed.kind = BindingKind::kUniform;
    } else {
      Refuse(binding.At("kind"), "'" + kind + "' is none of read, read_write, uniform");
    }
    parsed.size = binding.Expression("size");
    parsed.contents = ParseContents(binding.Get("contents"), binding.At("contents"), folder);
    parsed.field = path;
    binding.Done();
    for (const BindingSpec& earlier : spec.bindings) {
      if (earlier.group == parsed.group && earlier.binding == parsed.binding) {
        Refuse(path, BindingName(parsed.group, parsed.binding) + " is listed twice");
      }
    }
    spec.bindings.push_back(std::move(parsed));
  }

  uint32_t groups = 0;  // bind groups are numbered from 0, none left empty
  for (const BindingSpec& binding : spec.bindings) groups = std::max(groups, binding.group + 1);
  for (uint32_t group = 0; group < groups; ++group) {
    if (std::none_of(spec.bindings.begin(), spec.bindings.end(),
                     [&](const BindingSpec& b) { return b.group == group; })) {
      Refuse(fields.At("bindings"), fmt::format("no binding in group {} (groups are numbered from 0 "
                                                "with none left empty)", group));
    }
  }

  const json& axes = fields.Get("axes");
  if (!axes.is_object() || axes.empty()) Refuse(fields.At("axes"), "not a non-empty object");
  for (const auto& [name, value] : axes.items()) {
    RefuseReservedName(fields.At("axes") + "." + name, name);
    for (const ProblemSpec& problem : spec.problems) {
      if (problem.sizes.contains(name)) {
        Refuse(fields.At("axes") + "." + name, "is also a size of problem " + problem.name);
      }
    }
    spec.axes.push_back(ParseAxis(name, value, fields.At("axes") + "." + name));
  }
  if (fields.Has("restrictions")) {
    const json& restrictions = fields.Get("restrictions");
    if (!restrictions.is_array()) Refuse(fields.At("restrictions"), "not a list of expressions");
    for (size_t i = 0; i < restrictions.size(); ++i) {
      spec.restrictions.push_back(Fields::ExpressionOf(
          restrictions[i], fmt::format("spec.restrictions[{}]", i)));
    }
  }
  if (fields.Has("constants")) {
    spec.constants = ParseConstants(fields.Get("constants"), fields.At("constants"));
  }
  spec.workgroup_size = ParseTriple(fields.Get("workgroup_size"), fields.At("workgroup_size"));
  if (fields.Has("workgroup_bytes")) spec.workgroup_bytes = fields.Expression("workgroup_bytes");
  spec.grid = ParseTriple(fields.Get("grid"), fields.At("grid"));
  // The reference's kernel defaults to the tuned kernel's file, which the caller knows: an
  // empty path here, filled by the caller.
  spec.reference = ParseReference(fields.Get("reference"), fields.At("reference"), folder, {});

  const json& outputs = fields.Get("outputs");
  if (!outputs.is_array() || outputs.empty()) Refuse(fields.At("outputs"), "not a non-empty list");
  for (size_t i = 0; i < outputs.size(); ++i) {
    OutputSpec output = ParseOutput(outputs[i], fmt::format("spec.outputs[{}]", i));
    const auto bound = std::find_if(spec.bindings.begin(), spec.bindings.end(),
                                    [&](const BindingSpec& b) {
                                      return b.group == output.group && b.binding == output.binding;
                                    });
    if (bound == spec.bindings.end()) {
      Refuse(output.field, BindingName(output.group, output.binding) + " is no binding of the spec");
    }
    if (bound->kind != BindingKind::kReadWrite) {
      Refuse(output.field, BindingName(output.group, output.binding) +
                               " is not read_write: the kernel cannot write it");
    }
    spec.outputs.push_back(output);
  }
  for (const auto& [key, path] : spec.reference.files) {
    const bool is_output = std::any_of(spec.outputs.begin(), spec.outputs.end(), [&](const OutputSpec& o) {
      return o.group == key.first && o.binding == key.second;
    });
    if (!is_output) {
      Refuse("spec.reference.files", BindingName(key.first, key.second) + " is no output");
    }
  }
  for (const OutputSpec& output : spec.outputs) {
    if (spec.reference.FromFiles() &&
        !spec.reference.files.contains({output.group, output.binding})) {
      Refuse("spec.reference.files",
             "no file for the output " + BindingName(output.group, output.binding));
    }
  }

  Fields metric(fields.Get("metric"), fields.At("metric"));
  spec.flop = metric.Expression("flop");
  spec.bytes = metric.Expression("bytes");
  metric.Done();
  spec.main_axis = fields.Has("main_axis") ? fields.Text("main_axis") : spec.axes.front().name;
  if (std::none_of(spec.axes.begin(), spec.axes.end(),
                   [&](const AxisSpec& axis) { return axis.name == spec.main_axis; })) {
    Refuse(fields.At("main_axis"), "'" + spec.main_axis + "' is no axis of the spec");
  }
  if (fields.Has("$schema")) fields.Get("$schema");  // an editor's pointer to the schema
  fields.Done();
  return spec;
}

}  // namespace refract::tune
