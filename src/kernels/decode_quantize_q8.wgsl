// A decode step's int8 activations made by the op that produces them (one row, M = 1), so that
// the q8 GEMV after it needs no quantizer dispatch of its own: the values are computed, then
// quantized in blocks of 32 as llm_quantize_q8_part.wgsl does (four invocations a block, one a
// group of 8 values). Composed after a block part (llm_quantize_block_*_part) and
// llm_quantize_q8_part. Entry points:
// - `norm`: h = a + b, y = RMSNorm(h) · weight of one row of K (the decode step's norms after
//   its residual adds), a, b and h slots of the residual stream (one buffer, one binding: WebGPU
//   takes no buffer bound writable and read-only in one dispatch), h written by the invocation
//   that quantizes it. One workgroup holds the row, each value loaded once and kept in
//   registers. Dispatch 1 workgroup.
// - `silu_mul`: y = silu(gate) · up of K values (gate_up holds the K gate values, then K up).
//   Dispatch ceil(4 · ceil(K / 32) / WG) workgroups.
// WG a multiple of 4.
struct Params {
  K: u32,
  eps: f32,
}

// norm: where a, b and h start in the stream (decode_gemv_norm_input_part.wgsl's StreamSlots).
struct StreamSlots {
  a: u32,
  b: u32,
  sum: u32,
  unused: u32,
}

override WG: u32 = 256u;
override TRIPS: u32 = 1u;    // norm: ceil(4 · ceil(K / 32) / WG), at most MAX_GROUPS

@group(0) @binding(0) var<storage, read> a: array<f32>;               // silu_mul: gate_up [2K]
@group(0) @binding(1) var<storage, read_write> codes: array<vec2<u32>>;  // [4 · ceil(K / 32)]
@group(0) @binding(2) var<storage, read_write> scale_sums: array<vec2<f32>>;  // [ceil(K / 32)]
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(4) var<storage, read> weight: array<f32>;          // norm: [K]
@group(0) @binding(5) var<storage, read_write> stream: array<f32>;    // norm: the residual stream
@group(0) @binding(6) var<uniform> slots: StreamSlots;               // norm

// norm: the groups of 8 an invocation keeps, TRIPS ≤ MAX_GROUPS (one workgroup holds the row,
// each value loaded once).
const MAX_GROUPS = 4u;
var<private> kept: array<array<f32, 8>, MAX_GROUPS>;
var<workgroup> partial_squares: array<f32, WG>;
var<workgroup> partial_sums: array<f32, 16>;

// The sum of `v` over the workgroup: 16 invocations each add a 16th of the slots, then every
// invocation adds their 16 sums (two barriers). Call from uniform control flow.
fn workgroup_sum(v: f32, lid: u32) -> f32 {
  partial_squares[lid] = v;
  workgroupBarrier();
  let share = (WG + 15u) / 16u;
  if (lid < 16u) {
    var sum = 0.0;
    for (var i = lid * share; i < min((lid + 1u) * share, WG); i++) {
      sum += partial_squares[i];
    }
    partial_sums[lid] = sum;
  }
  workgroupBarrier();
  var total = 0.0;
  for (var i = 0u; i < 16u; i++) {
    total += partial_sums[i];
  }
  return total;
}

// Invocation `item`'s group of 8 values starts at 8 · item; `k` values in all.
fn group_first(item: u32) -> u32 {
  return (item / 4u) * 32u + (item % 4u) * 8u;
}

// One workgroup (dispatch 1): invocation lid keeps the groups lid, lid + WG, .. of the row.
// Every load is issued before h's stores: a store to the stream between them would order each
// later load after it (the slots share one buffer), a round trip each.
@compute @workgroup_size(WG)
fn norm(@builtin(local_invocation_index) lid: u32) {
  let k = params.K;
  let groups = 4u * ((k + 31u) / 32u);
  var weights: array<array<f32, 8>, MAX_GROUPS>;
  for (var t = 0u; t < TRIPS; t++) {
    let first = group_first(lid + t * WG);
    for (var i = 0u; i < 8u; i++) {
      let at = first + i;
      kept[t][i] = 0.0;
      weights[t][i] = 0.0;
      if (at < k) {
        kept[t][i] = stream[slots.a + at] + stream[slots.b + at];
        weights[t][i] = weight[at];
      }
    }
  }
  var squares = 0.0;
  for (var t = 0u; t < TRIPS; t++) {
    let first = group_first(lid + t * WG);
    for (var i = 0u; i < 8u; i++) {
      squares += kept[t][i] * kept[t][i];
      if (first + i < k) {
        stream[slots.sum + first + i] = kept[t][i];
      }
    }
  }
  let inverse_rms = inverseSqrt(workgroup_sum(squares, lid) / f32(k) + params.eps);
  for (var t = 0u; t < TRIPS; t++) {
    var values: array<f32, 8>;
    for (var i = 0u; i < 8u; i++) {
      values[i] = kept[t][i] * inverse_rms * weights[t][i];
    }
    let item = lid + t * WG;
    quantize_group(values, item, lid, item < groups);
  }
}

@compute @workgroup_size(WG)
fn silu_mul(@builtin(global_invocation_id) gid: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let k = params.K;
  let item = gid.x;
  let first = group_first(item);
  var values: array<f32, 8>;
  for (var i = 0u; i < 8u; i++) {
    let at = first + i;
    if (at < k) {
      let gate = a[at];
      values[i] = gate / (1.0 + exp(-gate)) * a[k + at];
    }
  }
  quantize_group(values, item, lid, first < k);
}
