#include "suites/ceilings/catalog_alu_rows.h"

#include <algorithm>
#include <string>
#include <utility>

#include "reference/alu_catalog_models.h"

// Tolerances. A GPU value v passes against the model m when |v - m| <= abs + rel * |m|. Every
// chain is a contraction x -> f(x) with Lipschitz constant L on the range the kernel keeps x in,
// so a per-step error of at most d (what WGSL allows the GPU beyond the model's correctly
// rounded step) stays below d / (1 - L) however many iterations run. The bound of each row is
// that, over the smallest value a chain holds, plus the f32 rounding of the 8-chain sum; the
// tolerance is the bound with a margin of about 1.5-3x. WGSL's accuracies used: division
// 2.5 ULP; inverseSqrt 2 ULP; sqrt as 1 / inverseSqrt (4.5 ULP, taken as 5); log 3 ULP for x
// outside [0.5, 2]; pow as exp2(e * log2(x)) with log2 3 ULP outside [0.5, 2] and exp2
// 3 + 2|y| ULP (f32) or 1 + 2|y| ULP (f16); sin and cos absolute 2^-11 (f32) or 2^-7 (f16) on
// [-pi, pi]; an f32 -> f16 conversion may round to either neighbour; a multiply and an add may
// be fused (one rounding instead of two), and fma may be split. f32 ULP at [1, 2) = 2^-23, f16
// ULP at [1, 2) = 2^-10.

namespace refract::suites::ceilings {
namespace {

using Model = std::function<std::vector<double>(uint32_t, uint32_t)>;

constexpr uint32_t kStandardOps = 64;  // 32 steps an iteration, 2 ops a step
constexpr uint32_t kOneOpSteps = 32;   // 32 steps an iteration, 1 counted op a step

/// A row's tolerance as the comments derive it: relative first, then absolute.
struct Bound {
  double rel = 0;
  double abs = 0;
};
constexpr Bound kExact{};

AluRowSpec Row(std::string id, std::string unit, uint32_t ops_per_iteration,
               uint32_t default_iterations, std::string description, OutputType output, Model model,
               Bound tolerance) {
  AluRowSpec spec;
  spec.kernel = "ceil_" + id;
  std::replace(spec.kernel.begin(), spec.kernel.end(), '-', '_');
  spec.id = std::move(id);
  spec.unit = std::move(unit);
  spec.ops_per_iteration = ops_per_iteration;
  spec.default_iterations = default_iterations;
  spec.description = std::move(description);
  spec.output = output;
  spec.model = std::move(model);
  spec.tolerance = {.absolute = tolerance.abs, .relative = tolerance.rel};
  if (spec.id.starts_with("f16-")) spec.needs.features = {gpu::Feature::kShaderF16};
  return spec;
}

/// The f32 and the f16 row of a math builtin, 8 chains of kStandardOps: ids "f32-<name>" and
/// "f16-<name>", descriptions "f32 <what>" and "f16 <what>", `model` at each precision, each
/// with its tolerance.
void AddFloatTwins(std::vector<AluRowSpec>& rows, const std::string& name, uint32_t iterations,
                   const std::string& what, reference::FloatModel model, Bound f32_tolerance,
                   Bound f16_tolerance) {
  using reference::Precision;
  rows.push_back(Row("f32-" + name, "FLOP/s", kStandardOps, iterations, "f32 " + what,
                     OutputType::kF32, reference::ModelAt(model, Precision::kF32), f32_tolerance));
  rows.push_back(Row("f16-" + name, "FLOP/s", kStandardOps, iterations, "f16 " + what,
                     OutputType::kF32, reference::ModelAt(model, Precision::kF16), f16_tolerance));
}

std::vector<AluRowSpec> MakeRows() {
  namespace ref = refract::reference;
  const std::string flops = "FLOP/s";
  const std::string ops = "OP/s";
  const OutputType f32 = OutputType::kF32;
  std::vector<AluRowSpec> rows;

  // ---- Math: 8 chains, 2 FLOP a step (the named builtin and an add). ----

  // Division, a / x with a in [0.25, 0.72], x in [1, 3.1]: L = a < 0.72. f32: d = 2.5 ULP of
  // a / x (< 1) + 0.5 ULP of x (< 4) = 1.5e-7 + 1.2e-7; per chain 9.6e-7, over x >= 1 and with
  // the sum's rounding rel 1.3e-6. f16: d = 2.5 * 2^-11 + 0.5 * 2^-9 = 2.2e-3; per chain
  // 7.9e-3 over x >= 1.
  AddFloatTwins(rows, "div", 256, "division, x = a / x + b (loop-carried divisor), 8 chains",
                ref::DivModel, {4e-6, 0}, {1e-2, 0});
  rows.push_back(Row("i32-div", ops, kStandardOps, 256,
                     "i32 division, x = x / a + b with a in 2..5, 8 chains", OutputType::kI32,
                     ref::I32DivModel, kExact));

  // sqrt(x) with x in [1, 4): L = 1 / (2 sqrt(x)) <= 0.5, and x >= 2 after a step. f32:
  // d = 5 ULP of sqrt(x) (< 2) + 0.5 ULP of x = 6e-7 + 1.2e-7; per chain 1.4e-6, rel 7e-7
  // (x >= 2) + 2e-7 for the sum. f16: d = 5 * 2^-10 + 0.5 * 2^-9 = 5.9e-3; per chain 1.2e-2,
  // rel 5.9e-3.
  AddFloatTwins(rows, "sqrt", 256, "sqrt, x = sqrt(x) + b, 8 chains", ref::SqrtModel, {4e-6, 0},
                {1e-2, 0});

  // inverseSqrt(x) with x in [1, 3): L = x^-1.5 / 2 <= 0.5, x >= 1.5 after a step. f32:
  // d = 2 ULP of x^-0.5 (< 1) + 0.5 ULP of x = 1.2e-7 + 1.2e-7; per chain 4.8e-7, rel 3.2e-7
  // + 2e-7 for the sum. f16: d = 2 * 2^-11 + 0.5 * 2^-9 = 2e-3; per chain 3.9e-3, rel 2.6e-3.
  AddFloatTwins(rows, "rsqrt", 256, "inverseSqrt, x = inverseSqrt(x) + b, 8 chains",
                ref::RsqrtModel, {2e-6, 0}, {5e-3, 0});

  // pow(x, e), e in [0.41, 0.63], x in [2, 5) after a step: L = e x^(e-1) <= 0.49. f32:
  // log2(x) in [1, 2.33) off by 3 ULP = 7.2e-7, times e plus the product's rounding = 5.1e-7
  // in y, times ln 2 * pow (< 2.8) = 9.9e-7; exp2 5.9 ULP = 1.4e-6; the add 2.4e-7:
  // d = 2.6e-6, per chain 5.1e-6, rel 2.6e-6. f16: the same with f16 ULPs (exp2 3.9 ULP):
  // 8.1e-3 + 7.6e-3 + 2e-3 = 1.8e-2, per chain 3.5e-2, rel 1.8e-2.
  AddFloatTwins(rows, "pow", 128, "pow, x = pow(x, e) + b, 8 chains", ref::PowModel, {1e-5, 0},
                {2.5e-2, 0});

  // cos(sin(x)), x in [0, 1]: L = max |sin(sin x) cos x| = 0.47; d = (0.75 + 1) * the absolute
  // error of sin and cos. f32: d = 8.5e-4, per chain 1.6e-3, the 8-chain sum 1.3e-2 (absolute).
  // f16: d = 1.4e-2 with the f16 roundings, per chain 2.7e-2, the sum 0.21.
  AddFloatTwins(rows, "sincos", 128, "sin and cos, x = cos(sin(x)), 8 chains", ref::SincosModel,
                {0, 1.5e-2}, {0, 0.25});

  // log(x), x in [10, 19): L = 1 / x <= 0.1. f32: d = 3 ULP of log(x) (< 4) + 0.5 ULP of x
  // (< 32) = 7.2e-7 + 9.5e-7; per chain 1.9e-6, rel 1.9e-7 (x >= 10) + 2e-7 for the sum. f16:
  // d = 3 * 2^-9 + 0.5 * 2^-6 = 1.4e-2; per chain 1.5e-2, rel 1.5e-3.
  AddFloatTwins(rows, "log", 256, "log, x = log(x) + b, 8 chains", ref::LogModel, {1e-6, 0},
                {3e-3, 0});

  // ---- Conversions and bits. ----

  rows.push_back(Row("u32-packunpack", ops, kStandardOps, 256,
                     "byte unpack (shift/mask), +1 each, repack (2 ops), 8 chains",
                     OutputType::kU32, ref::U32PackUnpackModel, kExact));
  // Exact: |x| < 64 and a, b are multiples of 1/16, so f32(x) * a + b is exact, fused or not.
  rows.push_back(Row("i32-f32-convert", ops, kStandardOps, 256,
                     "i32 -> f32 -> i32, x = i32(f32(x) * a + b) (the 2 converts count), 8 chains",
                     OutputType::kI32, ref::I32F32ConvertModel, kExact));
  // Either f16 neighbour may be chosen: an error of up to 1 f16 ULP of x times a a step, so
  // relatively 2^-10 * a / (1 - a) = 3.5e-3 with a < 0.79. (The kernel adds one f16 ULP to
  // each packed lane: lavapipe folds unpack2x16float(pack2x16float(v)).y to v.y otherwise.)
  rows.push_back(Row("f32-f16-convert", ops, 128, 256,
                     "f32 -> f16 -> f32 through pack2x16float/unpack2x16float, 8 vec2 chains", f32,
                     ref::F32F16ConvertModel, {5e-3, 0}));
  rows.push_back(Row("u32-shift", ops, kOneOpSteps, 256,
                     "u32 shifts, x = (x << n) ^ k or (x >> n) ^ k, varying n, 8 chains",
                     OutputType::kU32, ref::U32ShiftModel, kExact));
  rows.push_back(Row("u32-countonebits", ops, kOneOpSteps, 256,
                     "countOneBits, x = countOneBits(x) ^ k, 8 chains", OutputType::kU32,
                     ref::U32CountOneBitsModel, kExact));
  rows.push_back(Row("u32-firstleadingbit", ops, kOneOpSteps, 256,
                     "firstLeadingBit, x = firstLeadingBit(x) ^ k, 8 chains", OutputType::kU32,
                     ref::U32FirstLeadingBitModel, kExact));
  rows.push_back(Row("u32-reversebits", ops, kOneOpSteps, 256,
                     "reverseBits, x = reverseBits(x) + k, 8 chains", OutputType::kU32,
                     ref::U32ReverseBitsModel, kExact));

  // ---- Builtins. ----

  // fma may run unfused (two roundings): 2^-24 relative a step, times 1 / (1 - a) = 16 for
  // a <= 0.94: rel 9.5e-7, + 2e-7 for the sum; abs 1e-6 covers small outputs.
  rows.push_back(Row("f32-fma-builtin", flops, kStandardOps, 256,
                     "the fma builtin, x = fma(x, a, b), 8 chains", f32, ref::F32FmaBuiltinModel,
                     {4e-6, 1e-6}));
  // The same kernel as a plain peak kernel runs it: 256-thread workgroups, 4,194,304 threads
  // (4x f32-fma-scalar's, so the dispatch's last wave of workgroups is a small part of it).
  AluRowSpec wide = Row("f32-fma-wide", flops, kStandardOps, 256,
                        "fma builtin, 8 chains, 256-thread workgroups, 4,194,304 threads (the "
                        "f32 peak as a plain kernel reaches it)",
                        f32, ref::F32FmaBuiltinModel, {4e-6, 1e-6});
  wide.threads = 1u << 22;
  wide.workgroup_size = 256;
  rows.push_back(std::move(wide));
  // Exact: every value is a multiple of 1/32 below 2, so every add is exact.
  rows.push_back(Row("f32-select", ops, kOneOpSteps, 256,
                     "select, x = select(x + b, x - a, x > 1), 8 chains", f32, ref::F32SelectModel,
                     kExact));
  // x * a + b may be fused: 0.5 ULP of a value <= 1 a step (6e-8), times 1 / (1 - a) = 5.9 for
  // a <= 0.83 (clamping is 1-Lipschitz): 3.5e-7 a chain, 2.8e-6 the sum, + 7e-7 for its
  // rounding; absolute, as outputs may be 0.
  rows.push_back(Row("f32-clamp", ops, kOneOpSteps, 256,
                     "clamp, x = clamp(x * a + b, 0, 1), 8 chains", f32, ref::F32ClampModel,
                     {0, 1e-5}));
  rows.push_back(Row("f32-minmax", ops, 2 * kOneOpSteps, 256,
                     "min and max, x = max(min(x * a + b, 1), 0), 8 chains", f32,
                     ref::F32MinMaxModel, {0, 1e-5}));

  // ---- Branches: x * a + b, each step in if/else with equal work. ----

  // A fused multiply-add: as f32-fma-builtin (a, a2 <= 0.94).
  const Bound branch_tolerance{4e-6, 1e-6};
  rows.push_back(Row("branch-none", flops, kStandardOps, 256,
                     "f32 x = x * a + b without branches (baseline of the branch rows), 8 chains",
                     f32, ref::BranchNoneModel, branch_tolerance));
  rows.push_back(Row("branch-uniform", flops, kStandardOps, 256,
                     "f32 multiply-add steps in if/else, condition uniform across threads", f32,
                     ref::BranchUniformModel, branch_tolerance));
  rows.push_back(Row("branch-coherent", flops, kStandardOps, 256,
                     "f32 multiply-add steps in if/else, condition uniform per workgroup", f32,
                     ref::BranchCoherentModel, branch_tolerance));
  rows.push_back(Row("branch-divergent", flops, kStandardOps, 256,
                     "f32 multiply-add steps in if/else, condition alternating between threads",
                     f32, ref::BranchDivergentModel, branch_tolerance));
  return rows;
}

}  // namespace

const std::vector<AluRowSpec>& CatalogAluRows() {
  static const std::vector<AluRowSpec> kRows = MakeRows();
  return kRows;
}

}  // namespace refract::suites::ceilings
