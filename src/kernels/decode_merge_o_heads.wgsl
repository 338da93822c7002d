// The decode step's attention merge and o projection, a group of query heads a workgroup row (a
// kernel after llm_attention_merge_fold_part.wgsl, a lanes part, decode_merge_lanes_*_part.wgsl,
// decode_merge_pair_part.wgsl and llm_q4_decode4_part.wgsl): workgroup (chunk, group) merges the
// split partials of the group's heads into their outputs o_g (GROUP_BLOCKS · 32 values, in
// workgroup memory), then multiplies them by the o weights' columns of those heads for its chunk
// of rows:
//   out[group][n] = Σ_{j < GROUP_BLOCKS · 32} W_o[n][group · GROUP_BLOCKS · 32 + j] · o_g[j].
// The o projection is the sum of these shares over the groups: each workgroup adds its shares
// round(out[group][n] · FIXED_ONE) into o_sum[n] with an integer atomic (integer sums do not
// depend on the order the workgroups arrive in), which the gate/up GEMV's input reads as the
// residual's second addend (decode_addend_fixed_part.wgsl). So attention's merge and the o GEMV
// take one dispatch, and a head is merged by its chunks' workgroups only, where the o GEMV that
// merges its own input (decode_gemv_merge_input_part.wgsl) merges every head in every workgroup.
// o_sum must be 0 when the dispatch starts: workgroup (0, 0) sets o_clear to 0, a vector no
// dispatch reads before the next one adds into it (the engine's order: the layer before's sum,
// which its gate/up GEMV has read). A share past ±2^31 / FIXED_ONE comes out wrong (the step's
// check against the CPU model catches it).
// The weights a column of blocks at a time (the engine uploads them so: ByBlockColumns): block b
// of row n at b · N_ROWS + n, so that a lane a row loads coalesced. An invocation computes ROWS
// rows, lid, lid + WG, .. of its workgroup's WG · ROWS, and issues their weights' loads before
// the merge's. Dispatch: (ceil(N_ROWS / (WG · ROWS)), heads / heads a group) workgroups.
override WG: u32 = 128u;
override ROWS: u32 = 1u;          // rows an invocation, ≤ MAX_ROWS
override N_ROWS: u32 = 1u;        // the hidden size
override GROUP_BLOCKS: u32 = 2u;  // a group's blocks of 32 a row, ≤ MAX_GROUP_BLOCKS
const MAX_ROWS = 4u;
const MAX_GROUP_BLOCKS = 8u;

@group(0) @binding(1) var<storage, read> B: array<vec4<u32>>;  // [KB, N_ROWS]
@group(0) @binding(2) var<storage, read> scales: array<f32>;   // [KB, N_ROWS]
@group(0) @binding(3) var<storage, read_write> o_sum: array<atomic<i32>>;  // [N_ROWS]
@group(0) @binding(4) var<storage, read_write> o_clear: array<i32>;        // [N_ROWS]

override FIXED_ONE: f32 = 1048576.0;

var<workgroup> merged: array<vec4<f32>, MAX_GROUP_BLOCKS * 8u>;  // o_g, GROUP_BLOCKS · 8 vec4

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let group = wid.y;
  let first = wid.x * WG * ROWS + lid;
  var w: array<vec4<u32>, MAX_ROWS * MAX_GROUP_BLOCKS>;
  var s: array<f32, MAX_ROWS * MAX_GROUP_BLOCKS>;
  for (var r = 0u; r < ROWS; r++) {
    let row = min(first + r * WG, N_ROWS - 1u);
    for (var b = 0u; b < GROUP_BLOCKS; b++) {
      let at = (group * GROUP_BLOCKS + b) * N_ROWS + row;
      w[r * GROUP_BLOCKS + b] = B[at];
      s[r * GROUP_BLOCKS + b] = scales[at];
    }
  }
  if (wid.x == 0u && wid.y == 0u) {
    for (var row = lid; row < N_ROWS; row += WG) {
      o_clear[row] = 0i;
    }
  }
  // The group's columns (vec4 pairs of its heads, consecutive), a cluster of MERGE_LANES
  // invocations a column.
  let columns = GROUP_BLOCKS * 8u;
  let clusters = WG / MERGE_LANES;
  for (var c0 = 0u; c0 < columns; c0 += clusters) {
    let c = c0 + lid / MERGE_LANES;
    // A column past the last merges a copy, unkept.
    let column = merge_pair(group * columns + min(c, columns - 1u), lid % MERGE_LANES);
    if (lid % MERGE_LANES == 0u && c < columns) {
      merged[c] = column;
    }
  }
  workgroupBarrier();
  for (var r = 0u; r < ROWS; r++) {
    var acc = 0.0;
    for (var b = 0u; b < GROUP_BLOCKS; b++) {
      let words = w[r * GROUP_BLOCKS + b];
      var dot_block = 0.0;
      for (var i = 0u; i < 4u; i++) {
        dot_block += dot(decode4(words[i]), merged[8u * b + 2u * i]) +
                     dot(decode4(words[i] >> 16u), merged[8u * b + 2u * i + 1u]);
      }
      acc = fma(s[r * GROUP_BLOCKS + b], dot_block, acc);
    }
    let row = first + r * WG;
    if (row < N_ROWS) {
      atomicAdd(&o_sum[row], i32(round(acc * FIXED_ONE)));
    }
  }
}
