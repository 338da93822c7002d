// The decode step's gate/up GEMV that ends in its share of the down projection (the last part of
// llm_matmul_q4_tuned_gemv_q8.wgsl's kernel, after decode_silu_quantize_part.wgsl): the
// workgroup's silu(gate) · up blocks stay in workgroup memory as int8 blocks, and the workgroup
// multiplies them by the down weights' columns of those blocks for every row of the hidden size:
//   shares[w][r] = Σ_{b of workgroup w} scale_down[r][b] · d_b · (Σ code · q − 8 Σq_b)
// (the q8 GEMV's block arithmetic, block_dot). The down projection is the sum of the workgroups'
// shares, which the next q/k/v GEMV's input adds (decode_addend_shares_part.wgsl): the down GEMV
// takes no dispatch of its own. The down weights a column of blocks at a time (the engine uploads
// them so: ByBlockColumns): block b of row r at b · DOWN_ROWS + r. Each invocation computes the
// rows lid, lid + WG, .. (at most MAX_DOWN_TRIPS) and issues their weights' loads before the
// silu and the quantizer; a workgroup's blocks past the output (n / 64 blocks) weigh nothing.
@group(0) @binding(6) var<storage, read> down_w: array<vec4<u32>>;       // [I / 32, DOWN_ROWS]
@group(0) @binding(7) var<storage, read> down_scales: array<f32>;        // [I / 32, DOWN_ROWS]
@group(0) @binding(17) var<storage, read_write> down_shares: array<f32>;  // [workgroups, DOWN_ROWS]

override DOWN_ROWS: u32 = 1u;  // the hidden size
const MAX_DOWN_TRIPS = 4u;     // DOWN_ROWS ≤ MAX_DOWN_TRIPS · WG (the host's check)
const MAX_DOWN_BLOCKS = 8u;    // the workgroup's output blocks, WG / TPR · ROWS / 64 (the host's)

var<workgroup> act_codes: array<vec2<u32>, WG / TPR * ROWS / 2u / 8u>;
var<workgroup> act_scale_sums: array<vec2<f32>, WG / TPR * ROWS / 2u / 32u>;

// Call from uniform control flow (every invocation of the workgroup).
fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  let blocks = workgroup_blocks(row0, lid);
  let trips = (DOWN_ROWS + WG - 1u) / WG;
  var w: array<vec4<u32>, MAX_DOWN_TRIPS * MAX_DOWN_BLOCKS>;
  var s: array<f32, MAX_DOWN_TRIPS * MAX_DOWN_BLOCKS>;
  for (var t = 0u; t < trips; t++) {
    let row = min(lid + t * WG, DOWN_ROWS - 1u);
    for (var b = 0u; b < blocks.y; b++) {
      let at = min(blocks.x + b, n / 64u - 1u) * DOWN_ROWS + row;
      w[t * MAX_DOWN_BLOCKS + b] = down_w[at];
      s[t * MAX_DOWN_BLOCKS + b] = down_scales[at];
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
  let share = blocks.x / blocks.y;
  for (var t = 0u; t < trips; t++) {
    var sum = 0.0;
    for (var b = 0u; b < blocks.y && (blocks.x + b) * 64u < n; b++) {
      let x0 = vec4<u32>(act_codes[4u * b], act_codes[4u * b + 1u]);
      let x1 = vec4<u32>(act_codes[4u * b + 2u], act_codes[4u * b + 3u]);
      let ds = act_scale_sums[b];
      let dot_block = block_dot(nibbles_of(w[t * MAX_DOWN_BLOCKS + b]), x0, x1) - 8i * i32(ds.y);
      sum = fma(s[t * MAX_DOWN_BLOCKS + b] * ds.x, f32(dot_block), sum);
    }
    let row = lid + t * WG;
    if (row < DOWN_ROWS) {
      down_shares[share * DOWN_ROWS + row] = sum;
    }
  }
}
