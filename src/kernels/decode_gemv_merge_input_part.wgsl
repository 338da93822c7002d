// The decode step's o projection makes its own input (a part before llm_matmul_q4_tuned_gemv.wgsl,
// in place of llm_gemv_f32_input_part.wgsl; after decode_merge_pair_part.wgsl): decode
// attention's merge, which a dispatch of its own did, done by every workgroup for itself into the
// GEMV's staged x, one dependent dispatch fewer a layer. x is attention's output row,
// K = heads · head_dim values: MERGE_PAIRS vec4, pair p = h · DV + c column c of head h, at most
// one staged chunk (K4 ≤ CHUNK · 8: the host's check). Invocations go in clusters of MERGE_LANES
// consecutive lanes, a cluster a pair at a time (pairs lid / MERGE_LANES, + WG / MERGE_LANES, ..),
// and the cluster's first lane stages the pair. Every workgroup computes the same values in the
// same order.
override MERGE_PAIRS: u32 = 1u;   // K / 4

// The chunk from block c0 (the only one: c0 = 0) into `xs`. Call from uniform control flow,
// between the kernel's barriers.
fn stage_input(c0: u32, k4s: u32, lid: u32) {
  let clusters = WG / MERGE_LANES;
  for (var first = 0u; first < MERGE_PAIRS; first += clusters) {
    let pair = first + lid / MERGE_LANES;
    // A pair past the last merges a copy, unstaged.
    let merged = merge_pair(min(pair, MERGE_PAIRS - 1u), lid % MERGE_LANES);
    if (lid % MERGE_LANES == 0u && pair < MERGE_PAIRS) {
      xs[(pair / 8u) * 9u + pair % 8u] = merged;
    }
  }
  // The last block's pairs past K weigh nothing.
  for (var i = MERGE_PAIRS + lid; i < (MERGE_PAIRS + 7u) / 8u * 8u; i += WG) {
    xs[(i / 8u) * 9u + i % 8u] = vec4<f32>(0.0);
  }
}
