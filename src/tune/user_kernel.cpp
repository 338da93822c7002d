#include "tune/user_kernel.h"

#include <filesystem>

#include "base/error.h"
#include "profile/document_text.h"
#include "refract/profile.h"

namespace refract::tune {
namespace {

SourceFile Read(const std::string& path, const std::string& what) {
  profile::document::FileText file = profile::document::ReadFile(path);
  if (!file.problem.empty()) throw UsageError(what + " " + path + ": " + file.problem);
  if (auto problem = profile::document::TextProblem(file.text)) {
    throw UsageError(what + " " + path + ": " + *problem);
  }
  return {.name = std::filesystem::path(path).stem().string(),
          .path = path,
          .text = std::string(profile::document::WithoutByteOrderMark(file.text))};
}

}  // namespace

std::vector<std::string> UserKernel::StampNames() const {
  return {kernel.name, spec_file.name + ".spec"};
}

std::string UserKernel::StampHash() const {
  return profile::KernelHash({{kernel.name, kernel.text}, {spec_file.name + ".spec", spec_file.text}});
}

std::vector<std::string> UserKernel::InputPaths() const {
  std::vector<std::string> paths = {kernel.path, spec_file.path, reference.path};
  for (const ProblemSpec& problem : spec.problems) {
    for (const BindingSpec& binding : spec.bindings) {
      if (binding.contents.kind == Contents::Kind::kFile) {
        paths.push_back(ProblemPath(binding.contents.path, problem.name));
      }
    }
    for (const auto& [key, path] : spec.reference.files) {
      paths.push_back(ProblemPath(path, problem.name));
    }
  }
  return paths;
}

UserKernel LoadUserKernel(const std::string& kernel_path, const std::string& spec_path) {
  UserKernel user;
  user.kernel = Read(kernel_path, "kernel");
  user.kernel.declared = ScanWgsl(user.kernel.text);
  user.spec_file = Read(spec_path, "spec");
  try {
    user.spec = ParseSpec(user.spec_file.text, std::filesystem::path(spec_path).parent_path());
  } catch (const UsageError& error) {
    throw UsageError(spec_path + ": " + error.what());
  }
  if (!user.spec.reference.FromFiles()) {
    if (user.spec.reference.kernel.empty()) {
      user.spec.reference.kernel = kernel_path;
      user.reference = user.kernel;
    } else {
      user.reference = Read(user.spec.reference.kernel.string(), "reference");
      user.reference.declared = ScanWgsl(user.reference.text);
    }
  }
  try {
    CheckSpec(user.spec, user.kernel.declared, user.kernel.path, user.reference.declared,
              user.reference.path);
  } catch (const UsageError& error) {
    throw UsageError(spec_path + ": " + error.what());
  }
  return user;
}

}  // namespace refract::tune
