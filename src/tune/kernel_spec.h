// A tuning spec (docs/TUNE.md; its layout docs/tune-spec.schema.json): what `refract tune` needs
// to run a user's WGSL kernel — its problems, bindings and their contents, the override
// constants to sweep and their restrictions, the workgroup size and grid, the reference that
// checks it and the work it does — read strictly, every expression checked at every problem and
// configuration, and every name checked against the shader's declarations. Pure: no GPU.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ops/axis.h"
#include "tune/expression.h"
#include "tune/wgsl_declarations.h"

namespace refract::tune {

inline constexpr const char* kSpecFormat = "refract-tune-spec";
/// The spec version this refract reads and writes.
inline constexpr int kSpecVersion = 1;

/// How a binding is declared: var<storage, read>, var<storage, read_write>, var<uniform>.
enum class BindingKind { kRead, kReadWrite, kUniform };
/// An element type of a binding's contents or of an output.
enum class ElementType { kF32, kI32, kU32, kU8 };

/// What a binding holds before each call.
struct Contents {
  enum class Kind { kZeros, kRandom, kConstant, kSizes, kFile } kind = Kind::kZeros;
  ElementType type = ElementType::kF32;  ///< random, constant
  double min = 0, max = 1;               ///< random: uniform in [min, max) (integers: [min, max])
  double value = 0;                      ///< constant
  std::vector<std::string> names;        ///< sizes: these sizes, a u32 each, in order
  std::string path;  ///< file: the raw bytes ("{problem}" is the problem's name), resolved
};

struct BindingSpec {
  uint32_t group = 0, binding = 0;
  BindingKind kind = BindingKind::kRead;
  std::string size;  ///< bytes, an expression of the sizes
  Contents contents;
  std::string field;  ///< "spec.bindings[2]", for messages
};

/// An override constant swept.
struct AxisSpec {
  std::string name;
  std::vector<uint32_t> values;  ///< the full grid, in order
  std::vector<uint32_t> quick;   ///< --quick's values (the full grid's when not stated)
  uint32_t default_value = 0;    ///< the spec's default configuration (the first value unstated)
};

/// An output binding and how close it must come to the reference.
struct OutputSpec {
  uint32_t group = 0, binding = 0;
  ElementType type = ElementType::kF32;
  double absolute = 0, relative = 0;  ///< |g − r| ≤ absolute + relative · |r|, or
  double ulps = 0;                    ///< f32: within this many units in the last place of r
  std::string field;
};

/// What an output is checked against: another entry point (of the kernel's file or another)
/// run on the same inputs, or files of the expected bytes.
struct ReferenceSpec {
  std::filesystem::path kernel;  ///< the WGSL file (the tuned kernel's when not stated)
  std::string entry;             ///< empty when the reference is files
  std::map<std::string, std::string> constants;  ///< its overrides: expressions of the sizes
  std::array<std::string, 3> grid;               ///< its workgroups: expressions of the sizes
  /// Files: "group:binding" → path ("{problem}" is the problem's name), resolved.
  std::map<std::pair<uint32_t, uint32_t>, std::string> files;
  bool FromFiles() const { return entry.empty(); }
};

struct ProblemSpec {
  std::string name;
  Names sizes;
};

struct KernelSpec {
  std::string name;   ///< the profile entry's kernel
  std::string entry;  ///< the tuned entry point
  std::vector<ProblemSpec> problems;
  std::vector<BindingSpec> bindings;
  std::vector<AxisSpec> axes;               ///< in name order
  std::vector<std::string> restrictions;    ///< expressions of the sizes and axes, each ≠ 0
  std::map<std::string, std::string> constants;  ///< fixed overrides: expressions of sizes, axes
  std::array<std::string, 3> workgroup_size;      ///< expressions of the sizes and axes
  std::string workgroup_bytes;  ///< workgroup memory, an expression; "" when unstated
  std::array<std::string, 3> grid;                ///< workgroups: expressions
  ReferenceSpec reference;
  std::vector<OutputSpec> outputs;
  std::string flop, bytes;  ///< a call's work: expressions of the sizes (and axes)
  std::string main_axis;    ///< the axis the cliffs run along (the first axis unstated)
};

/// The spec in `text` (a file in `folder`, which relative paths are resolved from). Throws
/// UsageError naming the first problem as "spec.<field>: …": not JSON, another format or a
/// spec_version other than kSpecVersion, a field missing, unknown or of the wrong type, a
/// value out of range, an axis default that is not one of its values.
KernelSpec ParseSpec(std::string_view text, const std::filesystem::path& folder);

/// A configuration at a problem, evaluated.
struct Evaluated {
  std::vector<uint64_t> binding_bytes;  ///< per spec binding
  std::array<uint64_t, 3> workgroup_size{1, 1, 1};
  uint64_t workgroup_bytes = 0;  ///< 0 when the spec states none
  std::array<uint64_t, 3> grid{1, 1, 1};
  double flop = 0, bytes = 0;
  std::map<std::string, double> constants;  ///< the kernel's overrides: axes and constants
};

/// The names an expression of `problem` at `settings` may use: the sizes and the axes.
Names NamesOf(const ProblemSpec& problem, const ops::Settings& settings);

/// `spec` at `problem` and `settings`; throws UsageError naming the field of an expression that
/// fails (EvaluateWhole's rules for sizes and grids; a work figure must be ≥ 0).
Evaluated Evaluate(const KernelSpec& spec, const ProblemSpec& problem,
                   const ops::Settings& settings);

/// The configurations of `problem`: the product of the axes' values (quick: their quick
/// values), the last axis fastest, that pass every restriction.
std::vector<ops::Settings> Configurations(const KernelSpec& spec, const ProblemSpec& problem,
                                          bool quick);

/// The spec's default configuration (each axis's default).
ops::Settings DefaultSettings(const KernelSpec& spec);

/// The axes as a sweep's op axes: each an override constant whose allowed values are its grid.
std::vector<ops::Axis> AxesOf(const KernelSpec& spec);

/// Throws UsageError naming the spec field and the WGSL line when `spec` and the shaders
/// disagree: an axis or constant the kernel declares no override for, a binding it does not
/// declare or declares of another kind, a declared binding the spec lacks, an entry point that
/// is not there (the kernel's, the reference's); then evaluates every problem at every
/// configuration and the default (Evaluate's errors; a restriction the default fails), and
/// checks the reference: its files' sizes against the outputs' bytes, its grid and constants.
/// `kernel_name`, `reference_name`: the files' names for messages.
void CheckSpec(const KernelSpec& spec, const WgslDeclarations& kernel,
               const std::string& kernel_name, const WgslDeclarations& reference,
               const std::string& reference_name);

/// The path of reference file `path` for `problem` ("{problem}" replaced).
std::string ProblemPath(const std::string& path, const std::string& problem);

/// "f32", "i32", "u32", "u8"; its size in bytes.
std::string_view ElementTypeName(ElementType type);
uint32_t ElementBytes(ElementType type);

}  // namespace refract::tune
