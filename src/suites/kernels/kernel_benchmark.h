// The base of every row of the kernels suite: an LLM kernel (baseline or tuned) at one shape,
// its model cost (FLOP and bytes), and the cold rotation that keeps memory-bound figures honest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bench/benchmark.h"
#include "gpu/context.h"

namespace refract::suites::kernels {

/// baseline: exactly as seed 003 describes the kernel; tuned: the project's best.
enum class Variant { kBaseline, kTuned };

/// "baseline" or "tuned".
std::string_view VariantName(Variant variant);

/// The model work of one kernel invocation (KERNELS.md "Metrics").
struct KernelCost {
  double flops = 0;  ///< arithmetic the kernel must do [FLOP]; a multiply-add counts 2
  double bytes = 0;  ///< each input read once and each output written once [bytes]
};

/// What a row's metric counts: FLOP/s (matmuls, attention) or B/s (everything memory-bound).
enum class Metric { kFlops, kBytes };

/// Cold rotation: a row whose inputs are smaller than `footprint_bytes` records this many copies
/// of them, one after the other, so that each invocation reads data the previous ones did not
/// leave in the last-level cache: ceil(footprint / input_bytes), at least 1, at most max_copies.
uint32_t ColdCopies(uint64_t input_bytes, uint64_t footprint_bytes, uint32_t max_copies = 64);

/// Footprint the copies must span together: several times the largest last-level cache of
/// the device class (the H200's L2 is ~50 MB; CPU adapters' caches are smaller) [bytes].
uint64_t DefaultColdFootprintBytes(const gpu::Context& context);

/// A kernels-suite row. Subclasses build the problem in Prepare (calling SetRotation once they
/// know how many copies of the inputs they made) and return Cost() of one invocation.
class KernelBenchmark : public bench::Benchmark {
 public:
  /// `info`: id, category, description and params as the catalog names them; the unit follows
  /// from `metric`, and params gain "variant" and, after Prepare, "cold" and "copies".
  KernelBenchmark(bench::BenchmarkInfo info, Variant variant, Metric metric);

  const bench::BenchmarkInfo& info() const override { return info_; }
  Variant variant() const { return variant_; }
  Metric metric() const { return metric_; }

  /// FLOP and bytes of one invocation.
  virtual KernelCost Cost() const = 0;

  /// The metric's units (FLOP or bytes) of one "dispatch": Cost() × copies.
  double WorkPerDispatch() const override;
  uint32_t InvocationsPerDispatch() const override { return copies_; }

 protected:
  /// Records the rotation Prepare set up: `copies` invocations a dispatch, each on its own copy
  /// of the inputs; `cold` says whether the copies together exceed the cold footprint.
  void SetRotation(uint32_t copies, bool cold);
  /// Records a parameter Prepare settled (the path taken, a size chosen for the device).
  void SetParam(const std::string& name, results::ParamValue value);

 private:
  bench::BenchmarkInfo info_;
  Variant variant_;
  Metric metric_;
  uint32_t copies_ = 1;
};

}  // namespace refract::suites::kernels
