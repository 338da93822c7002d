// CPU models of the 15 core raw-ALU ceilings kernels (src/kernels/ceil_*_{fma,mad,dp4a}*.wgsl):
// each reproduces its kernel's arithmetic (same operand derivation, same order of operations,
// f32 in float, f16 rounded after every operation, integers wrapping modulo 2^32) and returns
// out[0 .. threads) of one dispatch with `iterations` as params.iterations.
//
// The f32 and f16 models round a multiply and its add separately; a GPU may fuse them (one
// rounding), so the rows compare floats with a tolerance (src/suites/ceilings/core_alu_rows.cpp).
// The integer models are exact.
#pragma once

#include <cstdint>
#include <vector>

#include "reference/precision.h"

namespace refract::reference {

/// Hash of the integer kernels' `operand(idx, n)`: every integer operand of thread `idx` is
/// OperandHash(idx * 64 + n) (a multiply–xorshift mix).
uint32_t OperandHash(uint32_t value);

// The float models, each for ceil_f32_<name> and ceil_f16_<name> (WGSL f16: every operation
// rounded to f16; the kernel writes f32(result)).
/// fma_scalar: 8 chains x = x * a + b, 32 steps an iteration.
std::vector<double> FmaScalarModel(Precision precision, uint32_t threads, uint32_t iterations);
/// fma_vec4: 8 vec4 chains x = x * a + b, 32 steps an iteration.
std::vector<double> FmaVec4Model(Precision precision, uint32_t threads, uint32_t iterations);
/// fma_mat4: x = m * x + c with a contracting mat4x4, c rotating, 1 step an iteration.
std::vector<double> FmaMat4Model(Precision precision, uint32_t threads, uint32_t iterations);
/// fma_matvec: a 4x8 weight tile, o = W * (x0, x1) + c, fed back, c rotating.
std::vector<double> FmaMatvecModel(Precision precision, uint32_t threads, uint32_t iterations);

/// ceil_i32_mad_scalar: 8 i32 chains x = x * a + b (wrapping), 32 steps an iteration.
std::vector<double> I32MadScalarModel(uint32_t threads, uint32_t iterations);
/// ceil_i32_mad_vec4: 8 vec4<i32> chains x = x * a + b (wrapping), 32 steps an iteration.
std::vector<double> I32MadVec4Model(uint32_t threads, uint32_t iterations);
/// ceil_i32_mad_mat4: x = (dot(r0, x), .., dot(r3, x)) + c (wrapping), c rotating.
std::vector<double> I32MadMat4Model(uint32_t threads, uint32_t iterations);
/// ceil_i32_mad_matvec and ceil_i8_dp4a_matvec (the same arithmetic, unpacked and packed): an
/// int8 4x8 weight tile, o = W * (x0, x1) + c, the next x0 = the low 8 bits of o >> 4
/// (sign-extended), c rotating.
std::vector<double> I8MatvecModel(uint32_t threads, uint32_t iterations);

/// ceil_i8_dp4a: 8 accumulators, acc += dot4I8Packed(a, b); a ^= u32(acc).
std::vector<double> I8Dp4aModel(uint32_t threads, uint32_t iterations);
/// ceil_u8_dp4a: 8 accumulators, acc += dot4U8Packed(a, b); a ^= acc.
std::vector<double> U8Dp4aModel(uint32_t threads, uint32_t iterations);

/// WGSL dot4I8Packed: the sum of the products of the four signed bytes (wrapping i32).
int32_t Dot4I8Packed(uint32_t a, uint32_t b);
/// WGSL dot4U8Packed: the sum of the products of the four unsigned bytes.
uint32_t Dot4U8Packed(uint32_t a, uint32_t b);

}  // namespace refract::reference
