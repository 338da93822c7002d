// The decode step's fused q8 GEMVs make their own input (a part before
// llm_matmul_q4_tuned_gemv_q8.wgsl, in place of llm_gemv_q8_input_part.wgsl; after
// llm_quantize_block_workgroup_part.wgsl and llm_quantize_q8_part.wgsl): what
// decode_quantize_q8.wgsl's `norm` does in a dispatch of its own, every workgroup does
// for itself before its GEMV, one dependent dispatch fewer:
//   h = stream[a ..] + stream[b ..] (written to stream[sum ..] by workgroup (0, 0) alone),
//   y = RMSNorm(h) · norm_weight, quantized in blocks of 32 into workgroup memory.
// The residual stream is one buffer of slots (StreamSlots: element offsets), so that the three
// vectors take one storage binding. Each workgroup reads the K values, every workgroup the same
// and in the same order, so all of them quantize the same codes. K = K_COLS (fixed), at most
// 32 · WG · MAX_INPUT_TRIPS values; one activation row (M_ROWS = 1).
struct StreamSlots {
  a: u32,    // the first addend's first element
  b: u32,    // the second addend's
  sum: u32,  // where h goes
  unused: u32,
}

@group(0) @binding(13) var<storage, read_write> stream: array<f32>;
@group(0) @binding(14) var<storage, read> norm_weight: array<f32>;  // [K]
@group(0) @binding(15) var<uniform> slots: StreamSlots;

override NORM_EPS: f32 = 1e-6;
override INPUT_TRIPS: u32 = 1u;  // ceil(K / 8 / WG): the groups of 8 an invocation makes
const MAX_INPUT_TRIPS = 4u;

// What the quantizer part writes (its `codes` and `scale_sums`), here in the workgroup.
var<workgroup> codes: array<vec2<u32>, (K_COLS + 31u) / 32u * 4u>;
var<workgroup> scale_sums: array<vec2<f32>, (K_COLS + 31u) / 32u>;
var<workgroup> input_partials: array<f32, WG>;
var<workgroup> input_sums: array<f32, 16>;

// The sum of `v` over the workgroup: 16 invocations each add a 16th of the partials, then every
// invocation adds their 16 sums in the same order (two barriers). Call from uniform control flow.
fn input_total(v: f32, lid: u32) -> f32 {
  input_partials[lid] = v;
  workgroupBarrier();
  let share = (WG + 15u) / 16u;
  if (lid < 16u) {
    var sum = 0.0;
    for (var i = lid * share; i < min((lid + 1u) * share, WG); i++) {
      sum += input_partials[i];
    }
    input_sums[lid] = sum;
  }
  workgroupBarrier();
  var total = 0.0;
  for (var i = 0u; i < 16u; i++) {
    total += input_sums[i];
  }
  return total;
}

// Call from uniform control flow (every invocation of the workgroup), before the input is read.
// Every load is issued before the sum's stores: a store to the stream between them would order
// each later load after it (the slots share one buffer), a round trip each.
fn prepare_input(wid: vec3<u32>, lid: u32, k: u32) {
  var kept: array<array<f32, 8>, MAX_INPUT_TRIPS>;
  var weights: array<array<f32, 8>, MAX_INPUT_TRIPS>;
  for (var t = 0u; t < INPUT_TRIPS; t++) {
    let item = lid + t * WG;  // group item % 4 of block item / 4
    let first = (item / 4u) * 32u + (item % 4u) * 8u;
    for (var i = 0u; i < 8u; i++) {
      let at = first + i;
      kept[t][i] = 0.0;
      weights[t][i] = 0.0;
      if (at < k) {
        kept[t][i] = stream[slots.a + at] + stream[slots.b + at];
        weights[t][i] = norm_weight[at];
      }
    }
  }
  var squares = 0.0;
  for (var t = 0u; t < INPUT_TRIPS; t++) {
    let first = ((lid + t * WG) / 4u) * 32u + ((lid + t * WG) % 4u) * 8u;
    for (var i = 0u; i < 8u; i++) {
      squares += kept[t][i] * kept[t][i];
      if (wid.x == 0u && wid.y == 0u && first + i < k) {
        stream[slots.sum + first + i] = kept[t][i];
      }
    }
  }
  let inverse_rms = inverseSqrt(input_total(squares, lid) / f32(k) + NORM_EPS);
  let groups = 4u * ((k + 31u) / 32u);
  for (var t = 0u; t < INPUT_TRIPS; t++) {
    let item = lid + t * WG;
    var values: array<f32, 8>;
    for (var i = 0u; i < 8u; i++) {
      values[i] = kept[t][i] * inverse_rms * weights[t][i];
    }
    quantize_group(values, item, lid, item < groups);
  }
  workgroupBarrier();
}

fn input_words(i: u32) -> vec4<u32> {
  return vec4<u32>(codes[2u * i], codes[2u * i + 1u]);
}

fn input_scale_sum(b: u32) -> vec2<f32> {
  return scale_sums[b];
}
