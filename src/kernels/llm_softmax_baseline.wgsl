// Softmax, baseline: seed 003 §8 exactly. One workgroup of 256 per row, three passes over the
// row, each reduced by a tree in workgroup memory: (1) the row max, (2) the sum of
// exp(x − max), (3) output = exp(x − max) / sum (recomputing the exponentials). Dispatch:
// (num_rows, 1, 1); a grid beyond the per-dimension limit continues in y.
struct Params {
  num_rows: u32,
  row_size: u32,
}

@group(0) @binding(0) var<storage, read> input: array<f32>;         // [num_rows, row_size]
@group(0) @binding(1) var<storage, read_write> output: array<f32>;  // [num_rows, row_size]
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> shared_data: array<f32, 256>;

// Tree reduction of shared_data (sum, or max with `is_max`); every invocation calls it.
fn tree_reduce(tid: u32, is_max: bool) -> f32 {
  workgroupBarrier();
  for (var stride = 128u; stride > 0u; stride >>= 1u) {
    if (tid < stride) {
      let a = shared_data[tid];
      let b = shared_data[tid + stride];
      shared_data[tid] = select(a + b, max(a, b), is_max);
    }
    workgroupBarrier();
  }
  let result = shared_data[0];
  workgroupBarrier();
  return result;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let row = wid.x + wid.y * groups.x;
  if (row >= params.num_rows) {
    return;
  }
  let base = row * params.row_size;

  var local_max = -3.402823e38;
  for (var i = tid; i < params.row_size; i += 256u) {
    local_max = max(local_max, input[base + i]);
  }
  shared_data[tid] = local_max;
  let row_max = tree_reduce(tid, true);

  var local_sum = 0.0;
  for (var i = tid; i < params.row_size; i += 256u) {
    local_sum += exp(input[base + i] - row_max);
  }
  shared_data[tid] = local_sum;
  let total = tree_reduce(tid, false);

  for (var i = tid; i < params.row_size; i += 256u) {
    output[base + i] = exp(input[base + i] - row_max) / total;
  }
}
