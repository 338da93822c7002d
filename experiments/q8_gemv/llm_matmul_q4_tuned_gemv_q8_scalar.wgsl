// matmul-q4 tuned-q8, GEMV path (M ≤ 8) on int8 activations: y[m][n] = Σ_k x[m][k] · W[n][k]
// with W in the MatMulNBits layout (as llm_matmul_q4_tuned_gemv.wgsl) and each row of x
// quantized in blocks of 32 (llm_quantize_q8.wgsl: codes packed in dot4I8Packed's pairing, and
// each block's (d, Σq); row m's blocks after row m − 1's). The kernel is llm_dp4a_part.wgsl, a
// row-sum part, llm_gemv_common_part.wgsl (which see), then this file.
//
// Each invocation of a row group walks the K blocks strided by TPR, kBatch blocks at a time:
// every row's kBatch 16-byte loads of weights (consecutive invocations read consecutive blocks:
// coalesced) and scales issued before any is used; then, a block at a time, each row's nibbles
// unpacked once, and each activation row's 32 codes (32 bytes, cached: every weight row reads
// them) and (d, Σq) loaded once for all the rows (on the H200 the LM head's 2 rows a group took
// 25.4 against 26.9 µs with them loaded a row at a time). A block's integer dot is two masks, a
// shift and two dot4I8Packed a word: the low nibbles (0x0F0F0F0F) meet the even codes, the high
// nibbles the odd ones; with the zero point 8 folded in through Σq the block adds
// scale · d · (dot − 8 Σq), exact up to the f32 products.
// Dispatch: ceil(N / (WG / TPR · ROWS)) workgroups; ACCS = ROWS · M_ROWS (≤ MAX_ROWS).
// K and N may be fixed at pipeline creation (K_COLS, N_ROWS): then no load's address waits on
// the uniform, whose read is a round trip before the first weight load can be issued.
override M_ROWS: u32 = 1u;  // activation rows: x [M_ROWS, K], y [M_ROWS, N]
override K_COLS: u32 = 0u;  // K, or 0: params.K
override N_ROWS: u32 = 0u;  // N, or 0: params.N

@group(0) @binding(0) var<storage, read> xq: array<vec4<u32>>;  // [M_ROWS · KB · 2]
@group(0) @binding(1) var<storage, read> B: array<vec4<u32>>;   // [N, KB]
@group(0) @binding(2) var<storage, read> scales: array<f32>;    // [N, KB]
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;
@group(0) @binding(5) var<storage, read> x_scale_sums: array<vec2<f32>>;  // [M_ROWS · KB]: (d, Σq)

// A block's weight words split into the nibbles dot4I8Packed meets: the low ones (even codes)
// and the high ones (odd codes), each a byte.
struct Nibbles {
  lo: vec4<u32>,
  hi: vec4<u32>,
}

fn nibbles_of(w: vec4<u32>) -> Nibbles {
  let m = vec4<u32>(0x0F0F0F0Fu);
  return Nibbles(w & m, (w >> vec4<u32>(4u)) & m);
}

// Σ code · q over one block: `n` its weights' nibbles, `x0`, `x1` its eight code words.
fn block_dot(n: Nibbles, x0: vec4<u32>, x1: vec4<u32>) -> i32 {
  var s = dot4I8Packed(n.lo.x, x0.x) + dot4I8Packed(n.hi.x, x0.y);
  s += dot4I8Packed(n.lo.y, x0.z) + dot4I8Packed(n.hi.y, x0.w);
  s += dot4I8Packed(n.lo.z, x1.x) + dot4I8Packed(n.hi.z, x1.y);
  s += dot4I8Packed(n.lo.w, x1.z) + dot4I8Packed(n.hi.w, x1.w);
  return s;
}

// K blocks a lane loads before it computes (their loads in flight together). On the H200 2 beat
// 4 by 1–3 % at every decode shape and 8 lost 10–20 % (docs/results/archive/h200-q8-variants.txt).
const kBatch = 2u;
// The scalar path's blocks a trip (this variant's axis, set by sed: 2 or 4).
const kScalarBatch = 2u;

// One row, one activation row (ROWS = M_ROWS = 1): each lane keeps its weights, scales and sum
// in named scalars, no function-scope array indexed in a loop (the hypothesis under test: such
// arrays may live in local memory on a driver that does not promote them to registers).
fn row_sum_scalar(row0: u32, lid: u32, blocks: u32, n: u32) -> f32 {
  let row = min(row0, n - 1u) * blocks;
  var sum = 0.0;
  for (var kb0 = lid % TPR; kb0 < blocks; kb0 += TPR * kScalarBatch) {
    let kb1 = kb0 + TPR;
    let kb2 = kb0 + 2u * TPR;
    let kb3 = kb0 + 3u * TPR;
    let last = blocks - 1u;
    let w0 = B[row + kb0];
    let s0 = scales[row + kb0];
    let w1 = B[row + min(kb1, last)];
    let s1 = scales[row + min(kb1, last)];
    var w2 = vec4<u32>();
    var s2 = 0.0;
    var w3 = vec4<u32>();
    var s3 = 0.0;
    if (kScalarBatch == 4u) {
      w2 = B[row + min(kb2, last)];
      s2 = scales[row + min(kb2, last)];
      w3 = B[row + min(kb3, last)];
      s3 = scales[row + min(kb3, last)];
    }
    let ds0 = x_scale_sums[kb0];
    sum = fma(s0 * ds0.x,
              f32(block_dot(nibbles_of(w0), xq[2u * kb0], xq[2u * kb0 + 1u]) - 8i * i32(ds0.y)),
              sum);
    if (kb1 < blocks) {
      let ds = x_scale_sums[kb1];
      sum = fma(s1 * ds.x,
                f32(block_dot(nibbles_of(w1), xq[2u * kb1], xq[2u * kb1 + 1u]) - 8i * i32(ds.y)),
                sum);
    }
    if (kScalarBatch == 4u && kb2 < blocks) {
      let ds = x_scale_sums[kb2];
      sum = fma(s2 * ds.x,
                f32(block_dot(nibbles_of(w2), xq[2u * kb2], xq[2u * kb2 + 1u]) - 8i * i32(ds.y)),
                sum);
    }
    if (kScalarBatch == 4u && kb3 < blocks) {
      let ds = x_scale_sums[kb3];
      sum = fma(s3 * ds.x,
                f32(block_dot(nibbles_of(w3), xq[2u * kb3], xq[2u * kb3 + 1u]) - 8i * i32(ds.y)),
                sum);
    }
  }
  return sum;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k = select(params.K, K_COLS, K_COLS != 0u);
  let n = select(params.N, N_ROWS, N_ROWS != 0u);
  let blocks = (k + 31u) / 32u;
  let row0 = first_row(wid, groups, lid);
  var acc: array<f32, MAX_ROWS>;
  if (ROWS == 1u && M_ROWS == 1u) {
    acc[0] = row_sum_scalar(row0, lid, blocks, n);
  } else {
    for (var kb0 = lid % TPR; kb0 < blocks; kb0 += TPR * kBatch) {
      // Every row's weight loads first (at indices clamped into the row: a block past K weighs 0
      // below), then each block's activation codes once for all the rows.
      var w: array<vec4<u32>, MAX_ROWS * kBatch>;
      var scale: array<f32, MAX_ROWS * kBatch>;
      for (var r = 0u; r < ROWS; r++) {
        let row = min(row0 + r, n - 1u);
        for (var u = 0u; u < kBatch; u++) {
          let kb = min(kb0 + u * TPR, blocks - 1u);
          w[r * kBatch + u] = B[row * blocks + kb];
          scale[r * kBatch + u] = scales[row * blocks + kb];
        }
      }
      for (var u = 0u; u < kBatch; u++) {
        let kb = kb0 + u * TPR;
        if (kb < blocks) {
          var nibbles: array<Nibbles, MAX_ROWS>;
          for (var r = 0u; r < ROWS; r++) {
            nibbles[r] = nibbles_of(w[r * kBatch + u]);
          }
          for (var m = 0u; m < M_ROWS; m++) {
            let xb = m * blocks + kb;
            let ds = x_scale_sums[xb];
            let x0 = xq[2u * xb];
            let x1 = xq[2u * xb + 1u];
            for (var r = 0u; r < ROWS; r++) {
              let dot_block = block_dot(nibbles[r], x0, x1) - 8i * i32(ds.y);
              acc[r * M_ROWS + m] =
                  fma(scale[r * kBatch + u] * ds.x, f32(dot_block), acc[r * M_ROWS + m]);
            }
          }
        }
      }
    }
  }
  reduce_rows(&acc, lid);
  if (lid % TPR == 0u) {
    for (var r = 0u; r < ROWS; r++) {
      for (var m = 0u; m < M_ROWS; m++) {
        if (row0 + r < n) {
          C[m * n + row0 + r] = acc[r * M_ROWS + m];
        }
      }
    }
  }
}
