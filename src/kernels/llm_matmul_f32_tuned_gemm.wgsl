// matmul-f32 tuned, GEMM path (M > 1): C[M, N] = A[M, K] · B[K, N] with B as [K, N] like the
// baseline, but every row of A, B and C padded with zeros to a multiple of 4 floats (K4 =
// ceil(K / 4), N4 = ceil(N / 4) vec4) so that all global traffic is vec4. Appended to
// llm_gemm_core_part.wgsl, which holds the algorithm; this file supplies B's tile loads and
// the entry point.
// Dispatch: (ceil(N / BN), ceil(M / BM), K slices) workgroups of WG threads.
struct Params { M: u32, K: u32, N: u32, k_per_split: u32 }

@group(0) @binding(0) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> B: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> C: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> params: Params;

var<private> b_regs: array<vec4<f32>, MAX_LOADS>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  gemm(wid, lid);
}

// B rows k0 .. k0 + BK, vec4 columns n0 / 4 .. (n0 + BN) / 4; thread-consecutive along N.
fn fetch_b(n0: u32, k0: u32, lid: u32) {
  let n4s = (params.N + 3u) / 4u;
  for (var l = 0u; l < BK * BN / 4u / WG; l++) {
    let idx = l * WG + lid;
    let k = k0 + idx / (BN / 4u);
    let n4 = n0 / 4u + idx % (BN / 4u);
    var v = vec4<f32>(0.0);
    if (k < params.K && n4 < n4s) {
      v = B[k * n4s + n4];
    }
    b_regs[l] = v;
  }
}

fn stage_b(lid: u32) {
  for (var l = 0u; l < BK * BN / 4u / WG; l++) {
    tile_b[l * WG + lid] = b_regs[l];
  }
}
