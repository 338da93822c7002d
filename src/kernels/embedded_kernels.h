// The WGSL kernels of src/kernels/ (plain .wgsl files and those generated from .wgsl.in fragments),
// embedded into the binary at build time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace refract::wgsl {

/// One embedded kernel: `name` is the file name without ".wgsl" (or ".wgsl.in").
struct EmbeddedKernel {
  std::string_view name;
  std::string_view source;
};

/// Every embedded kernel, sorted by name.
const std::vector<EmbeddedKernel>& AllKernels();

/// Environment variable naming a folder of .wgsl files that replace embedded kernels of the same
/// name: a kernel author's way to try a variant without rebuilding. Replacements are verified
/// against the same CPU models as the originals.
inline constexpr const char* kKernelDirVariable = "REFRACT_KERNEL_DIR";

/// The WGSL source of src/kernels/<name>.wgsl, or the one generated from src/kernels/<name>.wgsl.in
/// (or of its replacement <name>.wgsl in REFRACT_KERNEL_DIR); throws refract::Error when there is
/// none, or when REFRACT_KERNEL_DIR is set but names no folder.
std::string_view KernelSource(std::string_view name);

/// REFRACT_KERNEL_DIR's value, "" when unset or empty; throws refract::Error when it is set but
/// names no folder (a mistyped path would silently measure the embedded kernels).
std::string KernelDir();

/// A kernel taken from REFRACT_KERNEL_DIR instead of the embedded one of its name.
struct ReplacedKernel {
  std::string name;    ///< e.g. "llm_matmul_q4"
  std::string path;    ///< the file read
  std::string sha256;  ///< of its text, 64 hex digits
  bool operator==(const ReplacedKernel&) const = default;
};

/// The replacements KernelSource handed out since the previous call, each once, in name order;
/// the runner asks before and after each row's preparation, so that the row names the kernels
/// it ran that are not the embedded ones.
std::vector<ReplacedKernel> TakeReplacementsUsed();

/// The names of every kernel KernelSource handed out since the previous call, in name order,
/// embedded or replaced: what a sweep row compiled, for its profile entry's kernel hash.
std::vector<std::string> TakeKernelsUsed();

/// The stamp of the kernels `names` as KernelSource has them now (refract::profile::KernelHash):
/// a profile entry is stale when its kernels' hash is not this one.
std::string KernelsHash(const std::vector<std::string>& names);

}  // namespace refract::wgsl
