// matmul-q4 tuned-q8, GEMV path (M ≤ 8) on int8 activations: y[m][n] = Σ_k x[m][k] · W[n][k]
// with W in the MatMulNBits layout (as llm_matmul_q4_tuned_gemv.wgsl) and each row of x
// quantized in blocks of 32 (llm_quantize_q8.wgsl: codes packed in dot4I8Packed's pairing, and
// each block's (d, Σq); row m's blocks after row m − 1's). The kernel is llm_dp4a_part.wgsl, a
// row-sum part, llm_gemv_common_part.wgsl (which see), an input part, this file, then a store
// part. The input part gives the activations: llm_gemv_q8_input_part.wgsl reads them from
// storage buffers; the decode step's fused GEMVs make them in the workgroup
// (decode_gemv_norm_input_part.wgsl), once, while the first trip's weights are in flight.
//
// Each invocation of a row group walks the K blocks, K_BATCH blocks a trip: with ADJACENT 0 a
// lane's blocks of a trip lie TPR apart (consecutive invocations read consecutive blocks), with
// 1 they are adjacent (the lanes K_BATCH blocks apart); either way a trip of the row group covers
// TPR · K_BATCH consecutive blocks. Every row's K_BATCH 16-byte loads of weights and scales are
// issued before any is used; then, a block at a time, each row's nibbles unpacked once, and each
// activation row's 32 codes (32 bytes, cached: every weight row reads them) and (d, Σq) loaded
// once for all the rows (on the H200 the LM head's 2 rows a group took
// 25.4 against 26.9 µs with them loaded a row at a time). A block's integer dot is two masks, a
// shift and two dot4I8Packed a word: the low nibbles (0x0F0F0F0F) meet the even codes, the high
// nibbles the odd ones; with the zero point 8 folded in through Σq the block adds
// scale · d · (dot − 8 Σq), exact up to the f32 products.
// Every invocation then calls store_rows (uniform control flow), the kernel's last part, whose
// group's first invocation holds the ROWS · M_ROWS sums: llm_gemv_q8_store_part.wgsl writes them
// to C; the decode step's GEMVs end in decode_qkv_rope_store_part.wgsl and
// decode_gate_up_silu_store_part.wgsl instead.
// Dispatch: ceil(N / (WG / TPR · ROWS)) workgroups; ACCS = ROWS · M_ROWS (≤ MAX_ROWS).
// K and N may be fixed at pipeline creation (K_COLS, N_ROWS): then no load's address waits on
// the uniform, whose read is a round trip before the first weight load can be issued.
override M_ROWS: u32 = 1u;  // activation rows: x [M_ROWS, K], y [M_ROWS, N]
override K_COLS: u32 = 0u;  // K, or 0: params.K
override N_ROWS: u32 = 0u;  // N, or 0: params.N

@group(0) @binding(1) var<storage, read> B: array<vec4<u32>>;   // [N, KB]
@group(0) @binding(2) var<storage, read> scales: array<f32>;    // [N, KB]
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

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

// K blocks a lane loads before it computes (their loads in flight together), 1 to MAX_BATCH: the
// op's `batch` axis (its default rule and the measurements behind it: src/ops/matmul_rules.cpp).
override K_BATCH: u32 = 2u;
const MAX_BATCH = 4u;
// 1: a lane's blocks of a trip adjacent; 0: TPR apart (the op's `adjacent` axis).
override ADJACENT: u32 = 0u;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k = select(params.K, K_COLS, K_COLS != 0u);
  let n = select(params.N, N_ROWS, N_ROWS != 0u);
  let blocks = (k + 31u) / 32u;
  let row0 = first_row(wid, groups, lid);
  var acc: array<f32, MAX_ROWS>;
  // Every invocation runs the same trip count (fixed with K_COLS), its blocks past K masked: on
  // the H200 (2026-12-03, h200-q8-uniform.txt) 1-4 % faster at every decode shape than a loop
  // bounded by each invocation's own next block.
  let trips = (blocks + TPR * K_BATCH - 1u) / (TPR * K_BATCH);
  // A lane's first block of a trip, after the trip's first, and the step between its blocks.
  let lane_first = select(lid % TPR, (lid % TPR) * K_BATCH, ADJACENT == 1u);
  let apart = select(TPR, 1u, ADJACENT == 1u);
  for (var trip = 0u; trip < trips; trip++) {
    let kb0 = trip * TPR * K_BATCH + lane_first;
    // Every row's weight loads first (at indices clamped into the row: a block past K weighs 0
    // below), then each block's activation codes once for all the rows.
    var w: array<vec4<u32>, MAX_ROWS * MAX_BATCH>;
    var scale: array<f32, MAX_ROWS * MAX_BATCH>;
    for (var r = 0u; r < ROWS; r++) {
      let row = min(row0 + r, n - 1u);
      for (var u = 0u; u < K_BATCH; u++) {
        let kb = min(kb0 + u * apart, blocks - 1u);
        w[r * K_BATCH + u] = B[row * blocks + kb];
        scale[r * K_BATCH + u] = scales[row * blocks + kb];
      }
    }
    // The input made while the first trip's weights are in flight (their addresses wait on
    // nothing the input part computes).
    if (trip == 0u) {
      prepare_input(wid, lid, k);
    }
    for (var u = 0u; u < K_BATCH; u++) {
      let kb = kb0 + u * apart;
      if (kb < blocks) {
        var nibbles: array<Nibbles, MAX_ROWS>;
        for (var r = 0u; r < ROWS; r++) {
          nibbles[r] = nibbles_of(w[r * K_BATCH + u]);
        }
        for (var m = 0u; m < M_ROWS; m++) {
          let xb = m * blocks + kb;
          let ds = input_scale_sum(xb);
          let x0 = input_words(2u * xb);
          let x1 = input_words(2u * xb + 1u);
          for (var r = 0u; r < ROWS; r++) {
            let dot_block = block_dot(nibbles[r], x0, x1) - 8i * i32(ds.y);
            acc[r * M_ROWS + m] =
                fma(scale[r * K_BATCH + u] * ds.x, f32(dot_block), acc[r * M_ROWS + m]);
          }
        }
      }
    }
  }
  reduce_rows(&acc, lid);
  store_rows(&acc, row0, n, lid);
}
