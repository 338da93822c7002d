// The decode step's gate/up GEMV that ends in its share of the down projection (the last part of
// llm_matmul_q4_tuned_gemv_q8.wgsl's kernel, after decode_silu_quantize_part.wgsl), so that the
// down GEMV takes no dispatch of its own. The workgroup's silu(gate) · up blocks stay in
// workgroup memory as int8 blocks, and the workgroup multiplies them by the down weights' columns
// of those blocks for every row of the hidden size, as the q8 GEMV's block arithmetic does:
//   share_w[r] = Σ_{b of workgroup w} scale_down[r][b] · d_b · (Σ code · q − 8 Σq_b)
// and adds round(share_w[r] · DOWN_FIXED_ONE) to down_sum[r] with an integer atomic: integer sums
// do not depend on the order the workgroups arrive in, so the result is the same on every run.
// The next GEMV's input reads down_sum (decode_addend_fixed_part.wgsl). Each share is rounded to
// 1 / DOWN_FIXED_ONE; a share or a sum past ±2^31 / DOWN_FIXED_ONE comes out wrong (clamped or
// wrapped: the step's check against the CPU model catches it). down_sum must be 0 when the dispatch
// starts: the workgroup of the first blocks sets down_clear to 0, a vector no dispatch reads
// before the next one adds into it (the engine's order: FusedGateUpDown).
// The down weights come a column of blocks at a time (the engine uploads them so:
// ByBlockColumns): block b of row r at b · DOWN_ROWS + r. Each invocation computes the rows
// lid, lid + WG, .. (DOWN_TRIPS of them). The weights of its first MAX_DOWN_TRIPS rows are loaded
// before the silu and the quantizer (issue_early_loads), into private arrays indexed only through
// loops of fixed bounds, so that they stay in registers and their round trip overlaps the
// quantizer's reductions and barriers; rows past those load theirs after the barrier. The form
// is the one measured (H100, 2026-12-07, Qwen2.5-0.5B at S = 1024, experiments/down_early): 9.7-9.9
// µs a dispatch against 11.2-11.4 loaded after the barrier. Small changes of form lost all of it:
// the use loop bounded by the override WG / TPR · ROWS / 64 instead of MAX_DOWN_BLOCKS with the
// blocks.y test (11.3 µs), and a first design whose array was indexed through a loop count known
// only at run time (32.7 µs, experiments/fusion_down). Re-measure any edit of the code below.
@group(0) @binding(6) var<storage, read> down_w: array<vec4<u32>>;              // [I / 32, DOWN_ROWS]
@group(0) @binding(7) var<storage, read> down_scales: array<f32>;               // [I / 32, DOWN_ROWS]
@group(0) @binding(17) var<storage, read_write> down_sum: array<atomic<i32>>;  // [DOWN_ROWS]
@group(0) @binding(18) var<storage, read_write> down_clear: array<i32>;        // [DOWN_ROWS]

override DOWN_ROWS: u32 = 1u;   // the hidden size
override DOWN_TRIPS: u32 = 1u;  // ceil(DOWN_ROWS / WG)
// down_sum's 1.0 (the fixed-point addend the input may read has its own, FIXED_ONE).
override DOWN_FIXED_ONE: f32 = 65536.0;
const MAX_DOWN_BLOCKS = 4u;  // WG / TPR · ROWS / 64 at most (FusedGateUpDown::ConfigFor checks)

var<workgroup> act_codes: array<vec2<u32>, WG / TPR * ROWS / 2u / 8u>;
var<workgroup> act_scale_sums: array<vec2<f32>, WG / TPR * ROWS / 2u / 32u>;

// Call from uniform control flow (every invocation of the workgroup).
fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  let blocks = workgroup_blocks(row0, lid);
  issue_early_loads(row0, n, lid);
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
  for (var t = 0u; t < min(DOWN_TRIPS, MAX_DOWN_TRIPS); t++) {
    let row = lid + t * WG;
    var share = 0.0;
    for (var b = 0u; b < MAX_DOWN_BLOCKS; b++) {
      if (b < blocks.y && (blocks.x + b) * 64u < n) {
        let x0 = vec4<u32>(act_codes[4u * b], act_codes[4u * b + 1u]);
        let x1 = vec4<u32>(act_codes[4u * b + 2u], act_codes[4u * b + 3u]);
        let ds = act_scale_sums[b];
        let dot_block = block_dot(nibbles_of(early_w[t * MAX_DOWN_BLOCKS + b]), x0, x1) - 8i * i32(ds.y);
        share = fma(early_s[t * MAX_DOWN_BLOCKS + b] * ds.x, f32(dot_block), share);
      }
    }
    if (row < DOWN_ROWS) {
      atomicAdd(&down_sum[row], i32(round(share * DOWN_FIXED_ONE)));
    }
  }
  for (var t = MAX_DOWN_TRIPS; t < DOWN_TRIPS; t++) {
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
      atomicAdd(&down_sum[row], i32(round(share * DOWN_FIXED_ONE)));
    }
  }
}

const MAX_DOWN_TRIPS = 4u;  // at most, a lane's down rows whose weights are loaded early
var<private> early_w: array<vec4<u32>, MAX_DOWN_TRIPS * MAX_DOWN_BLOCKS>;
var<private> early_s: array<f32, MAX_DOWN_TRIPS * MAX_DOWN_BLOCKS>;

// The down weights of the lane's first min(DOWN_TRIPS, MAX_DOWN_TRIPS) rows, loaded into registers
// (constant indices once the loops over pipeline constants unroll), used after the barrier. A block
// past the output's last (the last workgroup's) loads the last one's, unused; n is a multiple of
// 64 (the host's check).
fn issue_early_loads(row0: u32, n: u32, lid: u32) {
  let blocks = workgroup_blocks(row0, lid);
  for (var t = 0u; t < min(DOWN_TRIPS, MAX_DOWN_TRIPS); t++) {
    let load_row = min(lid + t * WG, DOWN_ROWS - 1u);
    for (var b = 0u; b < WG / TPR * ROWS / 64u; b++) {
      let at = min(blocks.x + b, n / 64u - 1u) * DOWN_ROWS + load_row;
      early_w[t * MAX_DOWN_BLOCKS + b] = down_w[at];
      early_s[t * MAX_DOWN_BLOCKS + b] = down_scales[at];
    }
  }
}
