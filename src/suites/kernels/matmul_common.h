// What the f32 and q4 matmul rows share: the shapes of the catalog, the tuned kernels'
// configurations (WGSL overrides) with their checks and compilation, and the output check.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/verification.h"
#include "bench/benchmark.h"
#include "gpu/context.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/matmul_config.h"

namespace refract::suites::kernels {

/// Why `config` cannot run on the device (tiles not a whole number of loads a thread, too many
/// threads, workgroup memory over the limit…), or nothing. `q4`: B loaded as u32 words.
std::optional<std::string> GemmConfigProblem(const gpu::Context& context, const GemmConfig& config,
                                             bool q4);
/// The same for the GEMV; `q4`: the q4 kernel, which also stages x in workgroup memory.
std::optional<std::string> GemvConfigProblem(const gpu::Context& context, const GemvConfig& config,
                                             bool q4);
/// Why a buffer of `bytes` cannot be bound as storage on the device, or nothing.
std::optional<std::string> BindingProblem(const gpu::Context& context, uint64_t bytes,
                                          std::string_view what);

/// True when the GEMV row sums use subgroups: the device has them, `portable` is off and
/// `tpr` ≤ the device's smallest subgroup size.
bool UseSubgroupReduction(const gpu::Context& context, const GemvConfig& config, bool portable);

/// Compiles llm_gemm_core_part.wgsl followed by `main_kernel` with `config`'s overrides.
gpu::ComputePipeline CompileGemm(gpu::Context& context, std::string_view main_kernel,
                                 const GemmConfig& config, const std::string& label);
/// Compiles the GEMV row-sum file of the chosen path followed by `main_kernel`.
gpu::ComputePipeline CompileGemv(gpu::Context& context, std::string_view main_kernel,
                                 const GemvConfig& config, bool subgroups,
                                 const std::string& label);

/// The configuration Prepare chose, as params of the row ("path", the overrides, "reduction").
results::Params GemmParams(const GemmConfig& config);
results::Params GemvParams(const GemvConfig& config, bool subgroups);

/// The uniform of every matmul kernel (seed 003's {M, K, N}), padded to 16 bytes.
struct MatmulParams {
  uint32_t m, k, n, padding;
};

/// Compares the GPU's C (rows `c_stride` floats apart) with A · Wᵀ (`a` [M, K], `w` [N, K]) on
/// MatmulCheckIndices' outputs, within MatmulTolerance of the largest reference value checked.
VerificationRecord CheckMatmulOutput(const std::string& what, std::span<const float> gpu_c,
                                     uint32_t c_stride, const MatmulShape& shape,
                                     std::span<const float> a, std::span<const float> w,
                                     uint64_t seed);

/// "<family>/<model>/<op>/m<M>/<variant>" with the shape's params.
bench::BenchmarkInfo MatmulInfo(std::string_view family, const MatmulShape& shape, Variant variant,
                                std::string description);

}  // namespace refract::suites::kernels
