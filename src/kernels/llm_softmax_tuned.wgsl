// Softmax, tuned: one workgroup of WG per row, the row read once: each invocation keeps its VPT
// elements (V = vec4 where the row length is a multiple of 4, else f32) in registers, the row
// max and the sum of exp(x − max) come from workgroup reductions (subgroup operations where the
// device has them, else a tree in workgroup memory: the composed reduction part), and the kept
// exponentials are scaled by 1 / sum and written. Elements beyond WG · VPT of a longer row are
// read again in each phase. Dispatch: (rows, 1, 1), continuing in y beyond the limit.
// Composed after a reduction part (llm_reduce_*_part) and an element part (llm_row_*_part).
struct Params {
  num_rows: u32,
  row_size: u32,  // a multiple of kWidth
}

override WG: u32 = 256u;  // invocations per row
override VPT: u32 = 4u;   // elements of V an invocation keeps, ≤ kMaxKept

const kMaxKept = 16u;
const kNegative = -3.402823e38;

@group(0) @binding(0) var<storage, read> input: array<V>;
@group(0) @binding(1) var<storage, read_write> output: array<V>;
@group(0) @binding(2) var<uniform> params: Params;

// exp(x − m): the max subtraction keeps every exponential ≤ 1.
fn shifted_exp(x: V, m: f32) -> V {
  return exp(x - V(m));
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  reduce_init(lid);
  let row = wid.x + wid.y * groups.x;
  if (row >= params.num_rows) {
    return;
  }
  let n = params.row_size / kWidth;
  let base = row * n;

  var kept: array<V, kMaxKept>;
  var local_max = kNegative;
  for (var j = 0u; j < VPT; j++) {
    let i = lid + j * WG;
    kept[j] = V(kNegative);
    if (i < n) {
      kept[j] = input[base + i];
    }
    local_max = max(local_max, hmax(kept[j]));
  }
  for (var i = lid + VPT * WG; i < n; i += WG) {
    local_max = max(local_max, hmax(input[base + i]));
  }
  let row_max = workgroup_reduce(vec4<f32>(local_max), true).x;

  var local_sum = 0.0;
  for (var j = 0u; j < VPT; j++) {
    kept[j] = shifted_exp(kept[j], row_max);  // kNegative padding becomes 0
    local_sum += hsum(kept[j]);
  }
  for (var i = lid + VPT * WG; i < n; i += WG) {
    local_sum += hsum(shifted_exp(input[base + i], row_max));
  }
  let inv_sum = 1.0 / workgroup_reduce(vec4<f32>(local_sum), false).x;

  for (var j = 0u; j < VPT; j++) {
    let i = lid + j * WG;
    if (i < n) {
      output[base + i] = kept[j] * inv_sum;
    }
  }
  for (var i = lid + VPT * WG; i < n; i += WG) {
    output[base + i] = shifted_exp(input[base + i], row_max) * inv_sum;
  }
}
