// The q8 GEMV's plain end (the last part of llm_matmul_q4_tuned_gemv_q8.wgsl's kernel): the
// group's first invocation writes its rows' sums, row r of activation row m to C[m][row0 + r],
// the rows below N.
fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  if (lid % TPR != 0u) {
    return;
  }
  for (var r = 0u; r < ROWS; r++) {
    for (var m = 0u; m < M_ROWS; m++) {
      if (row0 + r < n) {
        C[m * n + row0 + r] = (*acc)[r * M_ROWS + m];
      }
    }
  }
}
