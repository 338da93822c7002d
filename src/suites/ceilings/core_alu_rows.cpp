#include "suites/ceilings/core_alu_rows.h"

#include "reference/alu_core_models.h"

namespace refract::suites::ceilings {
namespace {

constexpr char kDp4aFeature[] = "packed_4x8_integer_dot_product";

// f32 tolerance. The model rounds every multiply and every add; a GPU may fuse x * a + b (and
// the steps of dot() and m * x) into an FMA with one rounding, or sum m * x in another order.
// A fully fused CPU variant of each model diverges from it by at most 2.4e-6 relative and
// 1.9e-6 absolute, over all operand patterns at 16..64 iterations and at the default count
// (the chains contract, so the differences stay bounded instead of growing). Seen on devices,
// 4096 threads at 16, 48 and the default iterations: lavapipe matches the model bit for bit
// except f32-fma-mat4 (below 1e-7); an NVIDIA H200, which fuses, stays below 1e-6 (abs + rel)
// on all four rows. The tolerance keeps a margin of 40x or more on the relative divergence and
// 5x on the absolute one (which decides for outputs near 0), while a model off by one
// iteration is still 6x or more beyond it at 16 and 48 iterations (the planted-error GPU test
// checks this).
constexpr double kF32Rel = 1e-4;
constexpr double kF32Abs = 1e-5;
// f16 tolerance. An f16 ulp is 2^-10 relative, and a contracting chain turns the difference of
// one rounding per step into a bounded offset of up to ulp / (1 - a) (a <= 7/8: 8 ulp) per
// chain. A fully fused CPU variant diverges from the model by at most 0.29 % relative (scalar,
// vec4) and 2.0e-3 absolute (mat4, matvec, whose outputs lie in (-1.4, 1.4) and can be near
// 0); on lavapipe only f16-fma-mat4 differs, by less than 1e-3. The tolerance keeps a margin
// of about 7x on both.
constexpr double kF16Rel = 2e-2;
constexpr double kF16Abs = 1e-2;

AluRowSpec Row(const char* id, const char* kernel, const char* unit, uint32_t ops_per_iteration,
               uint32_t default_iterations, OutputType output, const char* description,
               std::vector<double> (*model)(uint32_t, uint32_t)) {
  AluRowSpec spec;
  spec.id = id;
  spec.kernel = kernel;
  spec.unit = unit;
  spec.ops_per_iteration = ops_per_iteration;
  spec.default_iterations = default_iterations;
  spec.output = output;
  spec.description = description;
  spec.model = model;
  return spec;
}

AluRowSpec F32(const char* id, const char* kernel, uint32_t ops, uint32_t iterations,
               const char* description, std::vector<double> (*model)(uint32_t, uint32_t)) {
  AluRowSpec spec =
      Row(id, kernel, "FLOP/s", ops, iterations, OutputType::kF32, description, model);
  spec.tolerance = {.absolute = kF32Abs, .relative = kF32Rel};
  return spec;
}

AluRowSpec F16(const char* id, const char* kernel, uint32_t ops, uint32_t iterations,
               const char* description, std::vector<double> (*model)(uint32_t, uint32_t)) {
  AluRowSpec spec =
      Row(id, kernel, "FLOP/s", ops, iterations, OutputType::kF32, description, model);
  spec.needs.features = {gpu::Feature::kShaderF16};
  spec.tolerance = {.absolute = kF16Abs, .relative = kF16Rel};
  return spec;
}

// Integer rows compare exactly (both tolerances 0, the default).
AluRowSpec Int(const char* id, const char* kernel, uint32_t ops, uint32_t iterations,
               OutputType output, const char* description,
               std::vector<double> (*model)(uint32_t, uint32_t)) {
  return Row(id, kernel, "OP/s", ops, iterations, output, description, model);
}

AluRowSpec Dp4a(const char* id, const char* kernel, uint32_t ops, uint32_t iterations,
                OutputType output, const char* description,
                std::vector<double> (*model)(uint32_t, uint32_t)) {
  AluRowSpec spec = Int(id, kernel, ops, iterations, output, description, model);
  spec.needs.language_features = {kDp4aFeature};
  return spec;
}

std::vector<AluRowSpec> MakeRows() {
  namespace ref = reference;
  return {
      F32("f32-fma-scalar", "ceil_f32_fma_scalar", 64, 256,
          "f32 multiply-add, 8 independent scalar chains unrolled 4x", ref::F32FmaScalarModel),
      F32("f32-fma-vec4", "ceil_f32_fma_vec4", 256, 256,
          "f32 multiply-add, 8 independent vec4 chains unrolled 4x", ref::F32FmaVec4Model),
      F32("f32-fma-mat4", "ceil_f32_fma_mat4", 32, 1024,
          "f32 x = m * x + c with a contracting mat4x4, c rotating", ref::F32FmaMat4Model),
      F32("f32-fma-matvec", "ceil_f32_fma_matvec", 64, 512,
          "f32 register-resident 4x8 matvec tile via dot(), outputs fed back",
          ref::F32FmaMatvecModel),
      F16("f16-fma-scalar", "ceil_f16_fma_scalar", 64, 256,
          "f16 multiply-add, 8 independent scalar chains unrolled 4x", ref::F16FmaScalarModel),
      F16("f16-fma-vec4", "ceil_f16_fma_vec4", 256, 256,
          "f16 multiply-add, 8 independent vec4 chains unrolled 4x", ref::F16FmaVec4Model),
      F16("f16-fma-mat4", "ceil_f16_fma_mat4", 32, 1024,
          "f16 x = m * x + c with a contracting mat4x4, c rotating", ref::F16FmaMat4Model),
      F16("f16-fma-matvec", "ceil_f16_fma_matvec", 64, 512,
          "f16 register-resident 4x8 matvec tile via dot(), outputs fed back",
          ref::F16FmaMatvecModel),
      Int("i32-mad-scalar", "ceil_i32_mad_scalar", 64, 256, OutputType::kI32,
          "i32 wrapping multiply-add, 8 independent scalar chains unrolled 4x",
          ref::I32MadScalarModel),
      Int("i32-mad-vec4", "ceil_i32_mad_vec4", 256, 256, OutputType::kI32,
          "i32 wrapping multiply-add, 8 independent vec4 chains unrolled 4x", ref::I32MadVec4Model),
      Int("i32-mad-mat4", "ceil_i32_mad_mat4", 32, 1024, OutputType::kI32,
          "i32 4x4 matrix-vector step as four vec4<i32> rows with dot()", ref::I32MadMat4Model),
      Int("i32-mad-matvec", "ceil_i32_mad_matvec", 64, 512, OutputType::kI32,
          "int8 4x8 matvec tile unpacked to vec4<i32>, integer dot(), outputs >> 4",
          ref::I8MatvecModel),
      Dp4a("i8-dp4a-matvec", "ceil_i8_dp4a_matvec", 64, 512, OutputType::kI32,
           "int8 4x8 matvec tile kept packed, dot4I8Packed, repacked with pack4xI8(o >> 4)",
           ref::I8MatvecModel),
      Dp4a("i8-dp4a", "ceil_i8_dp4a", 64, 256, OutputType::kI32,
           "dot4I8Packed into 8 accumulators, a ^= acc keeps it in the loop", ref::I8Dp4aModel),
      Dp4a("u8-dp4a", "ceil_u8_dp4a", 64, 256, OutputType::kU32,
           "dot4U8Packed into 8 accumulators, a ^= acc keeps it in the loop", ref::U8Dp4aModel),
  };
}

}  // namespace

const std::vector<AluRowSpec>& CoreAluRows() {
  static const std::vector<AluRowSpec> rows = MakeRows();
  return rows;
}

}  // namespace refract::suites::ceilings
