// The decode step's gate/up GEMV that ends in its share of the down projection (the last part of
// llm_matmul_q4_tuned_gemv_q8.wgsl's kernel, after decode_silu_quantize_part.wgsl), so that the
// down GEMV takes no dispatch of its own. The workgroup's silu(gate) · up blocks stay in
// workgroup memory as int8 blocks, and the workgroup multiplies them by the down weights' columns
// of those blocks for every row of the hidden size, as the q8 GEMV's block arithmetic does:
//   share_w[r] = Σ_{b of workgroup w} scale_down[r][b] · d_b · (Σ code · q − 8 Σq_b)
// and adds round(share_w[r] · FIXED_ONE) to down_sum[r] with an integer atomic: integer sums do
// not depend on the order the workgroups arrive in, so the result is the same on every run. The
// next GEMV's input reads down_sum (decode_addend_fixed_part.wgsl). Each share is rounded to
// 1 / FIXED_ONE; a share or a sum past ±2^31 / FIXED_ONE comes out wrong (clamped or wrapped:
// the step's check against the CPU model catches it). down_sum must be 0 when the dispatch
// starts: the workgroup of the first blocks sets down_clear to 0, a vector no dispatch reads
// before the next one adds into it (the engine's order: FusedGateUpDown).
// The down weights come a column of blocks at a time (the engine uploads them so:
// ByBlockColumns): block b of row r at b · DOWN_ROWS + r. Each invocation computes the rows
// lid, lid + WG, .. (DOWN_TRIPS of them), loading their weights only once the int8 blocks are
// made: issued earlier and held across the quantizer's barrier, the same loads cost the kernel
// 32.7 µs a dispatch on the H100 against 11.3 (experiments/fusion_down).
@group(0) @binding(6) var<storage, read> down_w: array<vec4<u32>>;              // [I / 32, DOWN_ROWS]
@group(0) @binding(7) var<storage, read> down_scales: array<f32>;               // [I / 32, DOWN_ROWS]
@group(0) @binding(17) var<storage, read_write> down_sum: array<atomic<i32>>;  // [DOWN_ROWS]
@group(0) @binding(18) var<storage, read_write> down_clear: array<i32>;        // [DOWN_ROWS]

override DOWN_ROWS: u32 = 1u;   // the hidden size
override DOWN_TRIPS: u32 = 1u;  // ceil(DOWN_ROWS / WG)
override FIXED_ONE: f32 = 65536.0;
const MAX_DOWN_BLOCKS = 4u;  // the workgroup's output blocks, WG / TPR · ROWS / 64 (the host's)

var<workgroup> act_codes: array<vec2<u32>, WG / TPR * ROWS / 2u / 8u>;
var<workgroup> act_scale_sums: array<vec2<f32>, WG / TPR * ROWS / 2u / 32u>;

// Call from uniform control flow (every invocation of the workgroup).
fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  let blocks = workgroup_blocks(row0, lid);
  if (blocks.x == 0u) {
    for (var row = lid; row < DOWN_ROWS; row += WG) {
      down_clear[row] = 0i;
    }
  }
  let group = silu_quantize(acc, row0, n, lid);
  if (group.item < 4u * blocks.y) {
    act_codes[group.item] = group.quantized.words;
    if (group.item % 4u == 0u) {
      act_scale_sums[group.item / 4u] = vec2<f32>(group.quantized.d, f32(group.quantized.sum));
    }
  }
  workgroupBarrier();
  for (var t = 0u; t < DOWN_TRIPS; t++) {
    let row = lid + t * WG;
    let load_row = min(row, DOWN_ROWS - 1u);
    var share = 0.0;
    for (var b = 0u; b < MAX_DOWN_BLOCKS; b++) {
      if (b < blocks.y && (blocks.x + b) * 64u < n) {
        let at = (blocks.x + b) * DOWN_ROWS + load_row;
        let x0 = vec4<u32>(act_codes[4u * b], act_codes[4u * b + 1u]);
        let x1 = vec4<u32>(act_codes[4u * b + 2u], act_codes[4u * b + 3u]);
        let ds = act_scale_sums[b];
        let dot_block = block_dot(nibbles_of(down_w[at]), x0, x1) - 8i * i32(ds.y);
        share = fma(down_scales[at] * ds.x, f32(dot_block), share);
      }
    }
    if (row < DOWN_ROWS) {
      atomicAdd(&down_sum[row], i32(round(share * FIXED_ONE)));
    }
  }
}
