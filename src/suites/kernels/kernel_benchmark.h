// The base of every row of the kernels suite: an LLM kernel (baseline or tuned) at one shape,
// its options, its model cost (FLOP and bytes), and the cold rotation that keeps memory-bound
// figures honest: the copies of the problem and their dispatches.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/benchmark.h"
#include "gpu/context.h"
#include "ops/axis.h"
#include "ops/op_support.h"

namespace refract::suites::kernels {

/// baseline: exactly as seed 003 describes the kernel; tuned: the project's best; tuned-q8:
/// the q4 GEMV on int8 activations (matmul-q4 at M = 1 only), beside tuned's f32 activations.
enum class Variant { kBaseline, kTuned, kTunedQ8 };

/// "baseline", "tuned" or "tuned-q8".
std::string_view VariantName(Variant variant);

/// Options of one row, the same for every family.
struct KernelOptions {
  /// Bytes the cold copies of the inputs must span together; 0: DefaultColdFootprintBytes.
  /// A footprint of 1 byte makes one copy (tests).
  uint64_t cold_footprint_bytes = 0;
  uint64_t seed = 1;  ///< seeds the deterministic inputs
  /// Tuned rows: the axes of the row's op fixed to these values (`--set`, checked against the
  /// kernel's axes by ops::ParseSettings); the op's default rule chooses the others. A name of
  /// no axis of the row's op is left alone (it belongs to another op of the kernel).
  ops::Settings settings;
  /// A breakdown of a multi-dispatch op: only dispatch `time_dispatch` of each call is timed
  /// (the whole call is still what Verify checks); params "timed_dispatch" say which of how
  /// many. A row with fewer dispatches a call fails with the count. Unset: the whole call.
  std::optional<uint32_t> time_dispatch;
};

/// The model work of one kernel invocation (docs/KERNELS.md "Metrics").
struct KernelCost {
  double flops = 0;  ///< arithmetic the kernel must do [FLOP]; a multiply-add counts 2
  double bytes = 0;  ///< each input read once and each output written once [bytes]
};

/// A row's id: `parts` and the variant's name joined by '/' ("add/qwen2.5-0.5b/t50/tuned").
std::string RowId(std::initializer_list<std::string> parts, Variant variant);

/// The identity of a row of `kernel` over `t` tokens of `model`: id
/// "<kernel>/<model>/t<t>/<variant>", params "model" and "t" beside `params`.
bench::BenchmarkInfo TokenRowInfo(const std::string& kernel, const std::string& model, uint32_t t,
                                  Variant variant, std::string category, std::string description,
                                  results::Params params = {});

/// What a row's metric counts: FLOP/s (matmuls, attention) or B/s (everything memory-bound).
enum class Metric { kFlops, kBytes };

/// Cold rotation: a row whose inputs are smaller than `footprint_bytes` records this many copies
/// of them, one after the other, so that each invocation reads data the previous ones did not
/// leave in the last-level cache: ceil(footprint / input_bytes), at least 1, at most max_copies.
uint32_t ColdCopies(uint64_t input_bytes, uint64_t footprint_bytes, uint32_t max_copies = 64);

/// Footprint the copies must span together: several times the largest last-level cache of
/// the device class (the H200's L2 is ~50 MB; CPU adapters' caches are smaller) [bytes].
uint64_t DefaultColdFootprintBytes(const gpu::Context& context);

/// A kernels-suite row. Subclasses build the problem in Prepare, ending with BuildCopies, and
/// run copy 0 in Verify with RunFirstCopy; the copies' GPU objects are the row's to release.
class KernelBenchmark : public bench::Benchmark {
 public:
  /// `info`: id, category, description and params as the catalog names them; the unit follows
  /// from `metric`, and params gain "variant", the tuned op's axes and, after Prepare, "cold"
  /// and "copies". The shape fixes `cost`, the model work of one invocation.
  KernelBenchmark(bench::BenchmarkInfo info, Variant variant, Metric metric, KernelCost cost,
                  KernelOptions options);

  const bench::BenchmarkInfo& info() const override { return info_; }
  Variant variant() const { return variant_; }
  Metric metric() const { return metric_; }

  /// FLOP and bytes of one invocation.
  const KernelCost& Cost() const { return cost_; }

  /// Why the row's op cannot run on the device (CheckOn its limits), or nothing: the same for
  /// every family, a configuration over the device's limits makes the row `skipped`.
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const final;
  /// The row's op's check at its configuration for a device with `limits` (ops' Check: the
  /// bindings, invocations, workgroup memory and the axes' own rules), without a device.
  virtual ops::Refusal CheckOn(const DeviceLimits& limits) const = 0;

  /// The dispatches of every copy, copy by copy.
  /// With KernelOptions::time_dispatch, that dispatch of every copy only.
  std::span<const gpu::Dispatch> Dispatches() const final {
    return options_.time_dispatch ? std::span<const gpu::Dispatch>(timed_dispatches_)
                                  : std::span<const gpu::Dispatch>(dispatches_);
  }
  /// Drops the copies: their dispatches (which hold the pipelines, bind groups and so the
  /// buffers) and copy 0's kept buffers.
  void Release() final;

  /// The metric's units (FLOP or bytes) of one "dispatch": Cost() × copies.
  double WorkPerDispatch() const override;
  uint32_t InvocationsPerDispatch() const override { return copies_; }

  /// The row's roofline inputs: Cost() of one invocation (FLOP, bytes, intensity); the bound,
  /// ceiling and fraction are the suite's rules' to fill (suites/kernels/kernels_rules.h).
  void Describe(results::ResultRow& row) const override;

  /// Adds the catalog's part of the identity: the kernel, the phase, and the problem (the id
  /// after the kernel's name), beside what the row's factory put there (model, dimensions).
  void Tag(const std::string& kernel, const std::string& phase);

  /// The axes of the op this row runs (its tuned op's at this shape; a baseline has none):
  /// what a sweep of the row varies.
  virtual std::vector<ops::Axis> OpAxes() const = 0;
  /// Gives the row another name (a sweep's configuration of it): `id`, `category`, and
  /// `params` added to its own.
  void Rename(std::string id, std::string category, const results::Params& params);
  /// The row's identity, for a catalog that gives it a sweep's (sweep, problem, role).
  results::RowIdentity& identity() { return info_.identity; }

 protected:
  const KernelOptions& options() const { return options_; }
  /// Throws UsageError naming MissingRequirement's reason, if any (Prepare on a device that
  /// cannot run the row).
  void RequireRunnable(const gpu::Context& context) const;
  /// Records the tuned op's configuration in params, each axis by its name.
  void SetAxes(const ops::Settings& values);
  /// "no axis named X" for the first setting of the options that none of `tables` (the axes of
  /// the row's tuned ops) declares; nothing otherwise (a misspelt knob must not pass silently).
  ops::Refusal UnknownSettings(std::initializer_list<const std::vector<ops::Axis>*> tables) const;

  /// One copy of the problem: its dispatches (every copy the same number), and the buffers
  /// Verify reads or writes, which the row keeps for copy 0 (the other copies' buffers live
  /// as long as the bind groups of their dispatches).
  struct Copy {
    std::vector<gpu::Dispatch> dispatches;
    std::vector<gpu::Buffer> kept;
  };
  /// The cold rotation: ColdCopies(input_bytes, the options' footprint or the device's
  /// default) copies of the problem, copy c made by `make_copy(c)`; records the copies and
  /// whether they together span the footprint (params "copies", "cold").
  void BuildCopies(const gpu::Context& context, uint64_t input_bytes,
                   const std::function<Copy(uint32_t copy)>& make_copy);
  /// Runs copy 0's dispatches once, what Verify then reads; throws Error before Prepare.
  void RunFirstCopy(gpu::Context& context);
  /// Copy 0's kept buffer `index`, in make_copy's order.
  const gpu::Buffer& FirstCopyBuffer(size_t index) const;
  /// Records a parameter Prepare settled (the path taken, a size chosen for the device).
  void SetParam(const std::string& name, results::ParamValue value);

 private:
  bench::BenchmarkInfo info_;
  Variant variant_;
  Metric metric_;
  KernelCost cost_;
  KernelOptions options_;
  uint32_t copies_ = 1;
  std::vector<gpu::Dispatch> dispatches_;
  std::vector<gpu::Dispatch> timed_dispatches_;  // KernelOptions::time_dispatch's
  size_t dispatches_per_copy_ = 1;
  std::vector<gpu::Buffer> first_copy_buffers_;
};

}  // namespace refract::suites::kernels
