// matmul-q4 tuned, GEMM path (M > 1): C[M, N] = A[M, K] · dequant(B) with B in the MatMulNBits
// layout (see llm_matmul_q4_tuned_gemv.wgsl), read as u32 words: word w of block kb of row n
// holds elements k = 32 kb + 8 w .. + 7. A and C rows are padded with zeros to a multiple of 4
// floats. Appended to llm_gemm_core_part.wgsl, which holds the algorithm; this file holds the
// entry point and dequantizes B's tile into workgroup memory: each thread loads whole words (8
// codes) with their block's scale and stores (code − 8) × scale for each of the 8 k; BK must be
// a multiple of 8. Codes past K in a partial last block meet A's zeros there.
// Dispatch: (ceil(N / BN), ceil(M / BM), K slices) workgroups of WG threads.
struct Params { M: u32, K: u32, N: u32, k_per_split: u32 }

@group(0) @binding(0) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> B: array<u32>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<vec4<f32>>;
@group(0) @binding(4) var<uniform> params: Params;

var<private> b_words: array<u32, MAX_LOADS>;
var<private> b_scales: array<f32, MAX_LOADS>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  gemm(wid, lid);
}

// Words of rows n0 .. n0 + BN for k0 .. k0 + BK; thread-consecutive along N. Outside B the
// scale is 0, so the staged values are 0.
fn fetch_b(n0: u32, k0: u32, lid: u32) {
  let blocks = (params.K + 31u) / 32u;
  for (var l = 0u; l < BK * BN / 8u / WG; l++) {
    let idx = l * WG + lid;
    let n = n0 + idx % BN;
    let k = k0 + (idx / BN) * 8u;
    var word = 0u;
    var scale = 0.0;
    if (n < params.N && k < blocks * 32u) {
      word = B[(n * blocks + k / 32u) * 4u + (k % 32u) / 8u];
      scale = scales[n * blocks + k / 32u];
    }
    b_words[l] = word;
    b_scales[l] = scale;
  }
}

fn stage_b(lid: u32) {
  for (var l = 0u; l < BK * BN / 8u / WG; l++) {
    let idx = l * WG + lid;
    let n = idx % BN;
    let k = (idx / BN) * 8u;
    for (var j = 0u; j < 8u; j++) {
      let code = (b_words[l] >> (4u * j)) & 0xFu;
      tile_b[(k + j) * (BN / 4u) + n / 4u][n % 4u] = (f32(code) - 8.0) * b_scales[l];
    }
  }
}
