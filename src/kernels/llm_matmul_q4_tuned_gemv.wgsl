// matmul-q4 tuned, GEMV path (M = 1): y[n] = Σ_k x[k] · W[n][k] with W in the MatMulNBits
// layout (KERNELS.md): B [N, KB] blocks of 32 codes in one vec4<u32> (KB = ceil(K / 32); code
// 2i in the low nibble of byte i, so word i of a block holds elements 8i .. 8i + 7 in nibble
// order), scales [N, KB] f32, zero point 8. x is [1, K] padded with zeros to K4 = ceil(K / 4)
// vec4. The kernel is a row-sum file, llm_gemv_common_part.wgsl (which see), an input part
// (llm_gemv_f32_input_part.wgsl: x from a storage buffer), llm_q4_decode4_part.wgsl, then this
// file.
//
// The workgroup stages x in workgroup memory, CHUNK blocks (CHUNK · 8 vec4) at a time, since
// loads of x from the storage buffer cost as much as the weights' (docs/MEASURING.md). Each
// thread of a row group walks the chunk's K blocks strided by TPR: one 16-byte load a block and
// a row (consecutive threads read consecutive blocks: coalesced), the block's 8 vec4 of x read
// from workgroup memory once for ROWS rows (x beyond K4 is staged as 0, so a partial last block
// adds nothing past K).
// Codes become floats by llm_q4_decode4_part.wgsl's decode4 (a part before this file); the
// block's dot product is then scaled once.
// Dispatch: ceil(N / (WG / TPR · ROWS)) workgroups. K and N may be fixed at pipeline creation
// (K_COLS, N_ROWS; 0: the uniform's), so that no load's address waits on the uniform's read.
override K_COLS: u32 = 0u;
override N_ROWS: u32 = 0u;

@group(0) @binding(1) var<storage, read> B: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

const CHUNK: u32 = 64u;  // blocks of x staged at a time
// x of CHUNK blocks (CHUNK · 9 vec4, 9216 bytes: within WebGPU's default 16384), block b's 8
// vec4 at 9b: a padded stride, so 8 consecutive blocks' j-th vec4 fall in distinct banks.
var<workgroup> xs: array<vec4<f32>, 576>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k = select(params.K, K_COLS, K_COLS != 0u);
  let n = select(params.N, N_ROWS, N_ROWS != 0u);
  let k4s = (k + 3u) / 4u;
  let blocks = (k + 31u) / 32u;
  let row0 = first_row(wid, groups, lid);
  var acc: array<f32, MAX_ROWS>;
  for (var c0 = 0u; c0 < blocks; c0 += CHUNK) {
    workgroupBarrier();
    stage_input(c0, k4s, lid);
    workgroupBarrier();
    let chunk_end = min(c0 + CHUNK, blocks);
    for (var kb = c0 + lid % TPR; kb < chunk_end; kb += TPR) {
      let base = (kb - c0) * 9u;
      var x: array<vec4<f32>, 8>;
      for (var j = 0u; j < 8u; j++) {
        x[j] = xs[base + j];
      }
      for (var r = 0u; r < ROWS; r++) {
        let row = min(row0 + r, n - 1u);
        let w = B[row * blocks + kb];
        var dot_block = 0.0;
        for (var i = 0u; i < 4u; i++) {
          dot_block += dot(decode4(w[i]), x[2u * i]) + dot(decode4(w[i] >> 16u), x[2u * i + 1u]);
        }
        acc[r] = fma(scales[row * blocks + kb], dot_block, acc[r]);
      }
    }
  }
  finish_rows(&acc, lid, row0);
}
