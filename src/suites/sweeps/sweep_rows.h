// The rows of the sweeps' own ops (the sum, the bandwidth kernels, the 2-bit scan): kernels-suite
// rows of the tuned variant at one configuration, verified against their CPU models. Rows of one
// problem share its inputs and CPU result (SharedInputs), made once by the first that needs them,
// since a sweep runs many configurations of the same problem.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ops/op_kinds.h"
#include "reference/scan_q2.h"
#include "suites/kernels/kernel_benchmark.h"

namespace refract::suites::sweeps {

/// A problem's inputs and CPU result, made on first use and then shared by every row given the
/// same holder (single-threaded, as the rows run one at a time).
template <typename Inputs>
class SharedInputs {
 public:
  explicit SharedInputs(std::function<Inputs()> make) : make_(std::move(make)) {}
  const Inputs& Get() {
    if (!inputs_) inputs_ = make_();
    return *inputs_;
  }

 private:
  std::function<Inputs()> make_;
  std::optional<Inputs> inputs_;
};

/// The sum's data (values in [1, 2): a dropped or doubled value moves a partial by more than
/// its tolerance) and its sums in double: each partial of `wg × items` vec4 is computed by the
/// row, the total here.
struct ReduceInputs {
  std::vector<float> data;
  double total = 0;
};

/// The sum of `count` f32 at one configuration: checks every partial and the total.
class ReduceRow final : public kernels::KernelBenchmark {
 public:
  ReduceRow(bench::BenchmarkInfo info, uint64_t count, kernels::KernelOptions options,
            std::shared_ptr<SharedInputs<ReduceInputs>> inputs);
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override { return ops::kReduceRules.axes().axes(); }
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  ops::ReduceConfig Config(const DeviceLimits& limits) const;
  ops::ReduceShape problem_;
  std::shared_ptr<SharedInputs<ReduceInputs>> inputs_;
  ops::ReduceConfig config_;
};

/// The bandwidth kernels' data, values in [1, 2) from one seed: every size reads a prefix of
/// the same sequence, grown as a larger size needs it.
struct StreamInputs {
  uint64_t seed = 1;
  std::vector<float> data;
  /// At least `bytes` of data.
  std::span<const float> Prefix(uint64_t bytes);
};

/// A vec4 copy or read of `bytes` at one configuration, one copy of the buffer (warm: a
/// bandwidth sweep measures where the data stops fitting a cache). Copy: the destination
/// compared exactly; read: every invocation's sum.
class StreamRow final : public kernels::KernelBenchmark {
 public:
  StreamRow(bench::BenchmarkInfo info, ops::StreamShape problem, kernels::KernelOptions options,
            std::shared_ptr<StreamInputs> inputs);
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override { return ops::kStreamRules.axes().axes(); }
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  ops::StreamShape problem_;
  std::shared_ptr<StreamInputs> inputs_;
  ops::StreamConfig config_;
};

/// The corpus and every score in double.
struct ScanInputs {
  reference::Q2Corpus corpus;
  std::vector<double> scores;
};

/// The 2-bit scan at one configuration: every score of every query checked.
class ScanRow final : public kernels::KernelBenchmark {
 public:
  ScanRow(bench::BenchmarkInfo info, ops::ScanShape problem, kernels::KernelOptions options,
          std::shared_ptr<SharedInputs<ScanInputs>> inputs);
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override { return ops::kScanRules.axes().axes(); }
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  ops::ScanShape problem_;
  std::shared_ptr<SharedInputs<ScanInputs>> inputs_;
};

/// The f16 matmul's inputs, rounded to f16 (their bits, row-major), and its product in double
/// with each output's Σ|a·b| (what its rounding scales with).
struct MatmulF16Inputs {
  std::vector<uint16_t> a, b;
  std::vector<double> c, magnitude;
};

/// The f16 matmul at one configuration: every output checked, within the rounding of its
/// accumulation (f32: K × 2^-24 × Σ|a·b|; f16: 4 √K × 2^-11 × Σ|a·b|, a statistical bound).
class MatmulF16Row final : public kernels::KernelBenchmark {
 public:
  MatmulF16Row(bench::BenchmarkInfo info, ops::MatmulDims dims, kernels::KernelOptions options,
               std::shared_ptr<SharedInputs<MatmulF16Inputs>> inputs);
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override { return ops::kMatmulF16Rules.axes().axes(); }
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  ops::MatmulDims dims_;
  std::shared_ptr<SharedInputs<MatmulF16Inputs>> inputs_;
  ops::MatmulF16Config config_;
};

/// The holders of each op's inputs for one problem.
std::shared_ptr<SharedInputs<ReduceInputs>> ReduceInputsOf(uint64_t count, uint64_t seed);
std::shared_ptr<SharedInputs<ScanInputs>> ScanInputsOf(ops::ScanShape problem, uint64_t seed);
std::shared_ptr<SharedInputs<MatmulF16Inputs>> MatmulF16InputsOf(ops::MatmulDims dims,
                                                                 uint64_t seed);

}  // namespace refract::suites::sweeps
