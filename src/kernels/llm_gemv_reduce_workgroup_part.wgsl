// Row sums of the tuned GEMVs, portable path (workgroup memory, no subgroups): a part, first in
// the kernel, before llm_gemv_common_part.wgsl, which declares the overrides WG (threads a
// workgroup), TPR (threads a row group: a power of two dividing WG), ACCS (partial sums a thread
// keeps) and MAX_ROWS.
//
// reduce_rows(acc, lid): for each r < ACCS, sums acc[r] over the TPR consecutive invocations of
// lid's row group (a tree in workgroup memory, log2(TPR) barriers); the group's first invocation
// ends holding the sums. Call it from uniform control flow.
var<workgroup> reduce_scratch: array<f32, WG * ACCS>;

fn reduce_rows(acc: ptr<function, array<f32, MAX_ROWS>>, lid: u32) {
  let lane = lid % TPR;
  for (var r = 0u; r < ACCS; r++) {
    reduce_scratch[r * WG + lid] = (*acc)[r];
  }
  for (var stride = TPR / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lane < stride) {
      for (var r = 0u; r < ACCS; r++) {
        reduce_scratch[r * WG + lid] += reduce_scratch[r * WG + lid + stride];
      }
    }
  }
  for (var r = 0u; r < ACCS; r++) {
    (*acc)[r] = reduce_scratch[r * WG + lid];
  }
}
