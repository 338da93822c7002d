// Attention, baseline: seed 003 §7 exactly. One workgroup of 256 per (query position, query
// head), dispatched as (T, num_q_heads, 1); thread 0 does all the work while the other 255
// threads idle. GQA: kv_head = q_head / (num_q_heads / num_kv_heads). Causal: query t (absolute
// position t + position_offset) sees keys s ≤ t + position_offset. Scale 1 / sqrt(head_dim).
//
// Where the seed leaves the detail open, the plainest reading that works for any S: no scratch
// buffer and no fixed-size score array, so thread 0 makes two passes over the keys, computing
// each dot product twice: pass 1 finds the largest score; pass 2 accumulates exp(score − max)
// and exp(score − max) · V into the output row (in global memory), which it then divides by
// the sum.
struct Params {
  T: u32,                // query positions
  S: u32,                // key/value positions, the cache included
  num_q_heads: u32,
  num_kv_heads: u32,
  head_dim: u32,
  position_offset: u32,  // absolute position of query 0
}

@group(0) @binding(0) var<storage, read> Q: array<f32>;   // [T, num_q_heads · head_dim]
@group(0) @binding(1) var<storage, read> K: array<f32>;   // [S, num_kv_heads · head_dim]
@group(0) @binding(2) var<storage, read> V: array<f32>;   // [S, num_kv_heads · head_dim]
@group(0) @binding(3) var<storage, read_write> output: array<f32>;  // [T, num_q_heads · head_dim]
@group(0) @binding(4) var<uniform> params: Params;

// (q · k_s) / sqrt(head_dim) for the query row at q_base and the key row at k_base.
fn score(q_base: u32, k_base: u32, scale: f32) -> f32 {
  var dot = 0.0;
  for (var i = 0u; i < params.head_dim; i++) {
    dot += Q[q_base + i] * K[k_base + i];
  }
  return dot * scale;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let t = wid.x;
  let h = wid.y;
  if (lid != 0u || t >= params.T || h >= params.num_q_heads) {
    return;
  }
  let d = params.head_dim;
  let kv_head = h / (params.num_q_heads / params.num_kv_heads);
  let q_base = (t * params.num_q_heads + h) * d;
  let kv_stride = params.num_kv_heads * d;
  let scale = 1.0 / sqrt(f32(d));
  let keys = min(params.S, t + params.position_offset + 1u);  // the causal mask

  var max_score = -3.402823e38;
  for (var s = 0u; s < keys; s++) {
    max_score = max(max_score, score(q_base, s * kv_stride + kv_head * d, scale));
  }
  for (var i = 0u; i < d; i++) {
    output[q_base + i] = 0.0;
  }
  var sum = 0.0;
  for (var s = 0u; s < keys; s++) {
    let weight = exp(score(q_base, s * kv_stride + kv_head * d, scale) - max_score);
    sum += weight;
    for (var i = 0u; i < d; i++) {
      output[q_base + i] += weight * V[s * kv_stride + kv_head * d + i];
    }
  }
  for (var i = 0u; i < d; i++) {
    output[q_base + i] /= sum;
  }
}
