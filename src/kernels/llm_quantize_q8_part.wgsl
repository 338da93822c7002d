// The q8 quantizer's arithmetic (reference/llm_q8.h), a part shared by the quantizers
// (llm_quantize_q8.wgsl; decode_quantize_q8.wgsl, which quantizes what it computes): one
// invocation's group of 8 values of a block of 32 to its two code words, the block's d and Σq
// met through the block part before this file (block_max, block_sum). d = max|x| / 127 (0 for
// an all-zero block), q = round(x / d) (WGSL's round: half to even) clamped to [-127, 127],
// packed in dot4I8Packed's pairing with MatMulNBits nibbles: group j's words (Aj, Bj), Aj the
// codes 8j, 8j + 2, 8j + 4, 8j + 6 (lowest byte first), Bj the odd ones. The kernel declares
// `codes` (array<vec2<u32>>, a block's four groups at 4b ..) and `scale_sums` (array<vec2<f32>>,
// (d, Σq) a block).

// The byte of code q, two's complement.
fn byte_of(q: i32) -> u32 {
  return u32(q) & 0xFFu;
}

// A group of 8 values quantized: its two code words and its block's d and Σq.
struct QuantizedGroup {
  words: vec2<u32>,
  d: f32,
  sum: i32,
}

// Quantizes `values`, a group of 8 of the block that invocations lid - lid % 4 .. + 3 hold
// (the block part's reductions meet them). Call from uniform control flow.
fn quantize_words(values: array<f32, 8>, lid: u32) -> QuantizedGroup {
  var amax = 0.0;
  for (var i = 0u; i < 8u; i++) {
    amax = max(amax, abs(values[i]));
  }
  amax = block_max(amax, lid);
  let d = amax / 127.0;
  var a = 0u;  // codes 8j, 8j + 2, 8j + 4, 8j + 6, lowest byte first
  var odd = 0u;  // codes 8j + 1, 8j + 3, ..
  var sum = 0i;
  for (var i = 0u; i < 8u; i++) {
    var q = 0i;
    if (d > 0.0) {
      q = i32(clamp(round(values[i] / d), -127.0, 127.0));
    }
    sum += q;
    let byte = byte_of(q) << (8u * (i / 2u));
    if (i % 2u == 0u) {
      a |= byte;
    } else {
      odd |= byte;
    }
  }
  return QuantizedGroup(vec2<u32>(a, odd), d, block_sum(sum, lid));
}

// Quantizes `values`, group `item` % 4 of block `item` / 4, and writes its words (and, from the
// group 0, the block's (d, Σq)) to `codes` and `scale_sums` unless `write` is false. Call from
// uniform control flow.
fn quantize_group(values: array<f32, 8>, item: u32, lid: u32, write: bool) {
  let quantized = quantize_words(values, lid);
  if (!write) {
    return;
  }
  codes[item] = quantized.words;
  if (item % 4u == 0u) {
    scale_sums[item / 4u] = vec2<f32>(quantized.d, f32(quantized.sum));
  }
}
