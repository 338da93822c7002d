// The decode step's residual add and RMSNorm of one row, quantized (a part after
// llm_quantize_q8_part.wgsl): h = stream[a ..] + the second addend, y = RMSNorm(h) · norm_weight,
// quantized in blocks of 32 into the kernel's `codes` and `scale_sums` (storage for
// decode_quantize_q8.wgsl's `norm`, workgroup memory for decode_gemv_norm_input_part.wgsl's
// fused GEMVs). The residual stream is one buffer of slots (StreamSlots: element offsets), so
// that the three vectors take one binding: WebGPU takes no buffer bound writable and read-only in
// one dispatch. The kernel declares `stream` (read_write array<f32>), `norm_weight` (read
// array<f32>, [K]) and `slots` (uniform StreamSlots), and WG (a multiple of 4); a norm-total part
// before this file (decode_norm_total_*_part.wgsl) gives `norm_total`, the workgroup's sum, and
// an addend part (decode_addend_*_part.wgsl) `second_addend`, the second addend's values: the
// stream's slot b, or the sum of the o projection's shares.
struct StreamSlots {
  a: u32,    // the first addend's first element
  b: u32,    // the second addend's
  sum: u32,  // where h goes
  unused: u32,
}

// Groups of 8 an invocation keeps: the row's K values are at most 8 · WG · MAX_NORM_TRIPS.
const MAX_NORM_TRIPS = 4u;

// Invocation lid makes the groups lid, lid + WG, .. (`trips` of them, ≤ MAX_NORM_TRIPS) of the
// row of `k`, group `item` the values 8 · item .. + 7 (group item % 4 of block item / 4); h goes
// to stream[sum ..] where `writes_sum`. Every load is issued before h's stores (the slots share
// one buffer, so a store between them may order the later loads after it). Every workgroup that
// calls it computes the same values in the same order. Call from uniform control flow.
fn add_norm_quantize(lid: u32, k: u32, trips: u32, eps: f32, writes_sum: bool) {
  var kept: array<array<f32, 8>, MAX_NORM_TRIPS>;
  var weights: array<array<f32, 8>, MAX_NORM_TRIPS>;
  for (var t = 0u; t < trips; t++) {
    let first = 8u * (lid + t * WG);
    for (var i = 0u; i < 8u; i++) {
      let at = first + i;
      kept[t][i] = 0.0;
      weights[t][i] = 0.0;
      if (at < k) {
        kept[t][i] = stream[slots.a + at];
        weights[t][i] = norm_weight[at];
      }
    }
    let second = second_addend(first, k);
    for (var i = 0u; i < 8u; i++) {
      kept[t][i] += second[i];
    }
  }
  var squares = 0.0;
  for (var t = 0u; t < trips; t++) {
    let first = 8u * (lid + t * WG);
    for (var i = 0u; i < 8u; i++) {
      squares += kept[t][i] * kept[t][i];
      if (writes_sum && first + i < k) {
        stream[slots.sum + first + i] = kept[t][i];
      }
    }
  }
  let inverse_rms = inverseSqrt(norm_total(squares, lid) / f32(k) + eps);
  let groups = 4u * ((k + 31u) / 32u);
  for (var t = 0u; t < trips; t++) {
    var values: array<f32, 8>;
    for (var i = 0u; i < 8u; i++) {
      values[i] = kept[t][i] * inverse_rms * weights[t][i];
    }
    let item = lid + t * WG;
    quantize_group(values, item, lid, item < groups);
  }
}
