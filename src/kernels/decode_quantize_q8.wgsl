// A decode step's int8 activations made by the op that produces them (one row, M = 1), so that
// the q8 GEMV after it needs no quantizer dispatch of its own: the values are computed, then
// quantized in blocks of 32 as llm_quantize_q8_part.wgsl does (four invocations a block, one a
// group of 8 values). Composed after a block part (llm_quantize_block_*_part),
// llm_quantize_q8_part and decode_add_norm_part. Entry points:
// - `norm`: h = a + b, y = RMSNorm(h) · weight of one row of K (the decode step's norms after
//   its residual adds; decode_add_norm_part.wgsl), h written to the stream. One workgroup holds
//   the row, each value loaded once and kept in registers. Dispatch 1 workgroup.
// - `silu_mul`: y = silu(gate) · up of K values (gate_up holds the K gate values, then K up).
//   Dispatch ceil(4 · ceil(K / 32) / WG) workgroups.
// WG a multiple of 4.
struct Params {
  K: u32,
  eps: f32,
}

override WG: u32 = 256u;
override TRIPS: u32 = 1u;    // norm: ceil(4 · ceil(K / 32) / WG), at most MAX_NORM_TRIPS

@group(0) @binding(0) var<storage, read> a: array<f32>;               // silu_mul: gate_up [2K]
@group(0) @binding(1) var<storage, read_write> codes: array<vec2<u32>>;  // [4 · ceil(K / 32)]
@group(0) @binding(2) var<storage, read_write> scale_sums: array<vec2<f32>>;  // [ceil(K / 32)]
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(4) var<storage, read> norm_weight: array<f32>;     // norm: [K]
@group(0) @binding(5) var<storage, read_write> stream: array<f32>;    // norm: the residual stream
@group(0) @binding(6) var<uniform> slots: StreamSlots;               // norm

// One workgroup (dispatch 1): invocation lid keeps the groups lid, lid + WG, .. of the row.
@compute @workgroup_size(WG)
fn norm(@builtin(local_invocation_index) lid: u32) {
  add_norm_quantize(lid, params.K, TRIPS, params.eps, true);
}

@compute @workgroup_size(WG)
fn silu_mul(@builtin(global_invocation_id) gid: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let k = params.K;
  let item = gid.x;
  let first = 8u * item;  // group item % 4 of block item / 4
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
