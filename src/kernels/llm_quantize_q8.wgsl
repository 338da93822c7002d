// The q8 activations of the q4 GEMV (reference/llm_q8.h): each row of x [M, K] f32 in blocks of
// 32 (row m's blocks m · KB .., KB = ceil(K / 32)), block b's words 8b .. 8b + 7 =
// (A0, B0, A1, B1, A2, B2, A3, B3) and its (d, Σq), as llm_quantize_q8_part.wgsl computes them.
// Elements past K (in a row) count as 0. Four invocations a block, one a group of 8 codes (its
// words Aj, Bj); they meet for the block's max|x| and Σq through the block part composed first:
// by subgroup shuffles (llm_quantize_block_subgroup_part) or workgroup memory
// (llm_quantize_block_workgroup_part); then llm_quantize_q8_part, then this file. Dispatch ceil(4 · blocks / WG) workgroups (continuing in y
// past the limit); WG a multiple of 4. K and the blocks may be fixed at pipeline creation
// (K_COLS, BLOCKS): then no load's address waits on the uniform's read.
struct Params {
  K: u32,       // a row's values
  blocks: u32,  // every row's: M · KB
}

override WG: u32 = 64u;
override K_COLS: u32 = 0u;  // K, or 0: params.K
override BLOCKS: u32 = 0u;  // every row's blocks, or 0: params.blocks

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> codes: array<vec2<u32>>;  // [blocks · 4]: (Aj, Bj)
@group(0) @binding(2) var<storage, read_write> scale_sums: array<vec2<f32>>;  // [blocks]
@group(0) @binding(3) var<uniform> params: Params;

// Row `row`'s value i of a row of k (0 past k).
fn value(row: u32, i: u32, k: u32) -> f32 {
  return select(0.0, x[row * k + min(i, k - 1u)], i < k);
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let k = select(params.K, K_COLS, K_COLS != 0u);
  let blocks = select(params.blocks, BLOCKS, BLOCKS != 0u);
  let item = gid.x + gid.y * groups.x * WG;  // 4 · block + group
  let b = item / 4u;
  let j = item % 4u;
  let row_blocks = (k + 31u) / 32u;  // KB
  let row = min(b, blocks - 1u) / row_blocks;  // past the blocks: the last row's
  let first = (b % row_blocks) * 32u + j * 8u;
  var values: array<f32, 8>;
  for (var i = 0u; i < 8u; i++) {
    values[i] = value(row, first + i, k);
  }
  quantize_group(values, item, lid, b < blocks);
}
