// One (query head, vec4 column) pair of decode attention's output merged from the split
// partials by a cluster of MERGE_LANES consecutive invocations (a part, after
// llm_attention_merge_fold_part.wgsl and a lanes part, decode_merge_lanes_*_part.wgsl): the
// cluster's lanes take the pair's splits lane, lane + MERGE_LANES, .. (MERGE_BATCH loads of a lane
// in flight at once) and fold them, then combine as the attention's subgroup merge combines a
// subgroup's: M = max m, L = Σ l · 2^(m − M), O = Σ o · 2^(m − M). Used by the o GEMV that merges
// its input (decode_gemv_merge_input_part.wgsl) and the merge and o projection by head
// (decode_merge_o_heads.wgsl); the partials are llm_attention_decode's, split-minor.
@group(0) @binding(5) var<storage, read> part_o: array<vec4<f32>>;   // [(h · DV + c) · splits + z]
@group(0) @binding(6) var<storage, read> part_ml: array<vec2<f32>>;  // [h · splits + z]: (m, l)

override MERGE_DV: u32 = 16u;     // head_dim / 4
override MERGE_SPLITS: u32 = 1u;  // the split's workgroups a KV head
const MERGE_BATCH = 8u;           // loads of a lane in flight at once
const kNoScore = -3.0e38;         // llm_attention_decode's kNegative: "no split folded yet"

// O / L of pair `pair` (head pair / MERGE_DV, column pair % MERGE_DV), `lane` the invocation's
// lane in its cluster; every lane of the cluster returns it. Call from uniform control flow.
fn merge_pair(pair: u32, lane: u32) -> vec4<f32> {
  let steps = (MERGE_SPLITS + MERGE_LANES - 1u) / MERGE_LANES;  // the splits a lane folds
  let o_base = pair * MERGE_SPLITS;
  let ml_base = (pair / MERGE_DV) * MERGE_SPLITS;
  var f = Folded(kNoScore, 0.0, vec4<f32>(0.0));
  for (var s0 = 0u; s0 < steps; s0 += MERGE_BATCH) {
    var mls: array<vec2<f32>, MERGE_BATCH>;
    var parts: array<vec4<f32>, MERGE_BATCH>;
    for (var u = 0u; u < MERGE_BATCH; u++) {
      let z = min(lane + (s0 + u) * MERGE_LANES, MERGE_SPLITS - 1u);
      mls[u] = part_ml[ml_base + z];
      parts[u] = part_o[o_base + z];
    }
    for (var u = 0u; u < MERGE_BATCH; u++) {
      fold(&f, mls[u], parts[u], lane + (s0 + u) * MERGE_LANES < MERGE_SPLITS);
    }
  }
  let top = lanes_max(f.m);
  let weight = exp2(f.m - top);  // 0 for a lane that folded no split
  let total_l = lanes_sum(f.l * weight);
  let total_o = lanes_sum4(f.o * weight);
  return total_o / total_l;
}
