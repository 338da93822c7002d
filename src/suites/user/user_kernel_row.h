// A user's kernel at one problem and configuration (`refract tune`): a kernels-suite row, so the
// sweep runner checks, verifies and times it as it does refract's own. Its inputs are the spec's
// binding contents; its outputs are checked against the spec's reference (another entry point
// run on the same inputs, or files), which runs once per problem and is shared by its rows.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "suites/kernels/kernel_benchmark.h"
#include "tune/user_kernel.h"

namespace refract::suites::user {

/// A problem's inputs (each spec binding's bytes before a call) and expected outputs (each spec
/// output's bytes), made on first use and shared by the problem's rows (one at a time).
class UserProblem {
 public:
  UserProblem(std::shared_ptr<const tune::UserKernel> user, size_t problem, uint64_t seed);
  const tune::ProblemSpec& spec() const;
  /// Each binding's contents, in the spec's order.
  const std::vector<std::vector<std::byte>>& Inputs();
  /// Each output's expected bytes, in the spec's order: the reference files, or the reference
  /// entry point run once on `context` (its errors throw, failing the row that asked).
  const std::vector<std::vector<std::byte>>& Expected(gpu::Context& context);

 private:
  std::shared_ptr<const tune::UserKernel> user_;
  size_t problem_;
  uint64_t seed_;
  std::optional<std::vector<std::vector<std::byte>>> inputs_;
  std::optional<std::vector<std::vector<std::byte>>> expected_;
};

class UserKernelRow final : public kernels::KernelBenchmark {
 public:
  /// The row of `problem` at `settings` (empty: the spec's default configuration).
  UserKernelRow(std::shared_ptr<const tune::UserKernel> user,
                std::shared_ptr<UserProblem> problem, const ops::Settings& settings,
                kernels::KernelOptions options);
  /// The device's limits against the configuration: its workgroup size and memory, its grid,
  /// each binding's size.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  UserKernelRow(std::shared_ptr<const tune::UserKernel> user,
                std::shared_ptr<UserProblem> problem, const ops::Settings& settings,
                kernels::KernelOptions options, tune::Evaluated evaluated);

  std::shared_ptr<const tune::UserKernel> user_;
  std::shared_ptr<UserProblem> problem_;
  ops::Settings settings_;
  tune::Evaluated evaluated_;
};

}  // namespace refract::suites::user
