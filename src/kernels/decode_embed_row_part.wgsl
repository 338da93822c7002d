// A token's row of the q4 embedding (a part): the MatMulNBits matrix [vocab, hidden] of llm_q4.h
// (a row's blocks of 32 codes in 16 bytes, low nibble first, one f32 scale a block). Its kernels
// bind `embed_codes` and `embed_scales` here, and read a row a word of 8 values at a time.
@group(0) @binding(6) var<storage, read> embed_codes: array<u32>;   // [vocab, hidden / 8]
@group(0) @binding(7) var<storage, read> embed_scales: array<f32>;  // [vocab, hidden / 32]

// Values 8w .. 8w + 7 of row `row` ((code − 8) · its block's scale) of a matrix `hidden` wide (a
// multiple of 32).
fn embedding_word(row: u32, w: u32, hidden: u32) -> array<f32, 8> {
  let word = embed_codes[row * (hidden / 8u) + w];
  let scale = embed_scales[row * (hidden / 32u) + w / 4u];
  var values: array<f32, 8>;
  for (var j = 0u; j < 8u; j++) {
    values[j] = (f32((word >> (4u * j)) & 15u) - 8.0) * scale;
  }
  return values;
}
