// Decode attention (one query position), split across the cache: flash-decoding. Workgroup
// (z, kv) takes the keys [z · keys_per_split, (z + 1) · keys_per_split) — at most WG of them —
// of KV head kv for the GROUP query heads that read it (heads kv · GROUP ..): invocation t
// scores key first + t against the GROUP queries (its key row read straight from K), the
// workgroup reduces each head's max and sum of exp2 (the composed reduction part: subgroups or
// a workgroup-memory tree; heads 0-3 and 4-7 of the group as two vec4), and the probabilities in
// workgroup memory weight V, each invocation accumulating its (head, vec4 column) outputs.
// `split` writes each split's unnormalised outputs and (max, sum); `merge` combines the splits:
// O = Σ_z o_z · 2^(m_z − M) / Σ_z l_z · 2^(m_z − M), M the largest m_z. Scores are in base 2 (q
// scaled by log2(e) / sqrt(d) on load). A causal row sees keys s ≤ position_offset.
// One pass a workgroup keeps every barrier out of loops (lavapipe compiles a kernel with
// reductions inside a loop for minutes). Composed after a reduction part (llm_reduce_*_part).
// head_dim must be a multiple of 4.
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
override OUTPUTS: u32 = GROUP * DV;  // (head, vec4 column) pairs a workgroup writes

const kMaxOut = 8u;  // outputs an invocation accumulates: OUTPUTS ≤ kMaxOut · WG
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
var<workgroup> p_tile: array<f32, GROUP * WG>;  // the probabilities, head-major

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
  let row_stride = params.kv_heads * DV;

  // Heads 0-3 and 4-7 of the group.
  var lo = vec4<f32>(kNegative);
  var hi = vec4<f32>(kNegative);
  let s = first + lid;
  if (s < end) {
    var score: array<f32, 8>;
    for (var c = 0u; c < DV; c++) {
      let key = k[s * row_stride + kv * DV + c];
      for (var g = 0u; g < GROUP; g++) {
        score[g] += dot(q_tile[g * DV + c], key);
      }
    }
    lo = vec4<f32>(score[0], score[1], score[2], score[3]);
    hi = vec4<f32>(score[4], score[5], score[6], score[7]);
  }
  let m_lo = workgroup_reduce(lo, true);
  var m_hi = vec4<f32>(kNegative);
  if (GROUP > 4u) {
    m_hi = workgroup_reduce(hi, true);
  }
  let p_lo = select(exp2(lo - m_lo), vec4<f32>(0.0), lo == vec4<f32>(kNegative));
  let p_hi = select(exp2(hi - m_hi), vec4<f32>(0.0), hi == vec4<f32>(kNegative));
  let l_lo = workgroup_reduce(p_lo, false);
  var l_hi = vec4<f32>(0.0);
  if (GROUP > 4u) {
    l_hi = workgroup_reduce(p_hi, false);
  }
  for (var g = 0u; g < GROUP; g++) {
    p_tile[g * WG + lid] = select(p_hi[g % 4u], p_lo[g % 4u], g < 4u);
  }
  workgroupBarrier();

  let slot = (z * params.kv_heads + kv) * GROUP;
  let keys = end - first;
  for (var j = 0u; j < kMaxOut; j++) {
    let o = lid + j * WG;
    if (o < OUTPUTS) {
      let g = o / DV;
      let c = o % DV;
      var sum = vec4<f32>(0.0);
      for (var t = 0u; t < keys; t++) {
        sum += p_tile[g * WG + t] * v[(first + t) * row_stride + kv * DV + c];
      }
      part_o[slot * DV + o] = sum;
    }
  }
  if (lid < GROUP) {
    let m = select(m_hi[lid % 4u], m_lo[lid % 4u], lid < 4u);
    let l = select(l_hi[lid % 4u], l_lo[lid % 4u], lid < 4u);
    part_ml[slot + lid] = vec2<f32>(m, l);
  }
}

// One invocation a (query head, vec4 column): merges the splits.
@compute @workgroup_size(64)
fn merge(@builtin(global_invocation_id) gid: vec3<u32>) {
  let index = gid.x;
  if (index >= params.heads * DV) {
    return;
  }
  let h = index / DV;  // = kv · GROUP + g: the partials' slot within a split
  let c = index % DV;
  var top = kNegative;
  for (var z = 0u; z < params.splits; z++) {
    top = max(top, part_ml[z * params.heads + h].x);
  }
  var l = 0.0;
  var o = vec4<f32>(0.0);
  for (var z = 0u; z < params.splits; z++) {
    let slot = z * params.heads + h;
    let weight = exp2(part_ml[slot].x - top);
    l += part_ml[slot].y * weight;
    o += part_o[slot * DV + c] * weight;
  }
  out[index] = o / l;
}
