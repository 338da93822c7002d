// A variant of llm_attention_decode_tile_part (decode attention's split), measured on the H200
// for issue 16 (docs/results/archive/NOTEBOOK.md) through REFRACT_KERNEL_DIR, not shipped: one subgroup a split
// and every value in registers — no workgroup memory but the probabilities' hand-off, no
// reduction through workgroup memory. Only for what it is run at: head_dim 64 (DV 16), GROUP
// <= 8, subgroups of 32 (the whole workgroup: --set wg=32), --set keys=16, the shape constants
// set (SPLIT_KV_HEADS, SPLIT_KEYS: the op's v_tile 1). Writes llm_attention_decode's split-minor
// partials.
// Lane (h, c) = (lane / 16, lane % 16) takes vec4 column c of the split's keys h · 8 + i (i < 8):
// - loads: its 8 K and 8 V words (a half-subgroup reads a key row's 256 bytes) and its column
//   of the 8 (GROUP, zero past it) queries, all issued first;
// - scores: the 8 keys' dots with the 8 heads' column c, 16 vec4 (heads 0-3, 4-7 a key), summed
//   over the 16 columns by a reduce-scatter butterfly (xor 8, 4, 2, 1: 60 shuffles), after
//   which lane (h, c) holds key h · 8 + c / 2's scores for heads 4 (c % 2) .. + 3;
// - softmax: the max and the sum of exp2 over the lanes of its head quad (xor 2, 4, 8, 16);
// - weighing: each lane's probabilities through workgroup memory (one barrier), then
//   Σ_i p[g][i] · V[i][c] for the 8 heads over the half's keys; the halves exchange heads 0-3
//   and 4-7 (xor 16), and lane (h, c) stores heads 4h .. 4h + 3 of column c.
override KEYS: u32 = 16u;
override K_TILE: u32 = 0u;
override SPLIT_KV_HEADS: u32 = 0u;
override SPLIT_KEYS: u32 = 0u;

var<workgroup> tp: array<vec4<f32>, 32u>;  // lane 16h + 2i + b: key h · 8 + i's heads 4b .. 4b + 3

// One reduce-scatter step: a lane with `upper` clear keeps x and sends y, else keeps y and sends
// x; what it keeps plus what its partner (lane ^ mask) sent.
fn fold_step(x: vec4<f32>, y: vec4<f32>, upper: bool, mask: u32) -> vec4<f32> {
  let send = select(y, x, upper);
  let keep = select(x, y, upper);
  return keep + subgroupShuffleXor(send, mask);
}

@compute @workgroup_size(WG)
fn split_tile(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(subgroup_invocation_id) lane: u32) {
  let z = wid.x;
  let kv = wid.y;
  let row_stride = SPLIT_KV_HEADS * DV;
  let first = z * SPLIT_KEYS;
  let last = arrayLength(&k) / row_stride - 1u;
  let h = lane / 16u;
  let c = lane % 16u;
  let column = kv * DV + c;

  let r0 = min(first + h * 8u + 0u, last) * row_stride + column;
  let r1 = min(first + h * 8u + 1u, last) * row_stride + column;
  let r2 = min(first + h * 8u + 2u, last) * row_stride + column;
  let r3 = min(first + h * 8u + 3u, last) * row_stride + column;
  let r4 = min(first + h * 8u + 4u, last) * row_stride + column;
  let r5 = min(first + h * 8u + 5u, last) * row_stride + column;
  let r6 = min(first + h * 8u + 6u, last) * row_stride + column;
  let r7 = min(first + h * 8u + 7u, last) * row_stride + column;
  let k0 = k[r0];
  let k1 = k[r1];
  let k2 = k[r2];
  let k3 = k[r3];
  let k4 = k[r4];
  let k5 = k[r5];
  let k6 = k[r6];
  let k7 = k[r7];
  let v0_loaded = v[r0];
  let v1_loaded = v[r1];
  let v2_loaded = v[r2];
  let v3_loaded = v[r3];
  let v4_loaded = v[r4];
  let v5_loaded = v[r5];
  let v6_loaded = v[r6];
  let v7_loaded = v[r7];
  let qb = kv * GROUP * DV + c;
  let scale = params.scale_log2;
  var q0 = vec4<f32>(0.0);
  if (0u < GROUP) { q0 = q[qb + 0u * DV] * scale; }
  var q1 = vec4<f32>(0.0);
  if (1u < GROUP) { q1 = q[qb + 1u * DV] * scale; }
  var q2 = vec4<f32>(0.0);
  if (2u < GROUP) { q2 = q[qb + 2u * DV] * scale; }
  var q3 = vec4<f32>(0.0);
  if (3u < GROUP) { q3 = q[qb + 3u * DV] * scale; }
  var q4 = vec4<f32>(0.0);
  if (4u < GROUP) { q4 = q[qb + 4u * DV] * scale; }
  var q5 = vec4<f32>(0.0);
  if (5u < GROUP) { q5 = q[qb + 5u * DV] * scale; }
  var q6 = vec4<f32>(0.0);
  if (6u < GROUP) { q6 = q[qb + 6u * DV] * scale; }
  var q7 = vec4<f32>(0.0);
  if (7u < GROUP) { q7 = q[qb + 7u * DV] * scale; }
  let keys = split_keys(z).keys;

  // Scores: key i's column-c dots, heads 0-3 (a) and 4-7 (b).
  let a0 = vec4<f32>(dot(q0, k0), dot(q1, k0), dot(q2, k0), dot(q3, k0));
  let b0 = vec4<f32>(dot(q4, k0), dot(q5, k0), dot(q6, k0), dot(q7, k0));
  let a1 = vec4<f32>(dot(q0, k1), dot(q1, k1), dot(q2, k1), dot(q3, k1));
  let b1 = vec4<f32>(dot(q4, k1), dot(q5, k1), dot(q6, k1), dot(q7, k1));
  let a2 = vec4<f32>(dot(q0, k2), dot(q1, k2), dot(q2, k2), dot(q3, k2));
  let b2 = vec4<f32>(dot(q4, k2), dot(q5, k2), dot(q6, k2), dot(q7, k2));
  let a3 = vec4<f32>(dot(q0, k3), dot(q1, k3), dot(q2, k3), dot(q3, k3));
  let b3 = vec4<f32>(dot(q4, k3), dot(q5, k3), dot(q6, k3), dot(q7, k3));
  let a4 = vec4<f32>(dot(q0, k4), dot(q1, k4), dot(q2, k4), dot(q3, k4));
  let b4 = vec4<f32>(dot(q4, k4), dot(q5, k4), dot(q6, k4), dot(q7, k4));
  let a5 = vec4<f32>(dot(q0, k5), dot(q1, k5), dot(q2, k5), dot(q3, k5));
  let b5 = vec4<f32>(dot(q4, k5), dot(q5, k5), dot(q6, k5), dot(q7, k5));
  let a6 = vec4<f32>(dot(q0, k6), dot(q1, k6), dot(q2, k6), dot(q3, k6));
  let b6 = vec4<f32>(dot(q4, k6), dot(q5, k6), dot(q6, k6), dot(q7, k6));
  let a7 = vec4<f32>(dot(q0, k7), dot(q1, k7), dot(q2, k7), dot(q3, k7));
  let b7 = vec4<f32>(dot(q4, k7), dot(q5, k7), dot(q6, k7), dot(q7, k7));
  // Reduce-scatter over the 16 columns: xor 8 halves the keys (i and i + 4), xor 4 (i and
  // i + 2), xor 2 (i and i + 1), xor 1 the head quads.
  let u8 = (c & 8u) != 0u;
  let u4 = (c & 4u) != 0u;
  let u2 = (c & 2u) != 0u;
  let u1 = (c & 1u) != 0u;
  let a0_8 = fold_step(a0, a4, u8, 8u);
  let b0_8 = fold_step(b0, b4, u8, 8u);
  let a1_8 = fold_step(a1, a5, u8, 8u);
  let b1_8 = fold_step(b1, b5, u8, 8u);
  let a2_8 = fold_step(a2, a6, u8, 8u);
  let b2_8 = fold_step(b2, b6, u8, 8u);
  let a3_8 = fold_step(a3, a7, u8, 8u);
  let b3_8 = fold_step(b3, b7, u8, 8u);
  let a0_4 = fold_step(a0_8, a2_8, u4, 4u);
  let b0_4 = fold_step(b0_8, b2_8, u4, 4u);
  let a1_4 = fold_step(a1_8, a3_8, u4, 4u);
  let b1_4 = fold_step(b1_8, b3_8, u4, 4u);
  let a_2 = fold_step(a0_4, a1_4, u2, 2u);
  let b_2 = fold_step(b0_4, b1_4, u2, 2u);
  let scored = fold_step(a_2, b_2, u1, 1u);  // key h · 8 + c / 2, heads 4 (c % 2) ..
  let held = h * 8u + c / 2u < keys;
  let s = select(vec4<f32>(kNegative), scored, held);

  // Softmax over the split's 16 keys, a head quad's lanes (same c % 2): xor 2, 4, 8, 16.
  var m = s;
  m = max(m, subgroupShuffleXor(m, 2u));
  m = max(m, subgroupShuffleXor(m, 4u));
  m = max(m, subgroupShuffleXor(m, 8u));
  m = max(m, subgroupShuffleXor(m, 16u));
  let p = select(vec4<f32>(0.0), exp2(s - m), held);
  var l = p;
  l += subgroupShuffleXor(l, 2u);
  l += subgroupShuffleXor(l, 4u);
  l += subgroupShuffleXor(l, 8u);
  l += subgroupShuffleXor(l, 16u);
  tp[lane] = p;
  workgroupBarrier();  // tp written

  // Weighing: the half's keys i (V rows past the split zeroed), every head.
  var o0 = vec4<f32>(0.0);
  var o1 = vec4<f32>(0.0);
  var o2 = vec4<f32>(0.0);
  var o3 = vec4<f32>(0.0);
  var o4 = vec4<f32>(0.0);
  var o5 = vec4<f32>(0.0);
  var o6 = vec4<f32>(0.0);
  var o7 = vec4<f32>(0.0);
  {
    let value = select(vec4<f32>(0.0), v0_loaded, h * 8u + 0u < keys);
    let pa = tp[h * 16u + 0u];
    let pb = tp[h * 16u + 1u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  {
    let value = select(vec4<f32>(0.0), v1_loaded, h * 8u + 1u < keys);
    let pa = tp[h * 16u + 2u];
    let pb = tp[h * 16u + 3u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  {
    let value = select(vec4<f32>(0.0), v2_loaded, h * 8u + 2u < keys);
    let pa = tp[h * 16u + 4u];
    let pb = tp[h * 16u + 5u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  {
    let value = select(vec4<f32>(0.0), v3_loaded, h * 8u + 3u < keys);
    let pa = tp[h * 16u + 6u];
    let pb = tp[h * 16u + 7u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  {
    let value = select(vec4<f32>(0.0), v4_loaded, h * 8u + 4u < keys);
    let pa = tp[h * 16u + 8u];
    let pb = tp[h * 16u + 9u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  {
    let value = select(vec4<f32>(0.0), v5_loaded, h * 8u + 5u < keys);
    let pa = tp[h * 16u + 10u];
    let pb = tp[h * 16u + 11u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  {
    let value = select(vec4<f32>(0.0), v6_loaded, h * 8u + 6u < keys);
    let pa = tp[h * 16u + 12u];
    let pb = tp[h * 16u + 13u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  {
    let value = select(vec4<f32>(0.0), v7_loaded, h * 8u + 7u < keys);
    let pa = tp[h * 16u + 14u];
    let pb = tp[h * 16u + 15u];
    o0 += pa.x * value;
    o1 += pa.y * value;
    o2 += pa.z * value;
    o3 += pa.w * value;
    o4 += pb.x * value;
    o5 += pb.y * value;
    o6 += pb.z * value;
    o7 += pb.w * value;
  }
  // The halves' sums: half 0 keeps heads 0-3, half 1 heads 4-7.
  let upper = h == 1u;
  let t0 = fold_step(o0, o4, upper, 16u);
  let t1 = fold_step(o1, o5, upper, 16u);
  let t2 = fold_step(o2, o6, upper, 16u);
  let t3 = fold_step(o3, o7, upper, 16u);
  let splits = params.splits;
  let g0 = kv * GROUP + 4u * h;  // this lane's first head (query head index)
  let base = 4u * h;             // its first head within the group
  if (base + 0u < GROUP) { part_o[((g0 + 0u) * DV + c) * splits + z] = t0; }
  if (base + 1u < GROUP) { part_o[((g0 + 1u) * DV + c) * splits + z] = t1; }
  if (base + 2u < GROUP) { part_o[((g0 + 2u) * DV + c) * splits + z] = t2; }
  if (base + 3u < GROUP) { part_o[((g0 + 3u) * DV + c) * splits + z] = t3; }
  // (max, sum): lanes 0 and 1 hold head quads 0 and 1.
  if (lane < 2u) {
    if (4u * lane + 0u < GROUP) {
      part_ml[(kv * GROUP + 4u * lane + 0u) * splits + z] = vec2<f32>(m.x, l.x);
    }
    if (4u * lane + 1u < GROUP) {
      part_ml[(kv * GROUP + 4u * lane + 1u) * splits + z] = vec2<f32>(m.y, l.y);
    }
    if (4u * lane + 2u < GROUP) {
      part_ml[(kv * GROUP + 4u * lane + 2u) * splits + z] = vec2<f32>(m.z, l.z);
    }
    if (4u * lane + 3u < GROUP) {
      part_ml[(kv * GROUP + 4u * lane + 3u) * splits + z] = vec2<f32>(m.w, l.w);
    }
  }
}
