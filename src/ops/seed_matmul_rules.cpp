// SeedMatmulOp's limit check: pure, no GPU.
#include "ops/seed_matmul_op.h"

namespace refract::ops {

Problem SeedMatmulOp::Check(Weights weights, const MatmulDims& dims, const DeviceLimits& limits) {
  if (dims.m == 0 || dims.k == 0 || dims.n == 0) return "the seed's matmul needs M, K, N > 0";
  const uint64_t values = uint64_t{dims.k} * dims.n;
  const uint64_t b_bytes = weights == Weights::kQ4 ? CeilDiv(values, 8) * 4 : values * 4;
  return FirstProblem({BindingProblem(b_bytes, "the seed matmul's B", limits),
                       BindingProblem(uint64_t{dims.m} * dims.k * 4, "the seed matmul's A", limits),
                       BindingProblem(uint64_t{dims.m} * dims.n * 4, "the seed matmul's C", limits)});
}

}  // namespace refract::ops
