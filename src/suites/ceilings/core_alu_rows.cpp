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

using Model = std::function<std::vector<double>(uint32_t threads, uint32_t iterations)>;

AluRowSpec Row(std::string id, std::string kernel, std::string unit, uint32_t ops_per_iteration,
               uint32_t default_iterations, OutputType output, std::string description,
               Model model) {
  return {.id = std::move(id),
          .kernel = std::move(kernel),
          .unit = std::move(unit),
          .ops_per_iteration = ops_per_iteration,
          .default_iterations = default_iterations,
          .description = std::move(description),
          .output = output,
          .model = std::move(model)};
}

/// One multiply-add shape of the float rows, the same in f32 and f16.
struct FmaShape {
  const char* name;  ///< the id's and kernel's last part
  uint32_t ops, iterations;
  const char* what;  ///< the description after the type
  reference::FloatModel model;
};

/// The float multiply-add rows: every shape in f32, then every shape in f16 (which needs
/// shader-f16 and has the looser tolerance).
void AddFmaRows(std::vector<AluRowSpec>& rows, std::initializer_list<FmaShape> shapes) {
  for (const bool f16 : {false, true}) {
    const std::string type = f16 ? "f16" : "f32";
    const reference::Precision precision =
        f16 ? reference::Precision::kF16 : reference::Precision::kF32;
    for (const FmaShape& shape : shapes) {
      AluRowSpec spec = Row(type + "-fma-" + shape.name, "ceil_" + type + "_fma_" + shape.name,
                            "FLOP/s", shape.ops, shape.iterations, OutputType::kF32,
                            type + " " + shape.what, reference::ModelAt(shape.model, precision));
      if (f16) spec.needs.features = {gpu::Feature::kShaderF16};
      spec.tolerance = f16 ? Tolerance{.absolute = kF16Abs, .relative = kF16Rel}
                           : Tolerance{.absolute = kF32Abs, .relative = kF32Rel};
      rows.push_back(std::move(spec));
    }
  }
}

// Integer rows compare exactly (both tolerances 0, the default).
AluRowSpec Int(const char* id, const char* kernel, uint32_t ops, uint32_t iterations,
               OutputType output, const char* description, Model model) {
  return Row(id, kernel, "OP/s", ops, iterations, output, description, model);
}

AluRowSpec Dp4a(const char* id, const char* kernel, uint32_t ops, uint32_t iterations,
                OutputType output, const char* description, Model model) {
  AluRowSpec spec = Int(id, kernel, ops, iterations, output, description, model);
  spec.needs.language_features = {kDp4aFeature};
  return spec;
}

std::vector<AluRowSpec> MakeRows() {
  namespace ref = reference;
  std::vector<AluRowSpec> rows;
  AddFmaRows(
      rows,
      {{"scalar", 64, 256, "multiply-add, 8 independent scalar chains unrolled 4x",
        ref::FmaScalarModel},
       {"vec4", 256, 256, "multiply-add, 8 independent vec4 chains unrolled 4x", ref::FmaVec4Model},
       {"mat4", 32, 1024, "x = m * x + c with a contracting mat4x4, c rotating", ref::FmaMat4Model},
       {"matvec", 64, 512, "register-resident 4x8 matvec tile via dot(), outputs fed back",
        ref::FmaMatvecModel}});
  rows.insert(
      rows.end(),
      {
          Int("i32-mad-scalar", "ceil_i32_mad_scalar", 64, 256, OutputType::kI32,
              "i32 wrapping multiply-add, 8 independent scalar chains unrolled 4x",
              ref::I32MadScalarModel),
          Int("i32-mad-vec4", "ceil_i32_mad_vec4", 256, 256, OutputType::kI32,
              "i32 wrapping multiply-add, 8 independent vec4 chains unrolled 4x",
              ref::I32MadVec4Model),
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
      });
  return rows;
}

}  // namespace

const std::vector<AluRowSpec>& CoreAluRows() {
  static const std::vector<AluRowSpec> rows = MakeRows();
  return rows;
}

}  // namespace refract::suites::ceilings
