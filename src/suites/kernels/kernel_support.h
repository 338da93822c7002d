// What the LLM kernel rows share: the overrides' checks, the row kernels' layout, the
// workgroup-memory check, buffers, and the deterministic sample a large output is verified on.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/verification.h"
#include "gpu/context.h"
#include "reference/compare.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {

/// One case of the per-token rows: a model at `t` tokens, one variant.
struct TokenCase {
  const ModelConfig* model;
  uint32_t t;
  Variant variant;
};

/// The cases of the per-token rows (norms, RoPE, activations), in display order: Qwen2.5-0.5B
/// then EmbeddingGemma 2, each at T = 1, 50, 128 and 2048, each baseline then tuned.
const std::vector<TokenCase>& TokenCases();

/// Seed 003's element-wise uniform {count} (its add, mul and activations; the tuned
/// activations' too), padded to 16 bytes.
struct CountParams {
  uint32_t count, padding[3];
};

/// Whether a tuned row reduces with subgroup operations: the device has them and the options do
/// not ask for the portable path.
bool UseSubgroups(const gpu::Context& context, const KernelOptions& options);

/// Throws UsageError naming the limit when `bytes` of workgroup memory exceed the device's.
void RequireWorkgroupMemory(const gpu::Context& context, uint64_t bytes, const std::string& what);

/// Throws UsageError naming the first override that is not one of `known` (a misspelt knob
/// would otherwise be ignored silently).
void RequireKnownOverrides(const std::map<std::string, double>& overrides,
                           std::initializer_list<std::string_view> known, const std::string& what);

/// `name`'s value in `overrides`, or `fallback`; a value that is not a whole number in
/// [1, 65536] throws UsageError.
uint32_t OverrideOr(const std::map<std::string, double>& overrides, const std::string& name,
                    uint32_t fallback);

/// How a tuned row kernel (softmax, norms: one workgroup a row) covers a row: its element width,
/// workgroup size and elements kept per invocation, and its reduction path.
struct RowLayout {
  uint32_t width = 4;      ///< 4: vec4 elements (the row length is a multiple of 4); else 1
  uint32_t wg = 256;       ///< WG: invocations per row
  uint32_t vpt = 1;        ///< VPT: elements of `width` floats an invocation keeps in registers
  bool subgroups = false;  ///< subgroup reductions (llm_reduce_subgroup_part) or a workgroup tree

  /// The WGSL override constants (WG, VPT).
  std::map<std::string, double> Constants() const;
  /// The kernel parts the body is composed after (kernel_pipeline.h's CompileKernel):
  /// llm_reduce_subgroup_part or llm_reduce_workgroup_part, then llm_row_vec4_part or
  /// llm_row_scalar_part.
  std::string_view ReductionPart() const;
  std::string_view ElementPart() const;
  /// Workgroup memory of the reduction part [bytes].
  uint64_t ReductionBytes() const;
  /// "subgroup" or "portable".
  std::string PathName() const;
};

/// The layout for rows of `row_size` floats: WG = the row's elements divided by `kept_target`
/// and rounded up to 32, at most 256 (and the device's limit), VPT = enough to keep the whole
/// row, at most `max_kept`; the options' overrides WG and VPT replace them. Throws UsageError
/// when the reduction's workgroup memory does not fit.
RowLayout ResolveRowLayout(const gpu::Context& context, uint32_t row_size,
                           const KernelOptions& options, uint32_t max_kept,
                           uint32_t kept_target = 1);

/// A storage buffer (copy source too) holding `values`.
gpu::Buffer StorageWith(gpu::Context& context, std::span<const float> values,
                        std::string_view label);
/// A zeroed storage buffer (copy source too) of `floats` f32 values (at least 16 bytes).
gpu::Buffer StorageOf(gpu::Context& context, uint64_t floats, std::string_view label);

/// `samples` distinct indices in [0, count), sorted, always holding 0 and count − 1 (all of
/// them when count ≤ samples): the rows a large output is verified on.
std::vector<uint32_t> SampleIndices(uint32_t count, uint32_t samples, uint64_t seed);

/// Checks the GPU output's rows `rows` (`width` values each, row r at r · width of `gpu`)
/// against `cpu`, the model of those rows one after the other, in `comparison`; returns its
/// Finish().
VerificationRecord CompareRows(reference::Comparison& comparison, std::span<const float> gpu,
                               std::span<const float> cpu, std::span<const uint32_t> rows,
                               size_t width);

}  // namespace refract::suites::kernels
