// matmul-f32 tuned, GEMV path (M = 1): y[n] = Σ_k x[k] · W[n][k], the weight read as Wᵀ
// [N, K] (the LLM layout: output × input, KERNELS.md) with rows padded with zeros to K4 =
// ceil(K / 4) vec4; x is [1, K] padded the same way. Prepended with llm_gemv_reduce_subgroup or
// llm_gemv_reduce_workgroup.wgsl (reduce_rows).
//
// A workgroup of WG threads holds WG / TPR row groups of TPR threads; a group computes ROWS
// consecutive rows: its threads stride along K in vec4 (consecutive threads read consecutive
// 16 bytes of each row: coalesced), each keeping ROWS partial sums (x is loaded once for ROWS
// rows), then reduce_rows adds the group's partials and its first thread writes the rows.
// Dispatch: ceil(N / (WG / TPR · ROWS)) workgroups (a grid split into x × y is accepted).
struct Params { M: u32, K: u32, N: u32 }

override WG: u32 = 256u;
override TPR: u32 = 32u;
override ROWS: u32 = 2u;
const MAX_ROWS: u32 = 8u;

@group(0) @binding(0) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> W: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k4s = (params.K + 3u) / 4u;
  let lane = lid % TPR;
  let row0 = ((wid.x + wid.y * groups.x) * (WG / TPR) + lid / TPR) * ROWS;
  var acc: array<f32, MAX_ROWS>;
  for (var k4 = lane; k4 < k4s; k4 += TPR) {
    let x = A[k4];
    for (var r = 0u; r < ROWS; r++) {
      let row = min(row0 + r, params.N - 1u);
      acc[r] += dot(W[row * k4s + k4], x);
    }
  }
  reduce_rows(&acc, lid);
  if (lane == 0u) {
    for (var r = 0u; r < ROWS; r++) {
      if (row0 + r < params.N) {
        C[row0 + r] = acc[r];
      }
    }
  }
}
