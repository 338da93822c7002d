// The decode step's residual add and RMSNorm of one row, quantized (a part after
// llm_quantize_q8_part.wgsl): h = stream[a ..] + the second addend, y = RMSNorm(h) · norm_weight,
// quantized in blocks of 32 into the kernel's `codes` and `scale_sums` (storage for
// decode_quantize_q8.wgsl's `norm`, workgroup memory for decode_gemv_norm_input_part.wgsl's
// fused GEMVs). The residual stream is one buffer of slots (StreamSlots: element offsets), so
// that the three vectors take one binding: WebGPU takes no buffer bound writable and read-only in
// one dispatch. The kernel declares `stream` (read_write array<f32>), `norm_weight` (read
// array<f32>, [K]) and `slots` (uniform StreamSlots), and WG (a multiple of 4); a norm-total part
// before this file (decode_norm_total_*_part.wgsl) gives `norm_total`, the workgroup's sum (and
// it in halves, `norm_publish` and `norm_published_total`), and an addend part
// (decode_addend_*_part.wgsl) `second_addend`, the second addend's values: the stream's slot b,
// or the sum of the o projection's shares.
struct StreamSlots {
  a: u32,    // the first addend's first element
  b: u32,    // the second addend's
  sum: u32,  // where h goes
  unused: u32,
}

// Groups of 8 an invocation keeps: the row's K values are at most 8 · WG · MAX_NORM_TRIPS.
const MAX_NORM_TRIPS = 4u;

// The invocation's groups of h and of the norm's weight (add_residual's), held in registers:
// indexed only through loops over `trips`, a pipeline constant at every caller.
var<private> residual: array<array<f32, 8>, MAX_NORM_TRIPS>;
var<private> residual_weight: array<array<f32, 8>, MAX_NORM_TRIPS>;

// Invocation lid makes the groups lid, lid + WG, .. (`trips` of them, ≤ MAX_NORM_TRIPS) of the
// row of `k`, group `item` the values 8 · item .. + 7 (group item % 4 of block item / 4): h into
// `residual`, the weight into `residual_weight`, h to stream[sum ..] where `writes_sum`; returns
// the groups' sum of h². Every load is issued before h's stores (the slots share one buffer, so a
// store between them may order the later loads after it).
fn add_residual(lid: u32, k: u32, trips: u32, writes_sum: bool) -> f32 {
  for (var t = 0u; t < trips; t++) {
    let first = 8u * (lid + t * WG);
    for (var i = 0u; i < 8u; i++) {
      let at = first + i;
      residual[t][i] = 0.0;
      residual_weight[t][i] = 0.0;
      if (at < k) {
        residual[t][i] = stream[slots.a + at];
        residual_weight[t][i] = norm_weight[at];
      }
    }
    let second = second_addend(first, k);
    for (var i = 0u; i < 8u; i++) {
      residual[t][i] += second[i];
    }
  }
  var squares = 0.0;
  for (var t = 0u; t < trips; t++) {
    let first = 8u * (lid + t * WG);
    for (var i = 0u; i < 8u; i++) {
      squares += residual[t][i] * residual[t][i];
      if (writes_sum && first + i < k) {
        stream[slots.sum + first + i] = residual[t][i];
      }
    }
  }
  return squares;
}

// Quantizes the invocation's groups of h · scale · weight. Call from uniform control flow.
fn quantize_residual(lid: u32, k: u32, trips: u32, scale: f32) {
  let groups = 4u * ((k + 31u) / 32u);
  for (var t = 0u; t < trips; t++) {
    var values: array<f32, 8>;
    for (var i = 0u; i < 8u; i++) {
      values[i] = residual[t][i] * scale * residual_weight[t][i];
    }
    let item = lid + t * WG;
    quantize_group(values, item, lid, item < groups);
  }
}

// y = RMSNorm(h) · weight quantized, each block's d as the CPU model's. Every workgroup that
// calls it computes the same values in the same order. Call from uniform control flow.
fn add_norm_quantize(lid: u32, k: u32, trips: u32, eps: f32, writes_sum: bool) {
  let squares = add_residual(lid, k, trips, writes_sum);
  quantize_residual(lid, k, trips, inverseSqrt(norm_total(squares, lid) / f32(k) + eps));
}

// The same with RMSNorm's scale deferred: h · weight quantized as it is, so that the quantizer
// does not wait on the workgroup's sum (a block's codes are the same when all its values are
// scaled by one positive factor, up to f32 rounding at a tie; its d scales by the factor). The
// sum of h² is published to the norm-total part: after a barrier the caller takes,
// inverseSqrt(norm_published_total() / k + eps) is 1 / rms, by which the caller multiplies each
// block's d. Measured against add_norm_quantize in the fused GEMVs: Qwen2.5-0.5B's step
// 1.5–2.0 % faster, Llama-3.2-1B's 0.6–1.2 % (H100, 2026-12-07, two calls,
// experiments/deferred_norm). Call from uniform control flow.
fn add_weight_quantize(lid: u32, k: u32, trips: u32, writes_sum: bool) {
  norm_publish(add_residual(lid, k, trips, writes_sum), lid);
  quantize_residual(lid, k, trips, 1.0);
}
