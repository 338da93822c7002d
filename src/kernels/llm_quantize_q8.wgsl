// The q8 activations of the q4 GEMV (reference/llm_q8.h): each row of x [M, K] f32 in blocks of
// 32 (row m's blocks m · KB .., KB = ceil(K / 32)), each with
// d = max|x| / 127 (0 for an all-zero block) and codes q = round(x / d) (WGSL's round: half to
// even) clamped to [-127, 127], packed four to a u32 in dot4I8Packed's pairing with MatMulNBits
// nibbles: block b's words 8b .. 8b + 7 = (A0, B0, A1, B1, A2, B2, A3, B3), Aj the codes 8j,
// 8j + 2, 8j + 4, 8j + 6 (lowest byte first), Bj the odd ones; beside them (d, Σq), Σq the
// block's sum of codes (a whole number, exact in f32). Elements past K (in a row) count as 0.
// Four invocations a block, one a group of 8 codes (its words Aj, Bj); they meet in workgroup
// memory for the block's max|x| and Σq. Dispatch ceil(4 · blocks / WG) workgroups (continuing in
// y past the limit); WG a multiple of 4.
struct Params {
  K: u32,       // a row's values
  blocks: u32,  // every row's: M · KB
}

override WG: u32 = 64u;

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> codes: array<vec2<u32>>;  // [blocks · 4]: (Aj, Bj)
@group(0) @binding(2) var<storage, read_write> scale_sums: array<vec2<f32>>;  // [blocks]
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> group_max: array<f32, WG>;
var<workgroup> group_sum: array<i32, WG>;

// Row `row`'s value i (0 past K).
fn value(row: u32, i: u32) -> f32 {
  return select(0.0, x[row * params.K + min(i, params.K - 1u)], i < params.K);
}

// The byte of code q, two's complement.
fn byte_of(q: i32) -> u32 {
  return u32(q) & 0xFFu;
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let item = gid.x + gid.y * groups.x * WG;  // 4 · block + group
  let b = item / 4u;
  let j = item % 4u;
  let row_blocks = (params.K + 31u) / 32u;  // KB
  let row = min(b, params.blocks - 1u) / row_blocks;  // past the blocks: the last row's
  let first = (b % row_blocks) * 32u + j * 8u;
  var amax = 0.0;
  for (var i = 0u; i < 8u; i++) {
    amax = max(amax, abs(value(row, first + i)));
  }
  group_max[lid] = amax;
  workgroupBarrier();
  let mate = lid - j;  // the block's first group
  amax = max(max(group_max[mate], group_max[mate + 1u]),
             max(group_max[mate + 2u], group_max[mate + 3u]));
  let d = amax / 127.0;
  var a = 0u;  // codes 8j, 8j + 2, 8j + 4, 8j + 6, lowest byte first
  var odd = 0u;  // codes 8j + 1, 8j + 3, ..
  var sum = 0i;
  for (var i = 0u; i < 8u; i++) {
    var q = 0i;
    if (d > 0.0) {
      q = i32(clamp(round(value(row, first + i) / d), -127.0, 127.0));
    }
    sum += q;
    let byte = byte_of(q) << (8u * (i / 2u));
    if (i % 2u == 0u) {
      a |= byte;
    } else {
      odd |= byte;
    }
  }
  group_sum[lid] = sum;
  workgroupBarrier();
  if (b >= params.blocks) {
    return;
  }
  codes[item] = vec2<u32>(a, odd);
  if (j == 0u) {
    let total = group_sum[lid] + group_sum[lid + 1u] + group_sum[lid + 2u] + group_sum[lid + 3u];
    scale_sums[b] = vec2<f32>(d, f32(total));
  }
}
