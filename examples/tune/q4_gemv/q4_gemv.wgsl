// A q4 GEMV in ONNX Runtime's MatMulNBits layout (4 bits, blocks of 32, no zero points: each
// value is its nibble minus 8), for `refract tune`'s example: y[n] = Σ_k a[k] · w[n][k], with
// w[n][k] = (q[n][k] − 8) · scales[n][k / 32]. B holds each row's blocks one after the other,
// 16 bytes a block, element 2i in the low nibble of byte i and 2i + 1 in its high nibble (read
// here as 4 little-endian u32 a block, element j of a word in bits 4j..4j+3). A workgroup of WG
// invocations computes ROWS outputs: each invocation sums every WG-th block of each row, then a
// tree in workgroup memory adds the WG partial sums.

override WG: u32 = 64;   // invocations of a workgroup (a power of two)
override ROWS: u32 = 1;  // outputs of a workgroup

struct Dims {
  n: u32,
  k: u32,
  unused0: u32,
  unused1: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;       // [K]
@group(0) @binding(1) var<storage, read> b: array<u32>;       // [N][K / 32][4]
@group(0) @binding(2) var<storage, read> scales: array<f32>;  // [N][K / 32]
@group(0) @binding(3) var<storage, read_write> y: array<f32>; // [N]
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> partial: array<f32, WG * ROWS>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) t: u32) {
  let blocks = dims.k / 32u;
  for (var r = 0u; r < ROWS; r++) {
    let n = group.x * ROWS + r;
    var sum = 0.0;
    if (n < dims.n) {
      for (var block = t; block < blocks; block += WG) {
        let at = n * blocks + block;
        var block_sum = 0.0;
        for (var w = 0u; w < 4u; w++) {
          let word = b[at * 4u + w];
          let k0 = block * 32u + w * 8u;
          for (var j = 0u; j < 8u; j++) {
            block_sum += a[k0 + j] * (f32((word >> (4u * j)) & 0xFu) - 8.0);
          }
        }
        sum += block_sum * scales[at];
      }
    }
    partial[r * WG + t] = sum;
  }
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (t < stride) {
      for (var r = 0u; r < ROWS; r++) {
        partial[r * WG + t] += partial[r * WG + t + stride];
      }
    }
    workgroupBarrier();
  }
  if (t < ROWS) {
    let n = group.x * ROWS + t;
    if (n < dims.n) {
      y[n] = partial[t * WG];
    }
  }
}
