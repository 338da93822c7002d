// What the f32 and q4 matmul rows share: their identity and the output check.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/verification.h"
#include "bench/benchmark.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/matmul_config.h"

namespace refract::suites::kernels {

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
