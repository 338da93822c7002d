// The decode step's q/k/v GEMV end (the last part of llm_matmul_q4_tuned_gemv_q8.wgsl's kernel
// in place of llm_gemv_q8_store_part.wgsl): what decode_rope_kv.wgsl does after the GEMV, done
// by the GEMV itself, one dispatch fewer a layer. The weights' rows come in RoPE pairs (the
// engine uploads them so: row 2j is element i of head slot s, row 2j + 1 element i + d/2, with
// j = s · d/2 + i), so a group of ROWS (even) rows holds whole pairs: each gets its bias, the
// query and key heads are rotated by RoPE at the step's position ("rotate half", as
// decode_rope_kv.wgsl states), and the pair lands in q_out or in the layer's key or value cache
// row at the step's position. One activation row (M_ROWS = 1).
struct RopeShape {
  heads: u32,     // query heads
  kv_heads: u32,  // key/value heads
  head_dim: u32,  // d (even)
  unused: u32,
}

// The step's values (decode_rope_kv.wgsl's Step; the GPU's advance moves them on).
struct Step {
  position: u32,
  index: u32,
  padding0: u32,
  padding1: u32,
}

@group(0) @binding(6) var<storage, read> bias: array<f32>;            // [(heads + 2 kv) · d]
@group(0) @binding(7) var<storage, read> inv_freq: array<f32>;        // [d / 2]
@group(0) @binding(8) var<storage, read_write> q_out: array<f32>;     // [heads · d]
@group(0) @binding(9) var<storage, read_write> k_cache: array<f32>;   // [capacity, kv · d]
@group(0) @binding(10) var<storage, read_write> v_cache: array<f32>;  // [capacity, kv · d]
@group(0) @binding(11) var<uniform> rope: RopeShape;
@group(0) @binding(12) var<uniform> step: Step;

fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  if (lid % TPR != 0u) {
    return;
  }
  let d = rope.head_dim;
  let half = d / 2u;
  let kv_width = rope.kv_heads * d;
  let position = step.position;
  for (var r = 0u; r + 1u < ROWS; r += 2u) {
    if (row0 + r >= n) {
      break;
    }
    let pair = (row0 + r) / 2u;
    let s = pair / half;  // the head slot: query heads, then keys, then values
    let i = pair % half;
    let head = s * d;
    let a = (*acc)[r] + bias[head + i];
    let b = (*acc)[r + 1u] + bias[head + i + half];
    if (s >= rope.heads + rope.kv_heads) {  // a value head: stored as it is
      let at = position * kv_width + (s - rope.heads - rope.kv_heads) * d;
      v_cache[at + i] = a;
      v_cache[at + i + half] = b;
      continue;
    }
    let angle = f32(position) * inv_freq[i];
    let c = cos(angle);
    let sn = sin(angle);
    let ra = a * c - b * sn;
    let rb = b * c + a * sn;
    if (s < rope.heads) {
      q_out[head + i] = ra;
      q_out[head + i + half] = rb;
    } else {
      let at = position * kv_width + (s - rope.heads) * d;
      k_cache[at + i] = ra;
      k_cache[at + i + half] = rb;
    }
  }
}
