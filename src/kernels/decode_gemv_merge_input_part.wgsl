// The decode step's o projection makes its own input (a part before llm_matmul_q4_tuned_gemv.wgsl,
// in place of llm_gemv_f32_input_part.wgsl; after llm_attention_merge_fold_part.wgsl and a lanes
// part, decode_merge_lanes_*_part.wgsl): decode attention's merge, which a dispatch of its own
// did, done by every workgroup for itself into the GEMV's staged x, one dependent dispatch fewer
// a layer. x is attention's output row, K = heads · head_dim values: MERGE_PAIRS vec4, pair
// p = h · DV + c column c of head h, at most one staged chunk (K4 ≤ CHUNK · 8: the host's
// check). Invocations go in clusters of MERGE_LANES consecutive lanes, a cluster a pair at a time
// (pairs lid / MERGE_LANES, + WG / MERGE_LANES, ..), its lanes over the pair's splits (lane,
// lane + MERGE_LANES, ..), MERGE_BATCH loads of a lane in flight at once; the lanes' folds then
// combine as the attention's subgroup merge combines a subgroup's: M = max m,
// L = Σ l · 2^(m − M), O = Σ o · 2^(m − M), and the cluster's first lane stages O / L. Every
// workgroup computes the same values in the same order.
@group(0) @binding(5) var<storage, read> part_o: array<vec4<f32>>;   // [(h · DV + c) · splits + z]
@group(0) @binding(6) var<storage, read> part_ml: array<vec2<f32>>;  // [h · splits + z]: (m, l)

override MERGE_PAIRS: u32 = 1u;   // K / 4
override MERGE_DV: u32 = 16u;     // head_dim / 4
override MERGE_SPLITS: u32 = 1u;  // the split's workgroups a KV head
const MERGE_BATCH = 8u;           // loads of a lane in flight at once
const kNoScore = -3.0e38;         // llm_attention_decode's kNegative: "no split folded yet"

// The chunk from block c0 (the only one: c0 = 0) into `xs`. Call from uniform control flow,
// between the kernel's barriers.
fn stage_input(c0: u32, k4s: u32, lid: u32) {
  let clusters = WG / MERGE_LANES;
  let lane = lid % MERGE_LANES;
  let steps = (MERGE_SPLITS + MERGE_LANES - 1u) / MERGE_LANES;  // the splits a lane folds
  for (var first = 0u; first < MERGE_PAIRS; first += clusters) {
    let pair = first + lid / MERGE_LANES;
    let held = min(pair, MERGE_PAIRS - 1u);  // a pair past the last merges a copy, unstaged
    let o_base = held * MERGE_SPLITS;
    let ml_base = (held / MERGE_DV) * MERGE_SPLITS;
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
    if (lane == 0u && pair < MERGE_PAIRS) {
      xs[(pair / 8u) * 9u + pair % 8u] = total_o / total_l;
    }
  }
  // The last block's pairs past K weigh nothing.
  for (var i = MERGE_PAIRS + lid; i < (MERGE_PAIRS + 7u) / 8u * 8u; i += WG) {
    xs[(i / 8u) * 9u + i % 8u] = vec4<f32>(0.0);
  }
}
