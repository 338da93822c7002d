#include "suites/kernels/matmul_q4_benchmark.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>

#include "gpu/transfer.h"
#include "ops/op_kinds.h"
#include "reference/compare.h"
#include "reference/llm_matmul.h"
#include "reference/llm_q8.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"

namespace refract::suites::kernels {

/// The tuned rows' inputs of one shape and seed: the matrix, its MatMulNBits packing and the
/// model (the activations and the weights that packing stands for, with their reference
/// products); and the q8 GEMV's reference on the last codes a quantizer gave (the same
/// quantizer gives every configuration the same codes).
struct TunedInputs {
  reference::Q4Matrix matrix;
  reference::MatMulNBitsPacking packing;
  std::shared_ptr<const MatmulInputs> model;
  mutable std::optional<std::pair<reference::Q8Activations, std::vector<double>>> q8_products;

  /// reference::GemvQ8 of the matrix on each of x's `m` rows (row r's blocks after row r − 1's),
  /// [m, N], kept for the next configuration's same codes.
  const std::vector<double>& GemvQ8On(const reference::Q8Activations& x, uint32_t m) const {
    const bool same = q8_products && q8_products->first.codes == x.codes &&
                      q8_products->first.scales == x.scales && q8_products->first.sums == x.sums;
    if (!same) {
      q8_products.reset();
      const size_t blocks = x.scales.size() / m;
      std::vector<double> y;
      for (uint32_t r = 0; r < m; ++r) {
        const reference::Q8Activations row{
            .codes = {x.codes.begin() + r * blocks * reference::kQ8BlockSize,
                      x.codes.begin() + (r + 1) * blocks * reference::kQ8BlockSize},
            .scales = {x.scales.begin() + r * blocks, x.scales.begin() + (r + 1) * blocks},
            .sums = {x.sums.begin() + r * blocks, x.sums.begin() + (r + 1) * blocks}};
        const std::vector<double> row_y = reference::GemvQ8(matrix, row);
        y.insert(y.end(), row_y.begin(), row_y.end());
      }
      q8_products.emplace(x, std::move(y));
    }
    return q8_products->second;
  }
};

namespace {

using reference::kSeedGroupSize;
using reference::Q4Blocks;

std::string Description(Variant variant, const MatmulShape& shape) {
  if (variant == Variant::kBaseline) {
    return "seed 003's untiled int4 matmul on its own layout (8 codes a u32 along [K, N])";
  }
  if (variant == Variant::kTunedQ8) {
    return "q4 GEMV on int8 activations (blocks of 32, dot4I8Packed on masked nibbles)";
  }
  if (shape.m == 1) return "q4 GEMV on MatMulNBits blocks (one vec4<u32> a load)";
  return "tiled q4 GEMM on MatMulNBits, tiles dequantized into workgroup memory";
}

/// The weights in the variant's own layout [bytes].
uint64_t WeightBytes(Variant variant, const MatmulShape& shape) {
  const uint64_t k = shape.k, n = shape.n;
  if (variant == Variant::kBaseline) {
    const uint64_t groups = (k * n + kSeedGroupSize - 1) / kSeedGroupSize;
    return (k * n + 7) / 8 * 4 + 2 * groups * 4;  // words, scales, zeros
  }
  return n * Q4Blocks(shape.k) * (16 + 4);  // blocks and scales
}

KernelCost Q4Cost(Variant variant, const MatmulShape& shape) {
  const double m = shape.m, k = shape.k, n = shape.n;
  // tuned-q8's activations: a byte a value and (d, Σq) a block.
  const double a_bytes =
      variant == Variant::kTunedQ8 ? m * (k + 8.0 * Q4Blocks(shape.k)) : 4 * m * k;
  return {.flops = 2 * m * k * n,
          .bytes = a_bytes + 4 * m * n + static_cast<double>(WeightBytes(variant, shape))};
}

ops::QuantizeShape QuantizeShapeOf(const MatmulShape& shape) {
  return {.k = shape.k, .m = shape.m};
}

/// The inputs of the last shape and seed asked for (LastMade); the values are the same either
/// way.
std::shared_ptr<const TunedInputs> TunedInputsFor(const MatmulShape& shape, uint64_t seed) {
  static LastMade<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t>, TunedInputs> last;
  return last.Get(std::make_tuple(shape.m, shape.k, shape.n, seed), [&] {
    TunedInputs inputs;
    inputs.matrix = reference::RandomQ4Matrix(shape.k, shape.n, seed + 1);
    inputs.packing = reference::PackMatMulNBits(inputs.matrix);
    inputs.model = std::make_shared<const MatmulInputs>(
        reference::RandomFloats(size_t{shape.m} * shape.k, seed),
        reference::DequantizeMatMulNBits(inputs.packing, shape.k, shape.n));
    return inputs;
  });
}

}  // namespace

MatmulQ4Benchmark::MatmulQ4Benchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                                     KernelOptions options, Q8Timing timing)
    : MatmulBenchmark(std::move(info), variant, shape, Q4Cost(variant, shape), std::move(options),
                      ops::Weights::kQ4),
      timing_(timing) {
  SetParam("dtype", "q4");
  SetParam("b_layout", variant == Variant::kBaseline ? "seed-int4 [K, N], group 32"
                                                     : "matmulnbits [N, K/32, 16], block 32");
  if (variant == Variant::kTunedQ8) {
    SetParam("activations", "int8 blocks of 32, scale and sum");
    SetParam("quantizer", timing == Q8Timing::kPrequantized ? "before the timed pass"
                                                            : "its own dispatch, timed");
  }
}

ops::Refusal MatmulQ4Benchmark::CheckOn(const DeviceLimits& limits) const {
  if (path() == Path::kGemvQ8) {
    const ops::QuantizeShape q = QuantizeShapeOf(shape());
    if (auto problem =
            ops::kQuantizeQ8Rules.Check(ops::kQuantizeQ8Rules.Resolve(q, limits), q, limits)) {
      return problem;
    }
  }
  return MatmulBenchmark::CheckOn(limits);
}

void MatmulQ4Benchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const uint32_t m = shape().m, k = shape().k, n = shape().n;
  if (path() == Path::kBaseline) {
    std::vector<float> a = reference::RandomFloats(size_t{m} * k, options().seed);
    const reference::Q4Matrix matrix = reference::RandomQ4Matrix(k, n, options().seed + 1);
    const reference::SeedInt4Packing packing = reference::PackSeedInt4(matrix);
    Build(context,
          std::make_shared<const MatmulInputs>(std::move(a),
                                               reference::DequantizeSeedInt4(packing, k, n)),
          {Bytes(packing.packed), Bytes(packing.scales), Bytes(packing.zeros)});
    return;
  }
  tuned_inputs_ = TunedInputsFor(shape(), options().seed);
  if (path() == Path::kGemvQ8) {
    PrepareQ8(context);
    return;
  }
  Build(context, tuned_inputs_->model,
        {Bytes(tuned_inputs_->packing.b), Bytes(tuned_inputs_->packing.scales)});
}

void MatmulQ4Benchmark::PrepareQ8(gpu::Context& context) {
  const uint32_t m = shape().m, k = shape().k, n = shape().n;
  const uint64_t blocks = uint64_t{m} * Q4Blocks(k);  // every row's
  const std::vector<float>& x = tuned_inputs_->model->a();
  const reference::MatMulNBitsPacking& packing = tuned_inputs_->packing;

  const ops::QuantizeShape q_shape = QuantizeShapeOf(shape());
  const ops::Op quantize(ops::kQuantizeQ8, context, q_shape,
                         ops::kQuantizeQ8Rules.Resolve(q_shape, context.limits()), info().id);
  const ops::MatmulShape problem = OpShape();
  const ops::Op gemv(ops::kGemvQ8, context, problem,
                     ops::kGemvQ8Rules.Resolve(problem, context.limits(), options().settings),
                     info().id);
  SetParam("path", "gemv-q8");
  SetAxes(ops::kGemvQ8Rules.axes().ValuesOf(gemv.config()));

  const uint32_t usage = gpu::kUsageStorage | gpu::kUsageCopySrc;
  auto activations = [&] {  // x and the buffers the quantizer writes
    return ops::QuantizeBuffers{
        .x = StorageWith(context, x, "x"),
        .codes = context.CreateBuffer(blocks * 32, usage, "x codes"),
        .scale_sums = context.CreateBuffer(blocks * 8, usage, "x scales and sums")};
  };
  // Pre-quantized: one set of codes, written now, read by every copy (a decode step's norm has
  // just written them: they are in the cache there too).
  const ops::QuantizeBuffers shared = activations();
  if (timing_ == Q8Timing::kPrequantized)
    context.RunPass(quantize.Record(context, shared), 1, false);

  const uint64_t weight_bytes = packing.b.size() + 4 * packing.scales.size();
  BuildCopies(context, weight_bytes + 4 * uint64_t{m} * k, [&](uint32_t) {
    const ops::QuantizeBuffers q = timing_ == Q8Timing::kPrequantized ? shared : activations();
    const gpu::Buffer c = context.CreateBuffer(uint64_t{m} * n * 4, usage, "C");
    std::vector<gpu::Dispatch> dispatches;
    if (timing_ == Q8Timing::kWithQuantizer) dispatches = quantize.Record(context, q);
    const std::vector<gpu::Dispatch> product = gemv.Record(
        context, {.a = q.codes,
                  .w = gpu::Upload(context, packing.b, gpu::kUsageStorage, "weights"),
                  .scales = gpu::Upload(context, packing.scales, gpu::kUsageStorage, "scales"),
                  .c = c,
                  .a_scales = q.scale_sums});
    dispatches.insert(dispatches.end(), product.begin(), product.end());
    return Copy{.dispatches = dispatches, .kept = {c, q.codes.buffer, q.scale_sums.buffer}};
  });
}

VerificationRecord MatmulQ4Benchmark::Verify(gpu::Context& context) {
  if (path() != Path::kGemvQ8) return MatmulBenchmark::Verify(context);
  REFRACT_THROW_IF(!tuned_inputs_, Error, info().id + ": Verify before Prepare");
  RunFirstCopy(context);
  const uint32_t m = shape().m, k = shape().k, n = shape().n;
  const std::vector<uint32_t> words = gpu::Download<uint32_t>(context, FirstCopyBuffer(1));
  const std::vector<float> scale_sums = gpu::Download<float>(context, FirstCopyBuffer(2));
  const std::vector<float>& x = tuned_inputs_->model->a();

  // The quantizer, row by row (each row its own blocks).
  const size_t row_blocks = Q4Blocks(k);
  VerificationRecord codes;
  for (uint32_t r = 0; r < m; ++r) {
    const VerificationRecord row = reference::CheckQ8Activations(
        info().id + " quantizer" + (m > 1 ? " row " + std::to_string(r) : ""),
        std::span(words).subspan(r * row_blocks * 8, row_blocks * 8),
        std::span(scale_sums).subspan(r * row_blocks * 2, row_blocks * 2),
        std::span(x).subspan(size_t{r} * k, k));
    codes.elements += row.elements;
  }

  // The GEMV on the quantizer's own output.
  reference::Q8Activations gpu_x{.codes = reference::UnpackQ8Codes(words)};
  for (size_t b = 0; b * 2 < scale_sums.size(); ++b) {
    gpu_x.scales.push_back(scale_sums[2 * b]);
    gpu_x.sums.push_back(scale_sums[2 * b + 1]);
  }
  const std::vector<double>& cpu = tuned_inputs_->GemvQ8On(gpu_x, m);
  const std::vector<float> y = gpu::Download<float>(context, FirstCopyBuffer(0), size_t{m} * n);
  VerificationRecord record = reference::Compare(
      info().id, y, cpu, reference::MatmulTolerance(reference::MaxMagnitude(cpu)),
      [n](size_t index) { return reference::MatmulIndexName(index, n); });
  record.elements += codes.elements;

  // What the int8 activations cost against f32 ones.
  std::vector<size_t> all(size_t{m} * n);
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::vector<double>& exact = tuned_inputs_->model->Products(k, n, all);
  double deviation = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    deviation = std::max(deviation, std::fabs(y[i] - exact[i]));
  }
  record.model_deviation = deviation / std::max(reference::MaxMagnitude(exact), 1e-30);
  return record;
}

namespace {

/// The catalog's shapes, and its one-token shapes again at M = kSmallBatch: a few tokens at once
/// (speculative decoding's check of its drafts, a small batch), where the q8 GEMV takes every
/// row of x in one pass over the weights.
constexpr uint32_t kSmallBatch = 8;

std::vector<MatmulShape> Q4CatalogShapes() {
  std::vector<MatmulShape> shapes = MatmulCatalogShapes();
  for (const MatmulShape& shape : MatmulCatalogShapes()) {
    if (shape.m != 1) continue;
    MatmulShape batch = shape;
    batch.m = kSmallBatch;
    shapes.push_back(batch);
  }
  return shapes;
}

}  // namespace

std::vector<std::unique_ptr<KernelBenchmark>> MatmulQ4Benchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const MatmulShape& shape : Q4CatalogShapes()) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      rows.push_back(std::make_unique<MatmulQ4Benchmark>(
          MatmulInfo("matmul-q4", shape, variant, Description(variant, shape)), variant, shape,
          options));
    }
    if (shape.m > kSmallBatch) continue;
    for (Q8Timing timing : {Q8Timing::kPrequantized, Q8Timing::kWithQuantizer}) {
      bench::BenchmarkInfo info =
          MatmulInfo("matmul-q4", shape, Variant::kTunedQ8, Description(Variant::kTunedQ8, shape));
      if (timing == Q8Timing::kWithQuantizer) {
        info.id += kWithQuantizerSuffix;
        info.description += ", the quantizer as its own dispatch before it";
      }
      rows.push_back(std::make_unique<MatmulQ4Benchmark>(std::move(info), Variant::kTunedQ8, shape,
                                                         options, timing));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
