// The decode step's LM head end on q8 activations (the last part of
// llm_matmul_q4_tuned_gemv_q8.wgsl's kernel, after decode_argmax_rule_part.wgsl): the logits
// written as llm_gemv_q8_store_part.wgsl writes them, and the argmax's first stage done by the
// GEMV itself, one dispatch fewer a token: each row group's first invocation takes the best of its
// rows (by the rule part's order), one barrier, and the workgroup's first invocation the best of
// its groups in order, written to partials[workgroup] (the grid counted row-major), which
// decode_argmax.wgsl's `pick` reduces. One activation row (M_ROWS = 1).
@group(0) @binding(6) var<storage, read_write> partials: array<Best>;  // [the GEMV's workgroups]

var<workgroup> group_best: array<Best, WG / TPR>;

// Call from uniform control flow (every invocation of the workgroup).
fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  let group = lid / TPR;
  if (lid % TPR == 0u) {
    var best = Best(0.0, kNone);
    for (var r = 0u; r < ROWS; r++) {
      if (row0 + r < n) {
        C[row0 + r] = (*acc)[r];
        let offered = candidate((*acc)[r], row0 + r);
        if (beats(offered, best)) {
          best = offered;
        }
      }
    }
    group_best[group] = best;
  }
  workgroupBarrier();
  if (lid == 0u) {
    var best = group_best[0];
    for (var g = 1u; g < WG / TPR; g++) {
      if (beats(group_best[g], best)) {
        best = group_best[g];
      }
    }
    // The workgroup's index: first_row's, undone.
    partials[(row0 / ROWS) / (WG / TPR)] = best;
  }
}
