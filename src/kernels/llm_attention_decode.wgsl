// Decode attention (one query position), split across the cache: flash-decoding. Workgroup
// (z, kv) takes the keys [z · keys_per_split, (z + 1) · keys_per_split) — at most WG of them —
// of KV head kv for the GROUP (≤ 8) query heads that read it (heads kv · GROUP ..).
// Invocation t scores key first + t against the group's queries (its key row read from K, four
// loads issued before their dots), heads 0-3 and 4-7 as two vec4; the composed statistics part
// gives each head's max and sum of exp2 (four workgroup reductions, or one subgroup hand-off);
// the probabilities, in workgroup memory, weight V: invocation t takes the vec4 column t % DV of
// every head over the keys t / DV, t / DV + LANES, .. (LANES = WG / DV key lanes), four V rows a
// step, so each V load feeds every head; the lanes' sums meet in workgroup memory.
// Every per-head value lives in a vec4 or an array indexed only by constants, so that it stays in
// registers whatever the driver unrolls.
// `split` writes each split's unnormalised outputs and (max, sum) (split-minor, below); `merge`,
// one workgroup a query head (its own WG), combines the splits:
// O = Σ_z o_z · 2^(m_z − M) / Σ_z l_z · 2^(m_z − M), M the largest m_z. Scores are in base 2
// (q scaled by log2(e) / sqrt(d) on load). A causal row sees keys s ≤ position_offset. Every
// barrier is outside loops (lavapipe compiles a kernel with reductions inside a loop for minutes).
// Composed after a reduction part (llm_reduce_*_part) and the matching statistics part
// (llm_attention_stats_*_part).
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

// A split's softmax over its keys, head groups 0-3 (lo) and 4-7 (hi): each key's probability
// 2^(s − m), the maximum m and the sum l of the probabilities, from the composed statistics part
// (llm_attention_stats_subgroup_part or llm_attention_stats_workgroup_part: softmax_stats).
struct SoftmaxStats {
  p_lo: vec4<f32>,
  p_hi: vec4<f32>,
  m_lo: vec4<f32>,
  m_hi: vec4<f32>,
  l_lo: vec4<f32>,
  l_hi: vec4<f32>,
}

@group(0) @binding(0) var<storage, read> q: array<vec4<f32>>;  // [heads · d]
@group(0) @binding(1) var<storage, read> k: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(2) var<storage, read> v: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(3) var<storage, read_write> out: array<vec4<f32>>;  // [heads · d]
@group(0) @binding(4) var<uniform> params: Params;
// Split-minor, so that a merge's lanes over the splits load adjacent words: query head
// h = kv · GROUP + g's vec4 column c of split z at part_o[(h · DV + c) · splits + z], its
// (max, sum) at part_ml[h · splits + z].
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

// Up to 16 vec4 loads issued together: elements base + min(c0 + j, DV - 1) of K (a key row's
// columns c0 ..). Clamped indices stay in the row; a caller skips c0 + j ≥ DV.
fn load_key_chunk(kc: ptr<function, array<vec4<f32>, 16>>, base: u32, c0: u32) {
  let l = DV - 1u;
  *kc = array<vec4<f32>, 16>(
      k[base + min(c0, l)], k[base + min(c0 + 1u, l)], k[base + min(c0 + 2u, l)],
      k[base + min(c0 + 3u, l)], k[base + min(c0 + 4u, l)], k[base + min(c0 + 5u, l)],
      k[base + min(c0 + 6u, l)], k[base + min(c0 + 7u, l)], k[base + min(c0 + 8u, l)],
      k[base + min(c0 + 9u, l)], k[base + min(c0 + 10u, l)], k[base + min(c0 + 11u, l)],
      k[base + min(c0 + 12u, l)], k[base + min(c0 + 13u, l)], k[base + min(c0 + 14u, l)],
      k[base + min(c0 + 15u, l)]);
}

// The V rows of lane `lane`'s keys t = lane + (i0 + j) · LANES for j < 16 (t clamped to WG − 1,
// the row to last_row), column `column`: 16 loads issued together.
fn load_value_chunk(vc: ptr<function, array<vec4<f32>, 16>>, lane: u32, i0: u32, first: u32,
                    last_row: u32, row_stride: u32, column: u32) {
  let base = first + lane + i0 * LANES;  // key t = lane + (i0 + j) · LANES at base + j · LANES
  let top = first + WG - 1u;
  let s = LANES;
  *vc = array<vec4<f32>, 16>(
      v[min(min(base + 0u * s, top), last_row) * row_stride + column],
      v[min(min(base + 1u * s, top), last_row) * row_stride + column],
      v[min(min(base + 2u * s, top), last_row) * row_stride + column],
      v[min(min(base + 3u * s, top), last_row) * row_stride + column],
      v[min(min(base + 4u * s, top), last_row) * row_stride + column],
      v[min(min(base + 5u * s, top), last_row) * row_stride + column],
      v[min(min(base + 6u * s, top), last_row) * row_stride + column],
      v[min(min(base + 7u * s, top), last_row) * row_stride + column],
      v[min(min(base + 8u * s, top), last_row) * row_stride + column],
      v[min(min(base + 9u * s, top), last_row) * row_stride + column],
      v[min(min(base + 10u * s, top), last_row) * row_stride + column],
      v[min(min(base + 11u * s, top), last_row) * row_stride + column],
      v[min(min(base + 12u * s, top), last_row) * row_stride + column],
      v[min(min(base + 13u * s, top), last_row) * row_stride + column],
      v[min(min(base + 14u * s, top), last_row) * row_stride + column],
      v[min(min(base + 15u * s, top), last_row) * row_stride + column]);
}

// Adds the eight heads' dots of key column c (below DV) to lo and hi.
fn score_column(c: u32, key: vec4<f32>, lo: ptr<function, vec4<f32>>,
                hi: ptr<function, vec4<f32>>) {
  if (c < DV) {
    let d = dots(c, key);
    *lo += d[0];
    *hi += d[1];
  }
}

// Adds the dots of key columns c0 + j (j < 16, below DV) to lo and hi; written out, so that
// the chunk is indexed by constants only.
fn score_chunk(kc: ptr<function, array<vec4<f32>, 16>>, c0: u32, lo: ptr<function, vec4<f32>>,
               hi: ptr<function, vec4<f32>>) {
  score_column(c0 + 0u, (*kc)[0], lo, hi);
  score_column(c0 + 1u, (*kc)[1], lo, hi);
  score_column(c0 + 2u, (*kc)[2], lo, hi);
  score_column(c0 + 3u, (*kc)[3], lo, hi);
  score_column(c0 + 4u, (*kc)[4], lo, hi);
  score_column(c0 + 5u, (*kc)[5], lo, hi);
  score_column(c0 + 6u, (*kc)[6], lo, hi);
  score_column(c0 + 7u, (*kc)[7], lo, hi);
  score_column(c0 + 8u, (*kc)[8], lo, hi);
  score_column(c0 + 9u, (*kc)[9], lo, hi);
  score_column(c0 + 10u, (*kc)[10], lo, hi);
  score_column(c0 + 11u, (*kc)[11], lo, hi);
  score_column(c0 + 12u, (*kc)[12], lo, hi);
  score_column(c0 + 13u, (*kc)[13], lo, hi);
  score_column(c0 + 14u, (*kc)[14], lo, hi);
  score_column(c0 + 15u, (*kc)[15], lo, hi);
}

// acc += key t's V row weighted by its probabilities (a key past WG is a clamped repeat of
// another: it counts once).
fn weigh_key(acc: ptr<function, array<vec4<f32>, 8>>, t: u32, value: vec4<f32>) {
  if (t < WG) {
    weigh(acc, p_tile[2u * t], p_tile[2u * t + 1u], value);
  }
}

// acc += the lane's keys lane + (i0 + j) · LANES (j < 16) weighted by their probabilities;
// written out, so that the chunk is indexed by constants only.
fn weigh_chunk(acc: ptr<function, array<vec4<f32>, 8>>, vc: ptr<function, array<vec4<f32>, 16>>,
               lane: u32, i0: u32) {
  weigh_key(acc, lane + (i0 + 0u) * LANES, (*vc)[0]);
  weigh_key(acc, lane + (i0 + 1u) * LANES, (*vc)[1]);
  weigh_key(acc, lane + (i0 + 2u) * LANES, (*vc)[2]);
  weigh_key(acc, lane + (i0 + 3u) * LANES, (*vc)[3]);
  weigh_key(acc, lane + (i0 + 4u) * LANES, (*vc)[4]);
  weigh_key(acc, lane + (i0 + 5u) * LANES, (*vc)[5]);
  weigh_key(acc, lane + (i0 + 6u) * LANES, (*vc)[6]);
  weigh_key(acc, lane + (i0 + 7u) * LANES, (*vc)[7]);
  weigh_key(acc, lane + (i0 + 8u) * LANES, (*vc)[8]);
  weigh_key(acc, lane + (i0 + 9u) * LANES, (*vc)[9]);
  weigh_key(acc, lane + (i0 + 10u) * LANES, (*vc)[10]);
  weigh_key(acc, lane + (i0 + 11u) * LANES, (*vc)[11]);
  weigh_key(acc, lane + (i0 + 12u) * LANES, (*vc)[12]);
  weigh_key(acc, lane + (i0 + 13u) * LANES, (*vc)[13]);
  weigh_key(acc, lane + (i0 + 14u) * LANES, (*vc)[14]);
  weigh_key(acc, lane + (i0 + 15u) * LANES, (*vc)[15]);
}

// Split z's keys: `keys` of them from `first` (the cache up to the causal limit, in splits of
// keys_per_split); `last_row` the last a load may touch (key 0 for an empty split, which weighs
// nothing).
struct SplitKeys {
  first: u32,
  keys: u32,
  last_row: u32,
}

fn split_keys(z: u32) -> SplitKeys {
  var limit = params.kv_len;
  if (params.causal == 1u) {
    limit = min(limit, params.position_offset + 1u);
  }
  let first = min(z * params.keys_per_split, limit);
  let end = min(first + params.keys_per_split, limit);
  return SplitKeys(first, end - first, max(end, 1u) - 1u);
}

@compute @workgroup_size(WG)
fn split(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  // A split is a handful of workgroups on a large GPU: its time is the chain of memory round
  // trips, so every global load that does not wait on another is issued first — the key row,
  // the first 16 V rows of the lane and the queries — and only then does anything wait.
  let z = wid.x;
  let kv = wid.y;
  let range = split_keys(z);
  let first = range.first;
  let keys = range.keys;
  let last_row = range.last_row;
  let row_stride = params.kv_heads * DV;
  let key_row = min(first + lid, last_row) * row_stride + kv * DV;
  let c = lid % DV;
  let lane = lid / DV;
  let column = kv * DV + c;
  var kc: array<vec4<f32>, 16>;
  var vc: array<vec4<f32>, 16>;
  load_key_chunk(&kc, key_row, 0u);
  load_value_chunk(&vc, lane, 0u, first, last_row, row_stride, column);
  for (var i = lid; i < 8u * DV; i += WG) {
    var value = vec4<f32>(0.0);
    if (i < GROUP * DV) {
      value = q[kv * GROUP * DV + i] * params.scale_log2;
    }
    q_tile[i] = value;
  }
  reduce_init(lid);
  workgroupBarrier();

  // Key first + lid's scores, heads 0-3 and 4-7; the further key chunks of a wide head.
  var lo = vec4<f32>(0.0);
  var hi = vec4<f32>(0.0);
  score_chunk(&kc, 0u, &lo, &hi);
  for (var c0 = 16u; c0 < DV; c0 += 16u) {
    load_key_chunk(&kc, key_row, c0);
    score_chunk(&kc, c0, &lo, &hi);
  }
  if (lid >= keys) {
    lo = vec4<f32>(kNegative);
    hi = vec4<f32>(kNegative);
  }
  let stats = softmax_stats(lo, hi);
  let m_lo = stats.m_lo;
  let m_hi = stats.m_hi;
  let l_lo = stats.l_lo;
  let l_hi = stats.l_hi;
  p_tile[2u * lid] = stats.p_lo;
  p_tile[2u * lid + 1u] = stats.p_hi;
  workgroupBarrier();  // p_tile written

  // V: invocation (lane, c) weighs column c of its lane's keys, the first 16 loaded above.
  var acc: array<vec4<f32>, 8>;
  for (var g = 0u; g < 8u; g++) {
    acc[g] = vec4<f32>(0.0);
  }
  if (lane < LANES) {
    weigh_chunk(&acc, &vc, lane, 0u);
    for (var i0 = 16u; i0 < LANE_STEPS; i0 += 16u) {
      load_value_chunk(&vc, lane, i0, first, last_row, row_stride, column);
      weigh_chunk(&acc, &vc, lane, i0);
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

  let splits = params.splits;
  if (lid < DV) {  // lane 0 of column lid
    for (var other = 1u; other < LANES; other++) {
      add_lane(&acc, other, c);
    }
    let o = (kv * GROUP * DV + c) * splits + z;  // head kv · GROUP's column c
    let head = DV * splits;                      // the next head's
    part_o[o] = acc[0];
    if (GROUP > 1u) { part_o[o + head] = acc[1]; }
    if (GROUP > 2u) { part_o[o + 2u * head] = acc[2]; }
    if (GROUP > 3u) { part_o[o + 3u * head] = acc[3]; }
    if (GROUP > 4u) { part_o[o + 4u * head] = acc[4]; }
    if (GROUP > 5u) { part_o[o + 5u * head] = acc[5]; }
    if (GROUP > 6u) { part_o[o + 6u * head] = acc[6]; }
    if (GROUP > 7u) { part_o[o + 7u * head] = acc[7]; }
  }
  if (lid < GROUP) {
    part_ml[(kv * GROUP + lid) * splits + z] =
        vec2<f32>(head_of(m_lo, m_hi, lid), head_of(l_lo, l_hi, lid));
  }
}

var<workgroup> merge_sums: array<vec4<f32>, max((LANES - 1u) * DV, 1u)>;

// Workgroup h merges query head h's splits. Its pipeline sets its own WG (the op's merge_wg), so
// LANES here are the merge's lanes over the splits. Invocation t takes lane t % LANES of column
// t / LANES (none past DV · LANES), so that adjacent invocations load adjacent splits' words.
@compute @workgroup_size(WG)
fn merge(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  // As in split: the loads first (this invocation's split's (max, sum), the lane's first four
  // splits' outputs and weights), then the reductions that wait on them.
  let h = wid.x;
  let lane = lid % LANES;
  let c = lid / LANES;
  let held = c < DV;               // an invocation past DV · LANES only joins the reductions
  let column = min(c, DV - 1u);
  let splits = params.splits;
  let last = splits - 1u;
  let ob = (h * DV + column) * splits;  // column c's partials, split-minor
  let mb = h * splits;                  // head h's (max, sum)
  var own = vec2<f32>(kNegative, 0.0);
  if (lid < splits) {
    own = part_ml[mb + lid];
  }
  // Column c of lane `lane`: the splits lane, lane + LANES, .., four a step (clamped loads of
  // the last split, counted once).
  var z = min(lane, last);
  var z1 = min(z + LANES, last);
  var z2 = min(z + 2u * LANES, last);
  var z3 = min(z + 3u * LANES, last);
  var o0 = part_o[ob + z];
  var o1 = part_o[ob + z1];
  var o2 = part_o[ob + z2];
  var o3 = part_o[ob + z3];
  var ml0 = part_ml[mb + z];
  var ml1 = part_ml[mb + z1];
  var ml2 = part_ml[mb + z2];
  var ml3 = part_ml[mb + z3];
  reduce_init(lid);
  var top = own.x;
  for (var y = lid + WG; y < splits; y += WG) {
    top = max(top, part_ml[mb + y].x);
  }
  let m = workgroup_reduce(vec4<f32>(top), true).x;
  var l = own.y * exp2(own.x - m);
  for (var y = lid + WG; y < splits; y += WG) {
    let ml = part_ml[mb + y];
    l += ml.y * exp2(ml.x - m);
  }
  let total_l = workgroup_reduce(vec4<f32>(l), false).x;

  var o = vec4<f32>(0.0);
  if (held) {
    z = lane;
    loop {
      if (z >= splits) {
        break;
      }
      let w0 = exp2(ml0.x - m);
      let w1 = select(0.0, exp2(ml1.x - m), z + LANES <= last);
      let w2 = select(0.0, exp2(ml2.x - m), z + 2u * LANES <= last);
      let w3 = select(0.0, exp2(ml3.x - m), z + 3u * LANES <= last);
      o += o0 * w0 + o1 * w1 + o2 * w2 + o3 * w3;
      z += 4u * LANES;
      let y = min(z, last);
      z1 = min(y + LANES, last);
      z2 = min(y + 2u * LANES, last);
      z3 = min(y + 3u * LANES, last);
      if (z < splits) {
        o0 = part_o[ob + y];
        o1 = part_o[ob + z1];
        o2 = part_o[ob + z2];
        o3 = part_o[ob + z3];
        ml0 = part_ml[mb + y];
        ml1 = part_ml[mb + z1];
        ml2 = part_ml[mb + z2];
        ml3 = part_ml[mb + z3];
      }
    }
    if (lane > 0u) {
      merge_sums[(lane - 1u) * DV + c] = o;
    }
  }
  workgroupBarrier();  // merge_sums written
  if (held && lane == 0u) {
    for (var other = 1u; other < LANES; other++) {
      o += merge_sums[(other - 1u) * DV + c];
    }
    out[h * DV + c] = o / total_l;
  }
}
