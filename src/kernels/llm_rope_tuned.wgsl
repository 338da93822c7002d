// RoPE, tuned, in place on q and k in one dispatch. A thread takes one vec4 (two adjacent
// pairs) of one position in HPT heads of the combined list [q heads …, k heads …]: it computes
// the two angles pos · inv_freq once (frequencies precomputed on the host, so no pow) and their
// sin and cos once, then rotates the vec4 of each of its heads: HPT times fewer transcendentals
// than one thread a pair, HPT independent 16-byte loads in flight, and no thread idles on k's
// fewer heads. Threads: T · ceil((q_heads + kv_heads) / HPT) · head_dim / 4, index order
// (position, head group, vec4), so a warp reads whole head rows. head_dim must be a multiple
// of 4. Pairs (2i, 2i + 1) turn by pos · inv_freq[i], pos = t + position_offset.
struct Params {
  seq_len: u32,
  q_heads: u32,
  kv_heads: u32,
  head_dim: u32,
  position_offset: u32,
}

override WG: u32 = 256u;  // threads a workgroup
override HPT: u32 = 4u;   // heads a thread rotates with one sin/cos pair

@group(0) @binding(0) var<storage, read_write> q: array<vec4<f32>>;  // [T, q_heads · head_dim]
@group(0) @binding(1) var<storage, read_write> k: array<vec4<f32>>;  // [T, kv_heads · head_dim]
@group(0) @binding(2) var<storage, read> inv_freq: array<vec2<f32>>;  // base^(−2i/d), by vec4
@group(0) @binding(3) var<uniform> params: Params;

// Turns the two pairs of x by the angles whose cosines and sines are c and s.
fn rotate(x: vec4<f32>, c: vec2<f32>, s: vec2<f32>) -> vec4<f32> {
  return vec4<f32>(x.x * c.x - x.y * s.x, x.x * s.x + x.y * c.x,
                   x.z * c.y - x.w * s.y, x.z * s.y + x.w * c.y);
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let idx = gid.x + gid.y * groups.x * WG;
  let dv = params.head_dim / 4u;
  let heads = params.q_heads + params.kv_heads;
  let head_groups = (heads + HPT - 1u) / HPT;
  if (idx >= params.seq_len * head_groups * dv) {
    return;
  }
  let c = idx % dv;
  let t = idx / dv / head_groups;
  let first = idx / dv % head_groups * HPT;
  let angle = f32(t + params.position_offset) * inv_freq[c];
  let cosine = cos(angle);
  let sine = sin(angle);
  for (var j = 0u; j < HPT; j++) {
    let h = first + j;
    if (h < params.q_heads) {
      let at = (t * params.q_heads + h) * dv + c;
      q[at] = rotate(q[at], cosine, sine);
    } else if (h < heads) {
      let at = (t * params.kv_heads + h - params.q_heads) * dv + c;
      k[at] = rotate(k[at], cosine, sine);
    }
  }
}
