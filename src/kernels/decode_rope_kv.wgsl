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
  let width = slots * params.head_dim;
  let column = s * params.head_dim + i;  // element i of slot s in a packed row
  let a = qkv[t * width + column] + bias[column];
  let b = qkv[t * width + column + half] + bias[column + half];
  let position = step.position + t;
  let kv_width = params.kv_heads * params.head_dim;
  if (s >= params.heads + params.kv_heads) {  // a value head: copied
    let at = position * kv_width + (s - params.heads - params.kv_heads) * params.head_dim + i;
    v_cache[at] = a;
    v_cache[at + half] = b;
    return;
  }
  let angle = f32(position) * inv_freq[i];
  let c = cos(angle);
  let n = sin(angle);
  let ra = a * c - b * n;
  let rb = b * c + a * n;
  if (s < params.heads) {
    let at = t * params.heads * params.head_dim + s * params.head_dim + i;
    q_out[at] = ra;
    q_out[at + half] = rb;
  } else {
    let at = position * kv_width + (s - params.heads) * params.head_dim + i;
    k_cache[at] = ra;
    k_cache[at + half] = rb;
  }
}
