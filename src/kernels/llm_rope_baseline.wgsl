// RoPE, baseline: seed 003 §6 exactly, in place on q and k in one dispatch. One thread per
// (position, head, pair) over max(num_q_heads, num_kv_heads) heads; a thread whose head exists
// in q (or k) rotates that pair. Pairs are adjacent elements (2i, 2i + 1), turned by
// theta = pos · base^(−2i / head_dim), pos = t + position_offset, base passed as f32 bits.
// Dispatch: ceil(T · max(heads) · head_dim / 2 / 256) workgroups of 256 (a grid split into
// x × y continues the index row-major).
struct Params {
  seq_len: u32,
  num_q_heads: u32,
  num_kv_heads: u32,
  head_dim: u32,
  rope_base_bits: u32,   // f32 base reinterpreted as u32
  position_offset: u32,  // position of row 0
}

@group(0) @binding(0) var<storage, read_write> q: array<f32>;  // [T, num_q_heads · head_dim]
@group(0) @binding(1) var<storage, read_write> k: array<f32>;  // [T, num_kv_heads · head_dim]
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let idx = gid.x + gid.y * groups.x * 256u;
  let half_dim = params.head_dim / 2u;
  let heads = max(params.num_q_heads, params.num_kv_heads);
  if (idx >= params.seq_len * heads * half_dim) {
    return;
  }
  let t = idx / (heads * half_dim);
  let head = idx / half_dim % heads;
  let i = idx % half_dim;
  let pos = f32(t + params.position_offset);
  let theta = pos * pow(bitcast<f32>(params.rope_base_bits),
                        -2.0 * f32(i) / f32(params.head_dim));
  let c = cos(theta);
  let s = sin(theta);
  if (head < params.num_q_heads) {
    let at = (t * params.num_q_heads + head) * params.head_dim + 2u * i;
    let x0 = q[at];
    let x1 = q[at + 1u];
    q[at] = x0 * c - x1 * s;
    q[at + 1u] = x0 * s + x1 * c;
  }
  if (head < params.num_kv_heads) {
    let at = (t * params.num_kv_heads + head) * params.head_dim + 2u * i;
    let x0 = k[at];
    let x1 = k[at + 1u];
    k[at] = x0 * c - x1 * s;
    k[at + 1u] = x0 * s + x1 * c;
  }
}
