// What the LLM kernel rows share: the per-token cases, buffers, and the deterministic sample a
// large output is verified on.
#pragma once

#include <cstdint>
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
