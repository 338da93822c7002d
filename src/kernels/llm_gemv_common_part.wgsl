// What the tuned GEMVs (llm_matmul_f32_tuned_gemv.wgsl, llm_matmul_q4_tuned_gemv.wgsl) share:
// the uniform, the overrides and the end of the kernel (a part, not a kernel). The kernel is a
// row-sum part (llm_gemv_reduce_subgroup_part.wgsl or llm_gemv_reduce_workgroup_part.wgsl), this
// file, then the GEMV's own file, which declares the bindings `C` (array<f32>, [N]) and `params`.
//
// A workgroup of WG threads holds WG / TPR row groups of TPR threads (TPR a power of two); a
// group computes ROWS (≤ MAX_ROWS) consecutive rows of the output, its threads striding along
// K, each keeping ROWS partial sums.
struct Params { M: u32, K: u32, N: u32 }

override WG: u32 = 256u;
override TPR: u32 = 32u;
override ROWS: u32 = 2u;
const MAX_ROWS: u32 = 8u;
// Partial sums an invocation keeps, ≤ MAX_ROWS: a sum a row (the q8 GEMV: a row and an
// activation row each), what reduce_rows adds over the row group.
override ACCS: u32 = ROWS;

// The first row of invocation `lid`'s group (a grid split into x × y counts row-major).
fn first_row(wid: vec3<u32>, groups: vec3<u32>, lid: u32) -> u32 {
  return ((wid.x + wid.y * groups.x) * (WG / TPR) + lid / TPR) * ROWS;
}

// Adds each row's partial sums over the group and writes the rows below N from the group's
// first invocation. Call from uniform control flow.
fn finish_rows(acc: ptr<function, array<f32, MAX_ROWS>>, lid: u32, row0: u32) {
  reduce_rows(acc, lid);
  if (lid % TPR == 0u) {
    for (var r = 0u; r < ROWS; r++) {
      if (row0 + r < params.N) {
        C[row0 + r] = (*acc)[r];
      }
    }
  }
}
