// The f16 sweep's matmul (SWEEPS.md): C[M, N] = A[M, K] · B[K, N] with f16 data, C in f32. A
// workgroup of (BN / TN) × (BM / TM) invocations owns a BM × BN tile of C; each step stages a
// BM × BK tile of A and a BK × BN tile of B in workgroup memory (zeros past the edges), and each
// invocation accumulates its TM × TN outputs over the step, in f32 (ACC_F16 = 0: the f16
// products are exact in f32) or in f16 (ACC_F16 = 1). TM × TN is at most 64 (the accumulator
// arrays' size: a function's arrays cannot be sized by an override).
// Dispatch: ceil(N / BN) × ceil(M / BM) workgroups.
enable f16;

struct Params {
  m: u32,
  n: u32,
  k: u32,
}

override BM: u32 = 64u;
override BN: u32 = 64u;
override BK: u32 = 16u;
override TM: u32 = 4u;
override TN: u32 = 4u;
override ACC_F16: u32 = 0u;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> a_tile: array<f16, BM * BK>;
var<workgroup> b_tile: array<f16, BK * BN>;

@compute @workgroup_size(BN / TN, BM / TM)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) index: u32) {
  let threads = (BN / TN) * (BM / TM);
  let tile_row = wid.y * BM;
  let tile_col = wid.x * BN;
  var acc32: array<f32, 64>;
  var acc16: array<f16, 64>;
  for (var k0 = 0u; k0 < params.k; k0 += BK) {
    for (var i = index; i < BM * BK; i += threads) {
      let row = tile_row + i / BK;
      let col = k0 + i % BK;
      a_tile[i] = select(f16(0.0), a[row * params.k + col], row < params.m && col < params.k);
    }
    for (var i = index; i < BK * BN; i += threads) {
      let row = k0 + i / BN;
      let col = tile_col + i % BN;
      b_tile[i] = select(f16(0.0), b[row * params.n + col], row < params.k && col < params.n);
    }
    workgroupBarrier();
    for (var kk = 0u; kk < BK; kk++) {
      for (var i = 0u; i < TM; i++) {
        let x = a_tile[(lid.y * TM + i) * BK + kk];
        for (var j = 0u; j < TN; j++) {
          let y = b_tile[kk * BN + lid.x * TN + j];
          if (ACC_F16 == 1u) {
            acc16[i * TN + j] = fma(x, y, acc16[i * TN + j]);
          } else {
            acc32[i * TN + j] += f32(x) * f32(y);
          }
        }
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < TM; i++) {
    let row = tile_row + lid.y * TM + i;
    for (var j = 0u; j < TN; j++) {
      let col = tile_col + lid.x * TN + j;
      if (row < params.m && col < params.n) {
        c[row * params.n + col] = select(acc32[i * TN + j], f32(acc16[i * TN + j]), ACC_F16 == 1u);
      }
    }
  }
}
