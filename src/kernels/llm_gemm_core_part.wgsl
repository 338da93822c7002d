// The tiled, register-blocked GEMM shared by the tuned f32 and q4 matmuls (M > 1): a part, not a
// kernel. The kernel is this file followed by llm_matmul_f32_tuned_gemm.wgsl or
// llm_matmul_q4_tuned_gemm.wgsl, which hold the entry point and declare the bindings `A`
// (array<vec4<f32>>, [M, K] with rows padded with zeros to K4 = ceil(K / 4) vec4), `C`
// (array<vec4<f32>>, [M, N] with rows of N4 = ceil(N / 4) vec4) and the uniform `params` (M, K, N),
// and provide B through fetch_b(n0, k0, lid) (global → private registers) and stage_b(lid)
// (registers → tile_b, as tile_b[k][n] for k < BK, n < BN of the tile, zeros outside B).
//
// A workgroup computes a BM × BN tile of C with WG = (BM / TM) · (BN / TN) threads; thread (tx, ty)
// owns TM rows × TN columns (TM, TN multiples of 4, at most 8): rows (i4 · (BM / TM) + ty) · 4 + r
// and columns (j · (BN / TN) + tx) · 4 + c, so that neighbouring threads read neighbouring vec4 of
// the tiles (no bank conflicts). Per step of BK along K the workgroup stages A's BM × BK tile
// transposed (tile_a[k][m], rows padded by A_PAD) and B's BK × BN tile in workgroup memory; the
// next step's global loads are issued into registers before the current step's multiply (register
// double buffering). Workgroup z walks the slice [z · k_per_split, min(K, (z + 1) · k_per_split))
// of K (split-K: k_per_split a multiple of BK, the host's; K itself without a split) in steps of
// BK and writes its partial tile at C[z · M .. ]: the host then sums the slices
// (llm_gemm_reduce.wgsl) or, with one slice, binds C itself. Loads outside A or B read 0 and
// outputs outside C are not written. Every load count (BM · BK / 4 / WG vec4 of A a thread, B's likewise)
// must be a whole number of at most MAX_LOADS: the host checks the configuration before compiling.
override BM: u32 = 128u;
override BN: u32 = 128u;
override BK: u32 = 16u;
override TM: u32 = 8u;
override TN: u32 = 8u;
override WG: u32 = (BM / TM) * (BN / TN);

override A_PAD: u32 = 4u;  // floats after each staged row of A (a multiple of 4)

const MAX_TM: u32 = 8u;
const MAX_TN4: u32 = 2u;
const MAX_LOADS: u32 = 8u;

var<workgroup> tile_a: array<vec4<f32>, BK * (BM + A_PAD) / 4u>;
var<workgroup> tile_b: array<vec4<f32>, BK * BN / 4u>;
var<private> acc: array<vec4<f32>, MAX_TM * MAX_TN4>;
var<private> a_regs: array<vec4<f32>, MAX_LOADS>;

// vec4 in one k-row of tile_a.
fn a_row4() -> u32 {
  return (BM + A_PAD) / 4u;
}

fn fetch_a(m0: u32, k0: u32, lid: u32) {
  let k4s = (params.K + 3u) / 4u;
  for (var l = 0u; l < BM * BK / 4u / WG; l++) {
    let idx = l * WG + lid;
    let r = idx / (BK / 4u);
    let k4 = k0 / 4u + idx % (BK / 4u);
    var v = vec4<f32>(0.0);
    if (m0 + r < params.M && k4 < k4s) {
      v = A[(m0 + r) * k4s + k4];
    }
    a_regs[l] = v;
  }
}

fn stage_a(lid: u32) {
  for (var l = 0u; l < BM * BK / 4u / WG; l++) {
    let idx = l * WG + lid;
    let r = idx / (BK / 4u);
    let k = (idx % (BK / 4u)) * 4u;
    for (var c = 0u; c < 4u; c++) {
      tile_a[(k + c) * a_row4() + r / 4u][r % 4u] = a_regs[l][c];
    }
  }
}

fn multiply_tile(tx: u32, ty: u32) {
  for (var k = 0u; k < BK; k++) {
    var a: array<vec4<f32>, 2>;  // MAX_TM / 4
    for (var i4 = 0u; i4 < TM / 4u; i4++) {
      a[i4] = tile_a[k * a_row4() + i4 * (BM / TM) + ty];
    }
    for (var j = 0u; j < TN / 4u; j++) {
      let b = tile_b[k * (BN / 4u) + j * (BN / TN) + tx];
      for (var i = 0u; i < TM; i++) {
        acc[i * MAX_TN4 + j] = fma(vec4<f32>(a[i / 4u][i % 4u]), b, acc[i * MAX_TN4 + j]);
      }
    }
  }
}

fn store_c(m0: u32, n0: u32, slice: u32, tx: u32, ty: u32) {
  let n4s = (params.N + 3u) / 4u;
  for (var i = 0u; i < TM; i++) {
    let row = m0 + ((i / 4u) * (BM / TM) + ty) * 4u + i % 4u;
    for (var j = 0u; j < TN / 4u; j++) {
      let col4 = n0 / 4u + j * (BN / TN) + tx;
      if (row < params.M && col4 < n4s) {
        C[(slice * params.M + row) * n4s + col4] = acc[i * MAX_TN4 + j];
      }
    }
  }
}

// Computes the tile of column tile wid.x and row tile wid.y over the K slice wid.z; the
// including file's entry point (workgroup size WG) calls it.
fn gemm(wid: vec3<u32>, lid: u32) {
  let tx = lid % (BN / TN);
  let ty = lid / (BN / TN);
  let m0 = wid.y * BM;
  let n0 = wid.x * BN;
  let k0 = wid.z * params.k_per_split;
  let steps = (min(params.K, k0 + params.k_per_split) - min(params.K, k0) + BK - 1u) / BK;
  fetch_a(m0, k0, lid);
  fetch_b(n0, k0, lid);
  for (var t = 0u; t < steps; t++) {
    workgroupBarrier();
    stage_a(lid);
    stage_b(lid);
    workgroupBarrier();
    if (t + 1u < steps) {
      fetch_a(m0, k0 + (t + 1u) * BK, lid);
      fetch_b(n0, k0 + (t + 1u) * BK, lid);
    }
    multiply_tile(tx, ty);
  }
  store_c(m0, n0, wid.z, tx, ty);
}
