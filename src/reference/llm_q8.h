// The int8 activations of the q4 GEMV's q8 path (llama.cpp's q8_1 blocks over MatMulNBits'
// blocks of 32): x in blocks of 32, each with one f32 scale d = max|x| / 127 (0 for an all-zero
// block) and codes q = round-half-to-even(x / d) in [-127, 127], the block's sum Σq kept beside
// d so that the weights' zero point folds in as −8 · Σq; the codes packed four to a u32 in the
// order dot4I8Packed pairs them with the nibbles of a MatMulNBits word. The model of the
// quantizer, the check of a GPU's quantizer (which may round differently at near-ties: WGSL
// division is not correctly rounded everywhere), and the GEMV's arithmetic on given codes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/verification.h"
#include "reference/llm_q4.h"

namespace refract::reference {

inline constexpr uint32_t kQ8BlockSize = 32;
/// A GPU code may differ from the model's by 1 where x / d lies within this fraction of |x / d|
/// (at least of 1) of a tie k + 0.5: a division off by a few ulps (d's and x / d's, ~1e-7
/// relative each) crosses a tie only that close to it.
inline constexpr double kQ8TieWindow = 1e-5;

/// Quantized activations: codes [KB · 32] (a partial last block padded with 0), scales d [KB]
/// and sums Σq [KB] (whole numbers, exact in f32).
struct Q8Activations {
  std::vector<int8_t> codes;
  std::vector<float> scales;
  std::vector<float> sums;
};

/// The model: d = amax / 127 rounded once to f32, q = round-half-to-even(x / d) from that d
/// computed in double, clamped to [-127, 127]; an all-zero block has d = 0 and codes 0.
Q8Activations QuantizeQ8(std::span<const float> x);

/// x as the q8 GEMV sees it: QuantizeQ8(x)'s codes times their block's d, each product rounded
/// to f32 (a GEMV on these in double is the q8 GEMV's sum up to that rounding, ~6e-8 of a value).
std::vector<float> Q8RoundTrip(std::span<const float> x);

/// Block b's eight words 8b .. 8b + 7 = (A0, B0, A1, B1, A2, B2, A3, B3): Aj holds the bytes
/// q[8j], q[8j + 2], q[8j + 4], q[8j + 6] of the block (lowest byte first), Bj q[8j + 1],
/// q[8j + 3], q[8j + 5], q[8j + 7] — the even and odd codes a MatMulNBits word's low and high
/// nibbles (masked with 0x0F0F0F0F) meet in dot4I8Packed.
std::vector<uint32_t> PackQ8Codes(std::span<const int8_t> codes);
/// The inverse of PackQ8Codes.
std::vector<int8_t> UnpackQ8Codes(std::span<const uint32_t> words);

/// Checks a GPU quantizer's output — the packed `words` and `scale_sums` (d, Σq of each block,
/// interleaved) — against the model of `x`: each d within 4 ulps of the model's, each code equal
/// to the model's or within ±1 where x / d is within kQ8TieWindow of a tie, each Σq equal to the
/// sum of the GPU's own codes of the block. Throws VerificationError naming what disagreed.
VerificationRecord CheckQ8Activations(const std::string& what, std::span<const uint32_t> words,
                                      std::span<const float> scale_sums, std::span<const float> x);

/// y[n] = Σ_b scale[n, b] · d_b · (Σ_i code[32b + i][n] · q_i − 8 · Σq_b), in double: the q8
/// GEMV's arithmetic on the quantized activations `x` (the kernel's own, to check it on them).
std::vector<double> GemvQ8(const Q4Matrix& w, const Q8Activations& x);

/// Σ_b |scale[n, b] · d_b · (Σ_i code · q_i − 8 · Σq_b)| for each n, in double: what bounds the
/// rounding of a GPU's f32 sum of GemvQ8's terms in any order (KB terms: KB · 2^-24 of this).
std::vector<double> GemvQ8Magnitudes(const Q4Matrix& w, const Q8Activations& x);

}  // namespace refract::reference
