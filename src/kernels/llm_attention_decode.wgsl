// Decode attention (one query position), split across the cache: flash-decoding. Workgroup
// (z, kv) takes the keys [z · keys_per_split, (z + 1) · keys_per_split) — at most SPLIT_KEYS =
// WG · KEYS of them — of KV head kv for the GROUP query heads that read it (heads kv · GROUP ..).
// Invocation t scores keys first + t + r · WG (r < KEYS) against the GROUP queries, its key rows
// read straight from K; the workgroup reduces each head's max and sum of exp2 (the composed
// reduction part: subgroups or a workgroup-memory tree; heads 0-3 and 4-7 of the group as two
// vec4); the probabilities, in workgroup memory, weight V: invocation t takes the vec4 column
// t % DV of every head over the keys t / DV, t / DV + LANES, .. (LANES = WG / DV key lanes), so
// each V load feeds GROUP heads and every loop has a constant trip count (its loads in flight
// together); the lanes' sums meet in workgroup memory.
// `split` writes each split's unnormalised outputs and (max, sum); `merge`, one workgroup a query
// head, combines the splits (the invocations over the splits, then over (column, lane) pairs):
// O = Σ_z o_z · 2^(m_z − M) / Σ_z l_z · 2^(m_z − M), M the largest m_z. Scores are in base 2 (q
// scaled by log2(e) / sqrt(d) on load). A causal row sees keys s ≤ position_offset.
// Every barrier is outside loops (lavapipe compiles a kernel with reductions inside a loop for
// minutes). Composed after a reduction part (llm_reduce_*_part). head_dim a multiple of 4.
struct Params {
  kv_len: u32,           // S
  heads: u32,            // query heads
  kv_heads: u32,         // key/value heads
  position_offset: u32,  // the query's absolute position
  causal: u32,           // 1: keys s ≤ position_offset only
  keys_per_split: u32,   // ≤ SPLIT_KEYS
  splits: u32,           // grid x
  scale_log2: f32,       // log2(e) / sqrt(head_dim)
}

override WG: u32 = 64u;        // invocations
override KEYS: u32 = 1u;       // keys an invocation scores, ≤ 8
override HEAD_DIM: u32 = 64u;  // d
override GROUP: u32 = 7u;      // query heads a KV head, ≤ 8
override DV: u32 = HEAD_DIM / 4u;
override SPLIT_KEYS: u32 = WG * KEYS;
override LANES: u32 = max(WG / DV, 1u);      // key lanes of the V pass
override COLUMN_ROUNDS: u32 = (DV + WG - 1u) / WG;  // (column, lane) items an invocation, ≤ 2
override LANE_STEPS: u32 = (SPLIT_KEYS + LANES - 1u) / LANES;  // keys a lane
override OUTPUTS: u32 = GROUP * DV;  // (head, vec4 column) pairs a workgroup writes

const kMaxKeys = 8u;
const kMaxRounds = 2u;
const kNegative = -3.0e38;  // "no score yet": finite, so exp2(kNegative − m) is 0, never NaN

@group(0) @binding(0) var<storage, read> q: array<vec4<f32>>;  // [heads · d]
@group(0) @binding(1) var<storage, read> k: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(2) var<storage, read> v: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(3) var<storage, read_write> out: array<vec4<f32>>;  // [heads · d]
@group(0) @binding(4) var<uniform> params: Params;
// [splits, kv_heads, GROUP, d] unnormalised outputs and [splits, kv_heads, GROUP] (max, sum).
@group(0) @binding(5) var<storage, read_write> part_o: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> part_ml: array<vec2<f32>>;

var<workgroup> q_tile: array<vec4<f32>, OUTPUTS>;
var<workgroup> p_tile: array<f32, GROUP * SPLIT_KEYS>;  // the probabilities, head-major
// Each (lane, head, column)'s sum, lanes 1 ..; lane 0 adds them to its own.
var<workgroup> lane_sums: array<vec4<f32>, max(LANES - 1u, 1u) * OUTPUTS>;

fn head_of(lo: vec4<f32>, hi: vec4<f32>, g: u32) -> f32 {
  return select(hi[g % 4u], lo[g % 4u], g < 4u);
}

@compute @workgroup_size(WG)
fn split(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  reduce_init(lid);
  let z = wid.x;
  let kv = wid.y;
  for (var i = lid; i < OUTPUTS; i += WG) {
    q_tile[i] = q[kv * OUTPUTS + i] * params.scale_log2;
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

  // Scores, heads 0-3 and 4-7 of the group, of this invocation's keys; their running maxima.
  var score_lo: array<vec4<f32>, kMaxKeys>;
  var score_hi: array<vec4<f32>, kMaxKeys>;
  var top_lo = vec4<f32>(kNegative);
  var top_hi = vec4<f32>(kNegative);
  for (var r = 0u; r < KEYS; r++) {
    let t = lid + r * WG;
    // Zeroed explicitly: through Dawn on lavapipe a `var` without an initializer in a loop body
    // kept the previous iteration's value (the WGSL spec zeroes it each iteration).
    var score = array<f32, 8>();
    if (t < keys) {
      let row = (first + t) * row_stride + kv * DV;
      // Four loads of the key row issued before their dots, then the odd columns.
      var c = 0u;
      for (; c + 4u <= DV; c += 4u) {
        let k0 = k[row + c];
        let k1 = k[row + c + 1u];
        let k2 = k[row + c + 2u];
        let k3 = k[row + c + 3u];
        for (var g = 0u; g < GROUP; g++) {
          let qg = g * DV + c;
          score[g] += dot(q_tile[qg], k0) + dot(q_tile[qg + 1u], k1) + dot(q_tile[qg + 2u], k2) +
                      dot(q_tile[qg + 3u], k3);
        }
      }
      for (; c < DV; c++) {
        let key = k[row + c];
        for (var g = 0u; g < GROUP; g++) {
          score[g] += dot(q_tile[g * DV + c], key);
        }
      }
    } else {
      for (var g = 0u; g < 8u; g++) {
        score[g] = kNegative;
      }
    }
    score_lo[r] = vec4<f32>(score[0], score[1], score[2], score[3]);
    score_hi[r] = vec4<f32>(score[4], score[5], score[6], score[7]);
    top_lo = max(top_lo, score_lo[r]);
    top_hi = max(top_hi, score_hi[r]);
  }
  let m_lo = workgroup_reduce(top_lo, true);
  var m_hi = vec4<f32>(kNegative);
  if (GROUP > 4u) {
    m_hi = workgroup_reduce(top_hi, true);
  }
  var sum_lo = vec4<f32>(0.0);
  var sum_hi = vec4<f32>(0.0);
  for (var r = 0u; r < KEYS; r++) {
    let t = lid + r * WG;
    let lo = score_lo[r];
    let hi = score_hi[r];
    let p_lo = select(exp2(lo - m_lo), vec4<f32>(0.0), lo == vec4<f32>(kNegative));
    let p_hi = select(exp2(hi - m_hi), vec4<f32>(0.0), hi == vec4<f32>(kNegative));
    sum_lo += p_lo;
    sum_hi += p_hi;
    for (var g = 0u; g < GROUP; g++) {
      p_tile[g * SPLIT_KEYS + t] = head_of(p_lo, p_hi, g);
    }
  }
  let l_lo = workgroup_reduce(sum_lo, false);
  var l_hi = vec4<f32>(0.0);
  if (GROUP > 4u) {
    l_hi = workgroup_reduce(sum_hi, false);
  }
  workgroupBarrier();  // p_tile written

  // V: the keys past `keys` weigh 0; their rows are read clamped to a key of this split (or
  // key 0 when the split is empty), so every row read is in the cache and finite.
  let last_row = max(end, 1u) - 1u;
  var acc: array<vec4<f32>, kMaxRounds * 8u>;
  for (var j = 0u; j < COLUMN_ROUNDS; j++) {
    let item = lid + j * WG;
    let c = item % DV;
    let lane = item / DV;
    if (lane < LANES) {
      // Four keys of the lane at a time, their V loads issued before their products.
      for (var i = 0u; i < LANE_STEPS; i += 4u) {
        var value: array<vec4<f32>, 4>;
        var key: array<u32, 4>;
        for (var u = 0u; u < 4u; u++) {
          key[u] = min(lane + (i + u) * LANES, SPLIT_KEYS - 1u);
          value[u] = v[min(first + key[u], last_row) * row_stride + kv * DV + c];
        }
        for (var u = 0u; u < 4u; u++) {
          if (i + u < LANE_STEPS && lane + (i + u) * LANES < SPLIT_KEYS) {
            for (var g = 0u; g < GROUP; g++) {
              acc[j * 8u + g] += p_tile[g * SPLIT_KEYS + key[u]] * value[u];
            }
          }
        }
      }
      if (lane > 0u) {
        for (var g = 0u; g < GROUP; g++) {
          lane_sums[((lane - 1u) * GROUP + g) * DV + c] = acc[j * 8u + g];
        }
      }
    }
  }
  workgroupBarrier();  // lane_sums written

  let slot = (z * params.kv_heads + kv) * GROUP;
  for (var j = 0u; j < COLUMN_ROUNDS; j++) {
    let item = lid + j * WG;
    if (item < DV) {  // lane 0 of column item
      for (var g = 0u; g < GROUP; g++) {
        var total = acc[j * 8u + g];
        for (var lane = 1u; lane < LANES; lane++) {
          total += lane_sums[((lane - 1u) * GROUP + g) * DV + item];
        }
        part_o[(slot + g) * DV + item] = total;
      }
    }
  }
  if (lid < GROUP) {
    part_ml[slot + lid] = vec2<f32>(head_of(m_lo, m_hi, lid), head_of(l_lo, l_hi, lid));
  }
}

var<workgroup> merge_sums: array<vec4<f32>, max(LANES - 1u, 1u) * DV>;

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

  var acc: array<vec4<f32>, kMaxRounds>;
  for (var j = 0u; j < COLUMN_ROUNDS; j++) {
    let item = lid + j * WG;
    let c = item % DV;
    let lane = item / DV;
    if (lane < LANES) {
      // Four splits of the lane at a time, their loads issued before their products.
      for (var z0 = lane; z0 < params.splits; z0 += 4u * LANES) {
        var o: array<vec4<f32>, 4>;
        var weight: array<f32, 4>;
        for (var u = 0u; u < 4u; u++) {
          let slot = min(z0 + u * LANES, params.splits - 1u) * params.heads + h;
          o[u] = part_o[slot * DV + c];
          weight[u] = exp2(part_ml[slot].x - m);
        }
        for (var u = 0u; u < 4u; u++) {
          if (z0 + u * LANES < params.splits) {
            acc[j] += o[u] * weight[u];
          }
        }
      }
      if (lane > 0u) {
        merge_sums[(lane - 1u) * DV + c] = acc[j];
      }
    }
  }
  workgroupBarrier();  // merge_sums written
  for (var j = 0u; j < COLUMN_ROUNDS; j++) {
    let item = lid + j * WG;
    if (item < DV) {
      var o = acc[j];
      for (var lane = 1u; lane < LANES; lane++) {
        o += merge_sums[(lane - 1u) * DV + item];
      }
      out[h * DV + item] = o / total_l;
    }
  }
}
