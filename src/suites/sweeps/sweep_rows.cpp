#include "suites/sweeps/sweep_rows.h"

#include <cmath>
#include <span>

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/half.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::sweeps {
namespace {

using kernels::Metric;
using kernels::Variant;

constexpr double kUnitRoundoff = 1.0 / (1 << 24);  // f32's, 2^-24

uint32_t Log2(uint32_t power_of_two) {
  uint32_t log = 0;
  while ((1u << log) < power_of_two) ++log;
  return log;
}

}  // namespace

std::shared_ptr<SharedInputs<ReduceInputs>> ReduceInputsOf(uint64_t count, uint64_t seed) {
  return std::make_shared<SharedInputs<ReduceInputs>>([count, seed] {
    ReduceInputs inputs{.data = reference::RandomFloats(count, seed, 1.0f, 2.0f)};
    for (float value : inputs.data) inputs.total += value;
    return inputs;
  });
}

std::span<const float> StreamInputs::Prefix(uint64_t bytes) {
  // RandomFloats(n) is a prefix of RandomFloats(m > n): regrowing keeps every smaller size's data.
  if (data.size() < bytes / 4) data = reference::RandomFloats(bytes / 4, seed, 1.0f, 2.0f);
  return std::span<const float>(data).first(bytes / 4);
}

std::shared_ptr<SharedInputs<ScanInputs>> ScanInputsOf(ops::ScanShape problem, uint64_t seed) {
  return std::make_shared<SharedInputs<ScanInputs>>([problem, seed] {
    ScanInputs inputs{.corpus = reference::RandomQ2Corpus(problem.vectors, problem.d, seed)};
    inputs.scores = reference::Q2Scores(inputs.corpus);
    return inputs;
  });
}

// ---- the sum ----

ReduceRow::ReduceRow(bench::BenchmarkInfo info, uint64_t count, kernels::KernelOptions options,
                     std::shared_ptr<SharedInputs<ReduceInputs>> inputs)
    : KernelBenchmark(
          std::move(info), Variant::kTuned, Metric::kBytes,
          {.flops = static_cast<double>(count), .bytes = 4.0 * static_cast<double>(count)},
          std::move(options)),
      problem_{.count = count},
      inputs_(std::move(inputs)) {}

ops::ReduceConfig ReduceRow::Config(const DeviceLimits& limits) const {
  return ops::kReduceRules.Resolve(problem_, limits, options().settings);
}

ops::Refusal ReduceRow::CheckOn(const DeviceLimits& limits) const {
  if (auto unknown = UnknownSettings({&ops::kReduceRules.axes().axes()})) return unknown;
  return ops::kReduceRules.Check(Config(limits), problem_, limits);
}

void ReduceRow::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  config_ = Config(context.limits());
  SetAxes(ops::kReduceRules.axes().ValuesOf(config_));
  SetParam("partials", static_cast<int64_t>(ops::ReducePartials(config_, problem_)));
  const auto record = kernels::CompileOp(context, ops::kReduce, problem_, config_, info().id);
  const std::vector<float>& data = inputs_->Get().data;
  const uint64_t groups = ops::ReducePartials(config_, problem_);
  BuildCopies(context, data.size() * 4, [&](uint32_t) {
    const gpu::Buffer partials = kernels::StorageOf(context, groups, "partial sums");
    const gpu::Buffer result = kernels::StorageOf(context, 1, "sum");
    return Copy{.dispatches = record({.data = kernels::StorageWith(context, data, "values"),
                                      .partials = partials,
                                      .result = result}),
                .kept = {partials, result}};
  });
}

VerificationRecord ReduceRow::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float>& data = inputs_->Get().data;
  const uint64_t groups = ops::ReducePartials(config_, problem_);
  const uint64_t per_group = uint64_t{4} * config_.wg * config_.items;
  std::vector<double> partials(groups, 0.0);
  for (size_t i = 0; i < data.size(); ++i) partials[i / per_group] += data[i];
  // Rounding: `items` additions a lane, 3 across the lanes and a tree of log2(wg) levels, each
  // erring by at most 2^-24 of the running sum (values in [1, 2): every running sum is positive
  // and at most the partial), so a partial errs by at most that many units of itself; a value
  // dropped or counted twice moves it by 1 or more, past that bound at every grid point.
  const double partial_steps = config_.items + 3 + Log2(config_.wg) + 1;
  reference::Comparison comparison(
      info().id, {.relative = partial_steps * kUnitRoundoff}, [](size_t index) {
        return index == 0 ? std::string("the total") : "partial " + std::to_string(index - 1);
      });
  // The total: the partials' error, then ceil(groups / wg) additions a thread and the tree.
  const double total_steps =
      partial_steps + std::ceil(static_cast<double>(groups) / config_.wg) + Log2(config_.wg) + 1;
  const std::vector<float> sum = gpu::Download<float>(context, FirstCopyBuffer(1), 1);
  comparison.Check(0, sum[0], inputs_->Get().total,
                   (total_steps - partial_steps) * kUnitRoundoff * inputs_->Get().total);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0), groups);
  for (uint64_t g = 0; g < groups; ++g) comparison.Check(g + 1, gpu[g], partials[g]);
  return comparison.Finish();
}

// ---- the bandwidth kernels ----

StreamRow::StreamRow(bench::BenchmarkInfo info, ops::StreamShape problem,
                     kernels::KernelOptions options, std::shared_ptr<StreamInputs> inputs)
    : KernelBenchmark(std::move(info), Variant::kTuned, Metric::kBytes,
                      {.flops = 0,
                       .bytes = static_cast<double>(problem.bytes) *
                                (problem.kind == ops::StreamKind::kCopy ? 2 : 1)},
                      [&] {
                        options.cold_footprint_bytes = 1;  // one copy: warm on purpose
                        return options;
                      }()),
      problem_(problem),
      inputs_(std::move(inputs)) {}

ops::Refusal StreamRow::CheckOn(const DeviceLimits& limits) const {
  if (auto unknown = UnknownSettings({&ops::kStreamRules.axes().axes()})) return unknown;
  return ops::kStreamRules.Check(ops::kStreamRules.Resolve(problem_, limits, options().settings),
                                 problem_, limits);
}

void StreamRow::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  config_ = ops::kStreamRules.Resolve(problem_, context.limits(), options().settings);
  SetAxes(ops::kStreamRules.axes().ValuesOf(config_));
  SetParam("threads", static_cast<int64_t>(ops::StreamThreads(config_, problem_)));
  const auto record = kernels::CompileOp(context, ops::kStream, problem_, config_, info().id);
  const std::span<const float> data = inputs_->Prefix(problem_.bytes);
  BuildCopies(context, problem_.bytes, [&](uint32_t) {
    const bool copy = problem_.kind == ops::StreamKind::kCopy;
    const gpu::Buffer output =
        copy ? kernels::StorageOf(context, problem_.bytes / 4, "destination")
             : kernels::StorageOf(context, ops::StreamThreads(config_, problem_), "sums");
    ops::StreamBuffers buffers{.source = kernels::StorageWith(context, data, "source")};
    (copy ? buffers.destination : buffers.sums) = output;
    return Copy{.dispatches = record(buffers), .kept = {output}};
  });
}

VerificationRecord StreamRow::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::span<const float> data = inputs_->Prefix(problem_.bytes);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0));
  if (problem_.kind == ops::StreamKind::kCopy) {
    return reference::Compare(info().id, std::span<const float>(gpu).first(data.size()), data, {});
  }
  // Invocation t sums vec4 t, t + T, …: at most ceil(count4 / T) vec4, positive values.
  const uint32_t threads = ops::StreamThreads(config_, problem_);
  const uint64_t count4 = problem_.bytes / 16;
  std::vector<double> sums(threads, 0.0);
  for (uint64_t i = 0; i < count4; ++i) {
    sums[i % threads] += double{data[4 * i]} + data[4 * i + 1] + data[4 * i + 2] + data[4 * i + 3];
  }
  const double steps = static_cast<double>(ops::CeilDiv(count4, threads)) + 4;
  return reference::Compare(info().id, std::span<const float>(gpu).first(threads),
                            std::span<const double>(sums),
                            {.absolute = 0, .relative = steps * kUnitRoundoff});
}

// ---- the 2-bit scan ----

ScanRow::ScanRow(bench::BenchmarkInfo info, ops::ScanShape problem,
                 kernels::KernelOptions options, std::shared_ptr<SharedInputs<ScanInputs>> inputs)
    : KernelBenchmark(
          std::move(info), Variant::kTuned, Metric::kBytes,
          // An add a table entry a query; bytes: the codes, norms and table once, the scores.
          {.flops = double{reference::kScanQueries} * problem.vectors * problem.d,
           .bytes = problem.vectors * (problem.d / 4.0 + 4 + 4.0 * reference::kScanQueries) +
                    static_cast<double>(ops::ScanTableBytes(problem.d))},
          std::move(options)),
      problem_(problem),
      inputs_(std::move(inputs)) {}

ops::Refusal ScanRow::CheckOn(const DeviceLimits& limits) const {
  if (auto unknown = UnknownSettings({&ops::kScanRules.axes().axes()})) return unknown;
  return ops::kScanRules.Check(ops::kScanRules.Resolve(problem_, limits, options().settings),
                               problem_, limits);
}

void ScanRow::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const ops::ScanConfig config =
      ops::kScanRules.Resolve(problem_, context.limits(), options().settings);
  SetAxes(ops::kScanRules.axes().ValuesOf(config));
  const auto record = kernels::CompileOp(context, ops::kScan, problem_, config, info().id);
  const reference::Q2Corpus& corpus = inputs_->Get().corpus;
  const uint64_t input_bytes = corpus.codes.size() * 4 + corpus.norms.size() * 4;
  BuildCopies(context, input_bytes, [&](uint32_t) {
    const gpu::Buffer scores =
        kernels::StorageOf(context, uint64_t{corpus.vectors} * reference::kScanQueries, "scores");
    return Copy{.dispatches = record(
                    {.codes = gpu::Upload(context, corpus.codes, gpu::kUsageStorage, "codes"),
                     .norms = kernels::StorageWith(context, corpus.norms, "norms"),
                     .lut = kernels::StorageWith(context, corpus.lut, "table"),
                     .scores = scores}),
                .kept = {scores}};
  });
}

VerificationRecord ScanRow::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0));
  const ScanInputs& inputs = inputs_->Get();
  return reference::Compare(info().id, gpu, inputs.scores, reference::Q2Tolerance(problem_.d),
                            [](size_t index) {
                              return "vector " + std::to_string(index / reference::kScanQueries) +
                                     ", query " + std::to_string(index % reference::kScanQueries);
                            });
}

// ---- the f16 matmul ----

std::shared_ptr<SharedInputs<MatmulF16Inputs>> MatmulF16InputsOf(ops::MatmulDims dims,
                                                                 uint64_t seed) {
  return std::make_shared<SharedInputs<MatmulF16Inputs>>([dims, seed] {
    MatmulF16Inputs inputs;
    const std::vector<float> a = reference::RandomFloats(size_t{dims.m} * dims.k, seed);
    const std::vector<float> b = reference::RandomFloats(size_t{dims.k} * dims.n, seed + 1);
    std::vector<double> a16(a.size()), b16(b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      inputs.a.push_back(reference::HalfBits(a[i]));
      a16[i] = reference::HalfFromBits(inputs.a.back());
    }
    for (size_t i = 0; i < b.size(); ++i) {
      inputs.b.push_back(reference::HalfBits(b[i]));
      b16[i] = reference::HalfFromBits(inputs.b.back());
    }
    inputs.c.assign(size_t{dims.m} * dims.n, 0.0);
    inputs.magnitude.assign(inputs.c.size(), 0.0);
    for (uint32_t i = 0; i < dims.m; ++i) {
      for (uint32_t k = 0; k < dims.k; ++k) {
        const double x = a16[size_t{i} * dims.k + k];
        const double* row = b16.data() + size_t{k} * dims.n;
        double* out = inputs.c.data() + size_t{i} * dims.n;
        double* size = inputs.magnitude.data() + size_t{i} * dims.n;
        for (uint32_t j = 0; j < dims.n; ++j) {
          out[j] += x * row[j];
          size[j] += std::fabs(x * row[j]);
        }
      }
    }
    return inputs;
  });
}

MatmulF16Row::MatmulF16Row(bench::BenchmarkInfo info, ops::MatmulDims dims,
                           kernels::KernelOptions options,
                           std::shared_ptr<SharedInputs<MatmulF16Inputs>> inputs)
    : KernelBenchmark(std::move(info), Variant::kTuned, Metric::kFlops,
                      {.flops = 2.0 * dims.m * dims.k * dims.n,
                       .bytes = 2.0 * (static_cast<double>(dims.m) * dims.k +
                                       static_cast<double>(dims.k) * dims.n) +
                                4.0 * dims.m * dims.n},
                      std::move(options)),
      dims_(dims),
      inputs_(std::move(inputs)) {}

ops::Refusal MatmulF16Row::CheckOn(const DeviceLimits& limits) const {
  if (auto unknown = UnknownSettings({&ops::kMatmulF16Rules.axes().axes()})) return unknown;
  return ops::kMatmulF16Rules.Check(ops::kMatmulF16Rules.Resolve(dims_, limits, options().settings),
                                    dims_, limits);
}

void MatmulF16Row::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  config_ = ops::kMatmulF16Rules.Resolve(dims_, context.limits(), options().settings);
  SetAxes(ops::kMatmulF16Rules.axes().ValuesOf(config_));
  SetParam("workgroup_bytes", static_cast<int64_t>(config_.TileBytes()));
  const auto record = kernels::CompileOp(context, ops::kMatmulF16, dims_, config_, info().id);
  const MatmulF16Inputs& inputs = inputs_->Get();
  BuildCopies(context, (inputs.a.size() + inputs.b.size()) * 2, [&](uint32_t) {
    const gpu::Buffer c = kernels::StorageOf(context, uint64_t{dims_.m} * dims_.n, "C");
    return Copy{.dispatches = record({.a = gpu::Upload(context, inputs.a, gpu::kUsageStorage, "A"),
                                      .b = gpu::Upload(context, inputs.b, gpu::kUsageStorage, "B"),
                                      .c = c}),
                .kept = {c}};
  });
}

VerificationRecord MatmulF16Row::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const MatmulF16Inputs& inputs = inputs_->Get();
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0));
  const double scale = config_.acc_f16 == 1 ? 4 * std::sqrt(static_cast<double>(dims_.k)) / 2048.0
                                            : static_cast<double>(dims_.k) * kUnitRoundoff;
  const uint32_t n = dims_.n;
  reference::Comparison comparison(info().id, {}, [n](size_t index) {
    return "row " + std::to_string(index / n) + ", column " + std::to_string(index % n);
  });
  for (size_t i = 0; i < inputs.c.size(); ++i) {
    comparison.Check(i, gpu[i], inputs.c[i], scale * inputs.magnitude[i] + 1e-30);
  }
  return comparison.Finish();
}

}  // namespace refract::suites::sweeps
