// Decode attention (one query position), split across the cache: flash-decoding. Workgroup
// (z, kv) takes the keys [z · keys_per_split, (z + 1) · keys_per_split) — at most WG of them —
// of KV head kv for the GROUP (≤ 8) query heads that read it (heads kv · GROUP ..).
// Invocation t scores key first + t against the group's queries (its key row read from K, four
// loads issued before their dots), heads 0-3 and 4-7 as two vec4; the workgroup reduces each
// head's max and sum of exp2 (the composed reduction part: subgroups or a workgroup-memory tree);
// the probabilities, in workgroup memory, weight V: invocation t takes the vec4 column t % DV of
// every head over the keys t / DV, t / DV + LANES, .. (LANES = WG / DV key lanes), four V rows a
// step, so each V load feeds every head; the lanes' sums meet in workgroup memory.
// Every per-head value lives in a vec4 or an array indexed only by constants, so that it stays in
// registers whatever the driver unrolls.
// `split` writes each split's unnormalised outputs and (max, sum); `merge`, one workgroup a query
// head (its own WG), combines the splits: O = Σ_z o_z · 2^(m_z − M) / Σ_z l_z · 2^(m_z − M), M
// the largest m_z. Scores are in base 2 (q scaled by log2(e) / sqrt(d) on load). A causal row
// sees keys s ≤ position_offset. Every barrier is outside loops (lavapipe compiles a kernel with
// reductions inside a loop for minutes). Composed after a reduction part (llm_reduce_*_part).
// head_dim a multiple of 4, DV = head_dim / 4 ≤ WG.
struct Params {
  kv_len: u32,           // S
  heads: u32,            // query heads
  kv_heads: u32,         // key/value heads
  position_offset: u32,  // the query's absolute position
  causal: u32,           // 1: keys s ≤ position_offset only
  keys_per_split: u32,   // ≤ WG
  splits: u32,           // grid x
  scale_log2: f32,       // log2(e) / sqrt(head_dim)
}

override WG: u32 = 64u;        // invocations: the keys of a split at most
override HEAD_DIM: u32 = 64u;  // d
override GROUP: u32 = 7u;      // query heads a KV head, ≤ 8
override DV: u32 = HEAD_DIM / 4u;
override LANES: u32 = WG / DV;  // key lanes of the V pass (the merge: split lanes)
override LANE_STEPS: u32 = (WG + LANES - 1u) / LANES;  // keys a lane

const kNegative = -3.0e38;  // "no score yet": finite, so exp2(kNegative − m) is 0, never NaN

@group(0) @binding(0) var<storage, read> q: array<vec4<f32>>;  // [heads · d]
@group(0) @binding(1) var<storage, read> k: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(2) var<storage, read> v: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(3) var<storage, read_write> out: array<vec4<f32>>;  // [heads · d]
@group(0) @binding(4) var<uniform> params: Params;
// [splits, kv_heads, GROUP, d] unnormalised outputs and [splits, kv_heads, GROUP] (max, sum).
@group(0) @binding(5) var<storage, read_write> part_o: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> part_ml: array<vec2<f32>>;

var<workgroup> q_tile: array<vec4<f32>, 8u * DV>;  // head g's column c at g · DV + c; 0 past GROUP
var<workgroup> p_tile: array<vec4<f32>, 2u * WG>;  // key t's probabilities: heads 0-3, 4-7
var<workgroup> lane_sums: array<vec4<f32>, max((LANES - 1u) * 8u * DV, 1u)>;  // lanes 1 ..

fn head_of(lo: vec4<f32>, hi: vec4<f32>, g: u32) -> f32 {
  return select(hi[g % 4u], lo[g % 4u], g < 4u);
}

// The eight heads' dots of one key column with the queries' column c.
fn dots(c: u32, key: vec4<f32>) -> array<vec4<f32>, 2> {
  return array<vec4<f32>, 2>(
      vec4<f32>(dot(q_tile[c], key), dot(q_tile[DV + c], key), dot(q_tile[2u * DV + c], key),
                dot(q_tile[3u * DV + c], key)),
      vec4<f32>(dot(q_tile[4u * DV + c], key), dot(q_tile[5u * DV + c], key),
                dot(q_tile[6u * DV + c], key), dot(q_tile[7u * DV + c], key)));
}

// acc[g] += p_g · value for the eight heads, p the key's probabilities.
fn weigh(acc: ptr<function, array<vec4<f32>, 8>>, p_lo: vec4<f32>, p_hi: vec4<f32>,
         value: vec4<f32>) {
  (*acc)[0] += p_lo.x * value;
  (*acc)[1] += p_lo.y * value;
  (*acc)[2] += p_lo.z * value;
  (*acc)[3] += p_lo.w * value;
  (*acc)[4] += p_hi.x * value;
  (*acc)[5] += p_hi.y * value;
  (*acc)[6] += p_hi.z * value;
  (*acc)[7] += p_hi.w * value;
}

// The eight heads' sums of lane `lane` (≥ 1) at column c, added to acc.
fn add_lane(acc: ptr<function, array<vec4<f32>, 8>>, lane: u32, c: u32) {
  let base = (lane - 1u) * 8u * DV + c;
  (*acc)[0] += lane_sums[base];
  (*acc)[1] += lane_sums[base + DV];
  (*acc)[2] += lane_sums[base + 2u * DV];
  (*acc)[3] += lane_sums[base + 3u * DV];
  (*acc)[4] += lane_sums[base + 4u * DV];
  (*acc)[5] += lane_sums[base + 5u * DV];
  (*acc)[6] += lane_sums[base + 6u * DV];
  (*acc)[7] += lane_sums[base + 7u * DV];
}

@compute @workgroup_size(WG)
fn split(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  reduce_init(lid);
  let z = wid.x;
  let kv = wid.y;
  for (var i = lid; i < 8u * DV; i += WG) {
    var value = vec4<f32>(0.0);
    if (i < GROUP * DV) {
      value = q[kv * GROUP * DV + i] * params.scale_log2;
    }
    q_tile[i] = value;
  }
  workgroupBarrier();
  var limit = params.kv_len;
  if (params.causal == 1u) {
    limit = min(limit, params.position_offset + 1u);
  }
  let first = min(z * params.keys_per_split, limit);
  let end = min(first + params.keys_per_split, limit);
  let keys = end - first;
  let row_stride = params.kv_heads * DV;

  // Key first + lid's scores, heads 0-3 and 4-7.
  var lo = vec4<f32>(kNegative);
  var hi = vec4<f32>(kNegative);
  if (lid < keys) {
    let row = (first + lid) * row_stride + kv * DV;
    lo = vec4<f32>(0.0);
    hi = vec4<f32>(0.0);
    var c = 0u;
    for (; c + 4u <= DV; c += 4u) {
      let k0 = k[row + c];
      let k1 = k[row + c + 1u];
      let k2 = k[row + c + 2u];
      let k3 = k[row + c + 3u];
      let d0 = dots(c, k0);
      let d1 = dots(c + 1u, k1);
      let d2 = dots(c + 2u, k2);
      let d3 = dots(c + 3u, k3);
      lo += d0[0] + d1[0] + d2[0] + d3[0];
      hi += d0[1] + d1[1] + d2[1] + d3[1];
    }
    for (; c < DV; c++) {
      let d = dots(c, k[row + c]);
      lo += d[0];
      hi += d[1];
    }
  }
  let m_lo = workgroup_reduce(lo, true);
  var m_hi = vec4<f32>(kNegative);
  if (GROUP > 4u) {
    m_hi = workgroup_reduce(hi, true);
  }
  let p_lo = select(exp2(lo - m_lo), vec4<f32>(0.0), lo == vec4<f32>(kNegative));
  let p_hi = select(exp2(hi - m_hi), vec4<f32>(0.0), hi == vec4<f32>(kNegative));
  p_tile[2u * lid] = p_lo;
  p_tile[2u * lid + 1u] = p_hi;
  let l_lo = workgroup_reduce(p_lo, false);
  var l_hi = vec4<f32>(0.0);
  if (GROUP > 4u) {
    l_hi = workgroup_reduce(p_hi, false);
  }
  workgroupBarrier();  // p_tile written

  // V: keys past `keys` weigh 0; their rows are read clamped to a key of this split (or key 0
  // when the split is empty), so every row read is in the cache and finite.
  let last_row = max(end, 1u) - 1u;
  let c = lid % DV;
  let lane = lid / DV;
  let column = kv * DV + c;
  var acc: array<vec4<f32>, 8>;
  if (lane < LANES) {
    for (var i = 0u; i < LANE_STEPS; i += 4u) {
      let t0 = min(lane + i * LANES, WG - 1u);
      let t1 = min(lane + (i + 1u) * LANES, WG - 1u);
      let t2 = min(lane + (i + 2u) * LANES, WG - 1u);
      let t3 = min(lane + (i + 3u) * LANES, WG - 1u);
      let v0 = v[min(first + t0, last_row) * row_stride + column];
      let v1 = v[min(first + t1, last_row) * row_stride + column];
      let v2 = v[min(first + t2, last_row) * row_stride + column];
      let v3 = v[min(first + t3, last_row) * row_stride + column];
      // A clamped key repeats another: it counts once.
      if (lane + i * LANES < WG) {
        weigh(&acc, p_tile[2u * t0], p_tile[2u * t0 + 1u], v0);
      }
      if (lane + (i + 1u) * LANES < WG) {
        weigh(&acc, p_tile[2u * t1], p_tile[2u * t1 + 1u], v1);
      }
      if (lane + (i + 2u) * LANES < WG) {
        weigh(&acc, p_tile[2u * t2], p_tile[2u * t2 + 1u], v2);
      }
      if (lane + (i + 3u) * LANES < WG) {
        weigh(&acc, p_tile[2u * t3], p_tile[2u * t3 + 1u], v3);
      }
    }
    if (lane > 0u) {
      let base = (lane - 1u) * 8u * DV + c;
      lane_sums[base] = acc[0];
      lane_sums[base + DV] = acc[1];
      lane_sums[base + 2u * DV] = acc[2];
      lane_sums[base + 3u * DV] = acc[3];
      lane_sums[base + 4u * DV] = acc[4];
      lane_sums[base + 5u * DV] = acc[5];
      lane_sums[base + 6u * DV] = acc[6];
      lane_sums[base + 7u * DV] = acc[7];
    }
  }
  workgroupBarrier();  // lane_sums written

  let slot = (z * params.kv_heads + kv) * GROUP;
  if (lid < DV) {  // lane 0 of column lid
    for (var other = 1u; other < LANES; other++) {
      add_lane(&acc, other, c);
    }
    let o = (slot * DV) + c;
    part_o[o] = acc[0];
    if (GROUP > 1u) { part_o[o + DV] = acc[1]; }
    if (GROUP > 2u) { part_o[o + 2u * DV] = acc[2]; }
    if (GROUP > 3u) { part_o[o + 3u * DV] = acc[3]; }
    if (GROUP > 4u) { part_o[o + 4u * DV] = acc[4]; }
    if (GROUP > 5u) { part_o[o + 5u * DV] = acc[5]; }
    if (GROUP > 6u) { part_o[o + 6u * DV] = acc[6]; }
    if (GROUP > 7u) { part_o[o + 7u * DV] = acc[7]; }
  }
  if (lid < GROUP) {
    part_ml[slot + lid] = vec2<f32>(head_of(m_lo, m_hi, lid), head_of(l_lo, l_hi, lid));
  }
}

var<workgroup> merge_sums: array<vec4<f32>, max((LANES - 1u) * DV, 1u)>;

// Workgroup h merges query head h's splits (slot h within each split). Its pipeline sets its own
// WG (ops::kAttentionMergeWorkgroup), so LANES here are the merge's lanes over the splits.
@compute @workgroup_size(WG)
fn merge(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  reduce_init(lid);
  let h = wid.x;
  var top = kNegative;
  for (var z = lid; z < params.splits; z += WG) {
    top = max(top, part_ml[z * params.heads + h].x);
  }
  let m = workgroup_reduce(vec4<f32>(top), true).x;
  var l = 0.0;
  for (var z = lid; z < params.splits; z += WG) {
    let ml = part_ml[z * params.heads + h];
    l += ml.y * exp2(ml.x - m);
  }
  let total_l = workgroup_reduce(vec4<f32>(l), false).x;

  // Column c of lane `lane`: the splits lane, lane + LANES, .., four a step (clamped loads of
  // the last split, counted once).
  let c = lid % DV;
  let lane = lid / DV;
  let last = params.splits - 1u;
  var o = vec4<f32>(0.0);
  if (lane < LANES) {
    for (var z = lane; z < params.splits; z += 4u * LANES) {
      let s0 = z * params.heads + h;
      let s1 = min(z + LANES, last) * params.heads + h;
      let s2 = min(z + 2u * LANES, last) * params.heads + h;
      let s3 = min(z + 3u * LANES, last) * params.heads + h;
      let o0 = part_o[s0 * DV + c];
      let o1 = part_o[s1 * DV + c];
      let o2 = part_o[s2 * DV + c];
      let o3 = part_o[s3 * DV + c];
      let w0 = exp2(part_ml[s0].x - m);
      let w1 = select(0.0, exp2(part_ml[s1].x - m), z + LANES <= last);
      let w2 = select(0.0, exp2(part_ml[s2].x - m), z + 2u * LANES <= last);
      let w3 = select(0.0, exp2(part_ml[s3].x - m), z + 3u * LANES <= last);
      o += o0 * w0 + o1 * w1 + o2 * w2 + o3 * w3;
    }
    if (lane > 0u) {
      merge_sums[(lane - 1u) * DV + c] = o;
    }
  }
  workgroupBarrier();  // merge_sums written
  if (lid < DV) {
    for (var other = 1u; other < LANES; other++) {
      o += merge_sums[(other - 1u) * DV + c];
    }
    out[h * DV + c] = o / total_l;
  }
}
