// matmul-f32 tuned, GEMV path (M = 1): y[n] = Σ_k x[k] · W[n][k], the weight read as Wᵀ
// [N, K] (the LLM layout: output × input, KERNELS.md) with rows padded with zeros to K4 =
// ceil(K / 4) vec4; x is [1, K] padded the same way. The kernel is a row-sum file,
// llm_gemv_common_part.wgsl (which see), then this file.
//
// Each thread of a row group walks K in vec4 strided by TPR (consecutive threads read
// consecutive 16 bytes of a row: coalesced) and loads x once for its ROWS rows.
// Dispatch: ceil(N / (WG / TPR · ROWS)) workgroups.
@group(0) @binding(0) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> W: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k4s = (params.K + 3u) / 4u;
  let row0 = first_row(wid, groups, lid);
  var acc: array<f32, MAX_ROWS>;
  for (var k4 = lid % TPR; k4 < k4s; k4 += TPR) {
    let x = A[k4];
    for (var r = 0u; r < ROWS; r++) {
      let row = min(row0 + r, params.N - 1u);
      acc[r] += dot(W[row * k4s + k4], x);
    }
  }
  finish_rows(&acc, lid, row0);
}
