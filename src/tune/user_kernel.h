// A user's kernel as `refract tune` runs it: the WGSL file, the spec, the reference's WGSL,
// read and checked against each other before anything runs, and the stamp its profile entries
// carry. Pure: no GPU.
#pragma once

#include <string>
#include <vector>

#include "tune/kernel_spec.h"
#include "tune/wgsl_declarations.h"

namespace refract::tune {

struct SourceFile {
  std::string name;  ///< the file's name without its folder and extension (".wgsl", ".json")
  std::string path;
  std::string text;
  WgslDeclarations declared;  ///< a WGSL file's declarations (ScanWgsl of `text`)
};

struct UserKernel {
  KernelSpec spec;
  SourceFile kernel;
  SourceFile spec_file;
  SourceFile reference;  ///< the reference's WGSL (the kernel's file when the spec names none);
                         ///< empty for a reference of files
  /// A profile entry's stamp: the files it holds (kernel, then "<spec name>.spec") and
  /// refract::profile::KernelHash of them, so an edit of either makes the entry stale.
  std::vector<std::string> StampNames() const;
  std::string StampHash() const;
  /// Every file a run reads: the kernel, the spec, the reference's WGSL, and each problem's
  /// contents and reference files (what no output may lead to).
  std::vector<std::string> InputPaths() const;
};

/// Reads the kernel and the spec (and the reference's WGSL), parses the spec and checks it
/// against the shaders (ParseSpec, ScanWgsl, CheckSpec). Throws UsageError naming the file or
/// the spec field: a file that is not there or no text refract reads, a spec error.
UserKernel LoadUserKernel(const std::string& kernel_path, const std::string& spec_path);

}  // namespace refract::tune
