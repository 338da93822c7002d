// A decode step's attention inputs from its packed q/k/v projection: for each of T rows (row t
// at position step.position + t) the bias is added, q and k are rotated by RoPE and k and v are
// appended to the layer's cache at the row's position; q goes to q_out.
// RoPE pairs element i of a head with element i + d/2 ("rotate half", as Hugging Face's Llama
// and Qwen2 do): x'[i] = x[i] cos θ − x[i + d/2] sin θ, x'[i + d/2] = x[i + d/2] cos θ + x[i] sin θ,
// θ = position · inv_freq[i] (the table holds Llama 3's rescaling where the model has it).
// Thread (t, head slot s, i < d/2) handles elements i and i + d/2 of slot s: slots are the
// query heads, then the KV heads' keys, then their values (copied, not rotated).
// Dispatch: ceil(T · (heads + 2 · kv_heads) · d / 2 / WG) workgroups of WG.
struct Params {
  rows: u32,      // T
  heads: u32,     // query heads
  kv_heads: u32,  // key/value heads
  head_dim: u32,  // d (even)
}

// Rewritten by the caller each step (a decode step's position grows by one).
struct Step {
  position: u32,  // row 0's position
  index: u32,     // the step's index in its run (read by argmax)
  padding0: u32,
  padding1: u32,
}

override WG: u32 = 256u;

@group(0) @binding(0) var<storage, read> qkv: array<f32>;             // [T, (heads + 2 kv) · d]
@group(0) @binding(1) var<storage, read> bias: array<f32>;            // [(heads + 2 kv) · d]
@group(0) @binding(2) var<storage, read> inv_freq: array<f32>;        // [d / 2]
@group(0) @binding(3) var<storage, read_write> q_out: array<f32>;     // [T, heads · d]
@group(0) @binding(4) var<storage, read_write> k_cache: array<f32>;   // [capacity, kv · d]
@group(0) @binding(5) var<storage, read_write> v_cache: array<f32>;   // [capacity, kv · d]
@group(0) @binding(6) var<uniform> params: Params;
@group(0) @binding(7) var<uniform> step: Step;

// The elements of a head that pair i (< d/2) rotates together: rotate half.
fn pair(i: u32, half: u32) -> vec2<u32> {
  return vec2<u32>(i, i + half);
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let half = params.head_dim / 2u;
  let slots = params.heads + 2u * params.kv_heads;
  let i = gid.x % half;
  let s = (gid.x / half) % slots;
  let t = gid.x / (half * slots);
  if (t >= params.rows) {
    return;
  }
  let e = pair(i, half);  // the pair's two elements within the head
  let width = slots * params.head_dim;
  let head = s * params.head_dim;  // slot s's first element in a packed row
  let a = qkv[t * width + head + e.x] + bias[head + e.x];
  let b = qkv[t * width + head + e.y] + bias[head + e.y];
  let position = step.position + t;
  let slot = position;  // the cache row the row's keys and values go to
  let kv_width = params.kv_heads * params.head_dim;
  if (s >= params.heads + params.kv_heads) {  // a value head: copied
    let at = slot * kv_width + (s - params.heads - params.kv_heads) * params.head_dim;
    v_cache[at + e.x] = a;
    v_cache[at + e.y] = b;
    return;
  }
  let angle = f32(position) * inv_freq[i];
  let c = cos(angle);
  let n = sin(angle);
  let ra = a * c - b * n;
  let rb = b * c + a * n;
  if (s < params.heads) {
    let at = t * params.heads * params.head_dim + head;
    q_out[at + e.x] = ra;
    q_out[at + e.y] = rb;
  } else {
    let at = slot * kv_width + (s - params.heads) * params.head_dim;
    k_cache[at + e.x] = ra;
    k_cache[at + e.y] = rb;
  }
}
