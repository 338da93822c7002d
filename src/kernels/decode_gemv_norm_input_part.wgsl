// The decode step's fused q8 GEMVs make their own input (a part before
// llm_matmul_q4_tuned_gemv_q8.wgsl, in place of llm_gemv_q8_input_part.wgsl; after
// llm_quantize_q8_part.wgsl and decode_add_norm_part.wgsl): what decode_quantize_q8.wgsl's `norm`
// does in a dispatch of its own, every workgroup does for itself before its GEMV, one dependent
// dispatch fewer: the residual add, RMSNorm · weight, quantized into workgroup memory, h written
// to the stream by workgroup (0, 0) alone. RMSNorm's scale is deferred (add_weight_quantize):
// h · weight is quantized, and each block's d is scaled by 1 / rms as the GEMV reads it. Every
// workgroup reads the K values in the same order, so all of them quantize the same codes.
// K = K_COLS (fixed), at most 8 · WG · MAX_NORM_TRIPS values; one activation row (M_ROWS = 1).
@group(0) @binding(13) var<storage, read_write> stream: array<f32>;
@group(0) @binding(14) var<storage, read> norm_weight: array<f32>;  // [K]
@group(0) @binding(15) var<uniform> slots: StreamSlots;

override NORM_EPS: f32 = 1e-6;
override INPUT_TRIPS: u32 = 1u;  // ceil(K / 8 / WG): the groups of 8 an invocation makes

// What the quantizer part writes (its `codes` and `scale_sums`), here in the workgroup.
var<workgroup> codes: array<vec2<u32>, (K_COLS + 31u) / 32u * 4u>;
var<workgroup> scale_sums: array<vec2<f32>, (K_COLS + 31u) / 32u>;

// 1 / rms of the row, once prepare_input has returned.
var<private> input_inverse_rms: f32;

// Call from uniform control flow (every invocation of the workgroup), before the input is read.
fn prepare_input(wid: vec3<u32>, lid: u32, k: u32) {
  add_weight_quantize(lid, k, INPUT_TRIPS, wid.x == 0u && wid.y == 0u);
  workgroupBarrier();
  input_inverse_rms = inverseSqrt(norm_published_total() / f32(k) + NORM_EPS);
}

fn input_words(i: u32) -> vec4<u32> {
  return vec4<u32>(codes[2u * i], codes[2u * i + 1u]);
}

// Block b's (d, Σq), d scaled by 1 / rms (the norm's scale, deferred: add_weight_quantize).
fn input_scale_sum(b: u32) -> vec2<f32> {
  let ds = scale_sums[b];
  return vec2<f32>(ds.x * input_inverse_rms, ds.y);
}
