#include "gpu/transfer.h"
#include "ops/op_kinds.h"

namespace refract::ops {
namespace {

// The uniform of every matmul kernel (seed 003's {M, K, N}), padded to 16 bytes; in the
// padding's place the seed's int4 kernel has its group size, the tuned GEMM its K a slice.
struct MatmulParams {
  uint32_t m, k, n, fourth;
};

constexpr uint32_t kSeedInt4GroupSize = 32;

bool Q4(const MatmulShape& p) { return p.weights == Weights::kQ4; }

gpu::Buffer Params(gpu::Context& context, const MatmulShape& p, uint32_t fourth = 0) {
  return gpu::Uniform(context, MatmulParams{p.dims.m, p.dims.k, p.dims.n, fourth}, "matmul params");
}

Kernel SeedCompile(gpu::Context& context, const MatmulShape& p, const NoConfig&,
                   const std::string& label) {
  return {.pipelines = {CompileKernel(
              context, {Q4(p) ? "llm_matmul_q4_baseline" : "llm_matmul_f32_baseline"}, label)},
          .buffers = {Params(context, p, Q4(p) ? kSeedInt4GroupSize : 0)}};
}

// The tuned kernels bind a, w, (q4: scales,) c, params; the seed's int4 kernel also its zeros.
std::vector<gpu::Dispatch> RecordMatmul(gpu::Context& context, const Kernel& kernel,
                                        const MatmulShape& p, const MatmulBuffers& b,
                                        uint32_t groups_x, uint32_t groups_y, bool zeros) {
  const gpu::BufferSlice params = kernel.buffers[0];
  if (!Q4(p)) {
    return {OneDispatch(context, kernel.pipelines[0], {b.a, b.w, b.c, params}, groups_x, groups_y)};
  }
  if (zeros) {
    return {OneDispatch(context, kernel.pipelines[0], {b.a, b.w, b.scales, b.zeros, b.c, params},
                        groups_x, groups_y)};
  }
  return {OneDispatch(context, kernel.pipelines[0], {b.a, b.w, b.scales, b.c, params}, groups_x,
                      groups_y)};
}

std::vector<gpu::Dispatch> SeedRecord(gpu::Context& context, const Kernel& kernel,
                                      const MatmulShape& p, const NoConfig&,
                                      const MatmulBuffers& b) {
  const auto x = static_cast<uint32_t>(CeilDiv(p.dims.n, 16));
  const auto y = static_cast<uint32_t>(CeilDiv(p.dims.m, 16));
  return RecordMatmul(context, kernel, p, b, x, y, /*zeros=*/true);
}

Kernel GemvCompile(gpu::Context& context, const MatmulShape& p, const GemvConfig& c,
                   const std::string& label) {
  const std::string_view main_kernel =
      Q4(p) ? "llm_matmul_q4_tuned_gemv" : "llm_matmul_f32_tuned_gemv";
  std::map<std::string, double> constants = {{"WG", c.wg}, {"TPR", c.tpr}, {"ROWS", c.rows}};
  if (Q4(p)) {
    constants["K_COLS"] = p.dims.k;
    constants["N_ROWS"] = p.dims.n;
  }
  const gpu::ComputePipeline pipeline =
      Q4(p) ? CompileKernel(context,
                            {GemvReducePart(c), "llm_gemv_common_part", "llm_gemv_f32_input_part",
                             "llm_q4_decode4_part", main_kernel},
                            label, "main", constants)
            : CompileKernel(context, {GemvReducePart(c), "llm_gemv_common_part", main_kernel},
                            label, "main", constants);
  return {.pipelines = {pipeline}, .buffers = {Params(context, p)}};
}

std::vector<gpu::Dispatch> GemvRecord(gpu::Context& context, const Kernel& kernel,
                                      const MatmulShape& p, const GemvConfig& c,
                                      const MatmulBuffers& b) {
  const uint32_t rows_per_workgroup = c.wg / c.tpr * c.rows;
  return RecordMatmul(context, kernel, p, b, gpu::GroupsFor(p.dims.n, rows_per_workgroup), 1,
                      /*zeros=*/false);
}

Kernel GemvQ8Compile(gpu::Context& context, const MatmulShape& p, const GemvConfig& c,
                     const std::string& label) {
  return {.pipelines = {CompileKernel(
              context,
              {"llm_dp4a_part", GemvReducePart(c), "llm_gemv_common_part", "llm_gemv_q8_input_part",
               "llm_matmul_q4_tuned_gemv_q8", "llm_gemv_q8_store_part"},
              label, "main", GemvQ8Constants(p, c))},
          .buffers = {Params(context, p)}};
}

std::vector<gpu::Dispatch> GemvQ8Record(gpu::Context& context, const Kernel& kernel,
                                        const MatmulShape& p, const GemvConfig& c,
                                        const MatmulBuffers& b) {
  const uint32_t rows_per_workgroup = c.wg / c.tpr * c.rows;
  return {OneDispatch(context, kernel.pipelines[0],
                      {b.a, b.w, b.scales, b.c, kernel.buffers[0], b.a_scales},
                      gpu::GroupsFor(p.dims.n, rows_per_workgroup))};
}

// The split-K sum's uniform (llm_gemm_reduce.wgsl).
struct ReduceParams {
  uint32_t count, slices, padding[2];
};

// GEMM kernel: pipelines {gemm, (the slices' sum)}, buffers {params, (sum params)}, scratch
// {(partials)}.
Kernel GemmCompile(gpu::Context& context, const MatmulShape& p, const GemmConfig& c,
                   const std::string& label) {
  const std::string_view main_kernel =
      Q4(p) ? "llm_matmul_q4_tuned_gemm" : "llm_matmul_f32_tuned_gemm";
  Kernel kernel{
      .pipelines = {CompileKernel(context, {"llm_gemm_core_part", main_kernel}, label, "main",
                                  {{"BM", c.bm},
                                   {"BN", c.bn},
                                   {"BK", c.bk},
                                   {"TM", c.tm},
                                   {"TN", c.tn},
                                   {"A_PAD", c.a_pad}})},
      .buffers = {Params(context, p, GemmKPerSplit(c, p.dims.k))}};
  if (c.split_k > 1) {
    const uint64_t count = uint64_t{p.dims.m} * GemmCStride(p.dims) / 4;  // vec4 of C
    kernel.pipelines.push_back(CompileKernel(context, {"llm_gemm_reduce"}, label));
    kernel.buffers.push_back(gpu::Uniform(
        context, ReduceParams{static_cast<uint32_t>(count), c.split_k, {}}, "split-K params"));
    kernel.scratch.push_back({count * 16 * c.split_k, "split-K partials"});
  }
  return kernel;
}

std::vector<gpu::Dispatch> GemmRecord(gpu::Context& context, const Kernel& kernel,
                                      const MatmulShape& p, const GemmConfig& c,
                                      const MatmulBuffers& b) {
  const auto x = static_cast<uint32_t>(CeilDiv(p.dims.n, c.bn));
  const auto y = static_cast<uint32_t>(CeilDiv(p.dims.m, c.bm));
  if (c.split_k == 1) return RecordMatmul(context, kernel, p, b, x, y, /*zeros=*/false);
  // The slices write their partial products, then one pass sums them into C.
  const gpu::BufferSlice params = kernel.buffers[0], partials = kernel.buffers[2];
  const gpu::Dispatch slices =
      Q4(p) ? OneDispatch(context, kernel.pipelines[0], {b.a, b.w, b.scales, partials, params}, x,
                          y, c.split_k)
            : OneDispatch(context, kernel.pipelines[0], {b.a, b.w, partials, params}, x, y,
                          c.split_k);
  const uint64_t count = uint64_t{p.dims.m} * GemmCStride(p.dims) / 4;
  return {slices, OneDispatch(context, kernel.pipelines[1], {partials, b.c, kernel.buffers[1]},
                              gpu::GroupsFor(count, 64))};
}

}  // namespace

const OpKind<MatmulShape, NoConfig, MatmulBuffers> kSeedMatmul{kSeedMatmulRules, &SeedCompile,
                                                               &SeedRecord};
const OpKind<MatmulShape, GemvConfig, MatmulBuffers> kGemv{kGemvRules, &GemvCompile, &GemvRecord};
const OpKind<MatmulShape, GemvConfig, MatmulBuffers> kGemvQ8{kGemvQ8Rules, &GemvQ8Compile,
                                                             &GemvQ8Record};
const OpKind<MatmulShape, GemmConfig, MatmulBuffers> kGemm{kGemmRules, &GemmCompile, &GemmRecord};

}  // namespace refract::ops
