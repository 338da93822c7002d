enable subgroups;
// Row sums of the tuned GEMVs, subgroup path (a part, first in the kernel): the same contract as
// llm_gemv_reduce_workgroup_part.wgsl (which see), done with a butterfly of subgroupShuffleXor
// within each group of TPR invocations: no workgroup memory, no barriers. Needs TPR ≤ the
// device's smallest subgroup size (the host checks it) and row groups that start at subgroup
// boundaries (WG and TPR powers of two: subgroups are consecutive invocations); every lane of a
// group ends holding the sums.
fn reduce_rows(acc: ptr<function, array<f32, MAX_ROWS>>, lid: u32) {
  for (var r = 0u; r < ACCS; r++) {
    var v = (*acc)[r];
    for (var stride = TPR / 2u; stride > 0u; stride /= 2u) {
      v += subgroupShuffleXor(v, stride);
    }
    (*acc)[r] = v;
  }
}
