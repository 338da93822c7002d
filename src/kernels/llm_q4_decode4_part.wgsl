// MatMulNBits codes to f32 without conversions (a part): OR-ing a nibble masked in place (bits
// 4j .. 4j + 3, j < 4) into the f32 2^23 gives 2^23 + code · 16^j exactly, and one fma by 16^-j
// minus (2^(23 − 4j) + 8) leaves code − 8 exactly. A block's word i holds its elements 8i ..
// 8i + 7 in nibble order: decode4(w) gives elements 8i .. 8i + 3, decode4(w >> 16) the next four.

// code − 8 of the nibbles in bits 0-3, 4-7, 8-11 and 12-15 of `bits`.
fn decode4(bits: u32) -> vec4<f32> {
  let masked = (vec4<u32>(bits) & vec4<u32>(0xFu, 0xF0u, 0xF00u, 0xF000u)) | vec4<u32>(0x4B000000u);
  return fma(bitcast<vec4<f32>>(masked), vec4<f32>(1.0, 0.0625, 0.00390625, 0.000244140625),
             vec4<f32>(-8388616.0, -524296.0, -32776.0, -2056.0));
}
