// CPU models of the catalog's remaining raw-ALU ceilings kernels (math, conversions and bits,
// builtins, branches: src/kernels/ceil_*.wgsl of the rows in
// src/suites/ceilings/catalog_alu_rows.cpp). Each reproduces its kernel's arithmetic (same
// operand derivation, same order of operations, f32 in float, f16 rounded to f16 after every
// operation, integers wrapping modulo 2^32, WGSL semantics for every builtin) and returns
// out[0 .. threads) of one dispatch with `iterations` as params.iterations.
//
// Exact where WGSL pins the result (integers, bit operations, conversions of exact values,
// additions); the transcendental builtins, division and a multiply–add that a GPU may fuse
// differ from the CPU within the accuracy WGSL allows, so those rows compare with a tolerance
// derived from that accuracy (catalog_alu_rows.cpp states each).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "reference/precision.h"

namespace refract::reference {

// ---- WGSL builtins with exactly specified results -------------------------------------------

/// WGSL countOneBits(u32): the number of 1 bits.
uint32_t CountOneBits(uint32_t x);
/// WGSL firstLeadingBit(u32): the index of the most significant 1 bit; 0xFFFFFFFF for 0.
uint32_t FirstLeadingBit(uint32_t x);
/// WGSL reverseBits(u32): bit i of the result is bit 31 − i of x.
uint32_t ReverseBits(uint32_t x);
/// WGSL `x / y` for i32: truncates toward zero; x / 0 is x and INT32_MIN / −1 is INT32_MIN.
int32_t DivideI32(int32_t x, int32_t y);
/// WGSL `x << n` and `x >> n` for u32 (logical): only the low 5 bits of n count.
uint32_t ShiftLeft(uint32_t x, uint32_t n);
uint32_t ShiftRight(uint32_t x, uint32_t n);
/// WGSL pack2x16float: both lanes rounded to f16 (to nearest, ties to even), lane 0 in the low
/// 16 bits.
uint32_t Pack2x16Float(std::array<float, 2> lanes);
/// WGSL unpack2x16float: the two f16 halves of `packed`, low half first.
std::array<float, 2> Unpack2x16Float(uint32_t packed);
/// One step of ceil_u32_packunpack: the 4 bytes of x unpacked with shifts and masks, each + 1
/// (wrapping at 8 bits), repacked rotated by one byte (byte 0 into byte 1, …, byte 3 into 0).
uint32_t BumpBytes(uint32_t x);

// ---- Math (8 chains, 32 steps an iteration) -------------------------------------------------

// The float models are each for ceil_f32_<name> and ceil_f16_<name>.
/// div: x = a / x + b.
std::vector<double> DivModel(Precision precision, uint32_t threads, uint32_t iterations);
/// ceil_i32_div: x = x / a + b, a in 2..5, truncating division.
std::vector<double> I32DivModel(uint32_t threads, uint32_t iterations);
/// sqrt: x = sqrt(x) + b.
std::vector<double> SqrtModel(Precision precision, uint32_t threads, uint32_t iterations);
/// rsqrt: x = inverseSqrt(x) + b.
std::vector<double> RsqrtModel(Precision precision, uint32_t threads, uint32_t iterations);
/// pow: x = pow(x, e) + b, e in (0.4, 0.7).
std::vector<double> PowModel(Precision precision, uint32_t threads, uint32_t iterations);
/// sincos: x = cos(sin(x)).
std::vector<double> SincosModel(Precision precision, uint32_t threads, uint32_t iterations);
/// log: x = log(x) + b, b in 10..16.
std::vector<double> LogModel(Precision precision, uint32_t threads, uint32_t iterations);

// ---- Conversions and bits -------------------------------------------------------------------

/// ceil_u32_packunpack: x = BumpBytes(x).
std::vector<double> U32PackUnpackModel(uint32_t threads, uint32_t iterations);
/// ceil_i32_f32_convert: x = i32(f32(x) * a + b) (exact in f32, truncated toward zero).
std::vector<double> I32F32ConvertModel(uint32_t threads, uint32_t iterations);
/// ceil_f32_f16_convert: 8 vec2 chains
/// x = unpack2x16float(pack2x16float(x) + 0x00010001) * a + b.
std::vector<double> F32F16ConvertModel(uint32_t threads, uint32_t iterations);
/// ceil_u32_shift: even chains x = (x << n) ^ k, odd chains x = (x >> n) ^ k,
/// n = (i + 8 u + c) & 31.
std::vector<double> U32ShiftModel(uint32_t threads, uint32_t iterations);
/// ceil_u32_countonebits: x = countOneBits(x) ^ k.
std::vector<double> U32CountOneBitsModel(uint32_t threads, uint32_t iterations);
/// ceil_u32_firstleadingbit: x = firstLeadingBit(x) ^ k.
std::vector<double> U32FirstLeadingBitModel(uint32_t threads, uint32_t iterations);
/// ceil_u32_reversebits: x = reverseBits(x) + k.
std::vector<double> U32ReverseBitsModel(uint32_t threads, uint32_t iterations);

// ---- Builtins ---------------------------------------------------------------------------------

/// ceil_f32_fma_builtin: x = fma(x, a, b), fused (one rounding).
std::vector<double> F32FmaBuiltinModel(uint32_t threads, uint32_t iterations);
/// ceil_f32_select: x = select(x + b, x - a, x > 1) (exact).
std::vector<double> F32SelectModel(uint32_t threads, uint32_t iterations);
/// ceil_f32_clamp: x = clamp(x * a + b, 0, 1).
std::vector<double> F32ClampModel(uint32_t threads, uint32_t iterations);
/// ceil_f32_minmax: x = max(min(x * a + b, 1), 0).
std::vector<double> F32MinMaxModel(uint32_t threads, uint32_t iterations);

// ---- Branches: x = x * a + b, or each step in if/else with equal work -------------------------

/// ceil_branch_none: no branch.
std::vector<double> BranchNoneModel(uint32_t threads, uint32_t iterations);
/// ceil_branch_uniform: condition (i + k) & 1.
std::vector<double> BranchUniformModel(uint32_t threads, uint32_t iterations);
/// ceil_branch_coherent: condition ((idx / 64) + i + k) & 1.
std::vector<double> BranchCoherentModel(uint32_t threads, uint32_t iterations);
/// ceil_branch_divergent: condition (idx + i + k) & 1.
std::vector<double> BranchDivergentModel(uint32_t threads, uint32_t iterations);

}  // namespace refract::reference
