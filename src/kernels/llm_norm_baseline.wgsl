// RMSNorm and LayerNorm baselines, exactly as seed 003 §4-5 describe them, as entry points
// `rmsnorm` and `layernorm` with the seed's bindings each. One workgroup of 256 per row,
// dispatch (T, 1, 1) (a grid split into x × y continues the row index row-major).
// rmsnorm: each thread sums the squares of elements tid, tid + 256, …, a tree in workgroup
// memory adds the 256 partial sums, and each thread writes x / sqrt(mean square + eps) · weight.
// layernorm: two tree reductions in two workgroup arrays, the mean (shared_sum), then the
// variance as the mean of (x − mean)² (shared_sq_sum); each thread writes
// (x − mean) / sqrt(variance + eps) · weight + bias. eps arrives as its f32 bits.
struct Params {
  seq_len: u32,
  hidden_size: u32,
  eps_bits: u32,  // f32 epsilon reinterpreted as u32
  _pad: u32,
}

@group(0) @binding(0) var<storage, read> input: array<f32>;   // [T, hidden_size]
@group(0) @binding(1) var<storage, read> weight: array<f32>;  // [hidden_size]
// rmsnorm's
@group(0) @binding(2) var<storage, read_write> rms_output: array<f32>;  // [T, hidden_size]
@group(0) @binding(3) var<uniform> rms_params: Params;
// layernorm's
@group(0) @binding(2) var<storage, read> ln_bias: array<f32>;          // [hidden_size]
@group(0) @binding(3) var<storage, read_write> ln_output: array<f32>;  // [T, hidden_size]
@group(0) @binding(4) var<uniform> ln_params: Params;

var<workgroup> shared_sum: array<f32, 256>;
var<workgroup> shared_sq_sum: array<f32, 256>;

// Every thread stores its partial sum in data[tid]; returns the total to every thread.
fn tree_sum(data: ptr<workgroup, array<f32, 256>>, tid: u32, partial: f32) -> f32 {
  (*data)[tid] = partial;
  workgroupBarrier();
  for (var stride = 128u; stride > 0u; stride >>= 1u) {
    if (tid < stride) {
      (*data)[tid] += (*data)[tid + stride];
    }
    workgroupBarrier();
  }
  return (*data)[0];
}

fn rms_row(row: u32, tid: u32) {
  let d = rms_params.hidden_size;
  var sum_sq = 0.0;
  for (var i = tid; i < d; i += 256u) {
    sum_sq += input[row * d + i] * input[row * d + i];
  }
  let rms = sqrt(tree_sum(&shared_sum, tid, sum_sq) / f32(d) + bitcast<f32>(rms_params.eps_bits));
  for (var i = tid; i < d; i += 256u) {
    rms_output[row * d + i] = input[row * d + i] / rms * weight[i];
  }
}

fn layer_row(row: u32, tid: u32) {
  let d = ln_params.hidden_size;
  var sum = 0.0;
  for (var i = tid; i < d; i += 256u) {
    sum += input[row * d + i];
  }
  let mean = tree_sum(&shared_sum, tid, sum) / f32(d);
  var sq_sum = 0.0;
  for (var i = tid; i < d; i += 256u) {
    sq_sum += (input[row * d + i] - mean) * (input[row * d + i] - mean);
  }
  let variance = tree_sum(&shared_sq_sum, tid, sq_sum) / f32(d);
  let inv_std = 1.0 / sqrt(variance + bitcast<f32>(ln_params.eps_bits));
  for (var i = tid; i < d; i += 256u) {
    ln_output[row * d + i] = (input[row * d + i] - mean) * inv_std * weight[i] + ln_bias[i];
  }
}

@compute @workgroup_size(256)
fn rmsnorm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
           @builtin(local_invocation_index) tid: u32) {
  let row = wid.x + wid.y * groups.x;
  if (row < rms_params.seq_len) {
    rms_row(row, tid);
  }
}

@compute @workgroup_size(256)
fn layernorm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
             @builtin(local_invocation_index) tid: u32) {
  let row = wid.x + wid.y * groups.x;
  if (row < ln_params.seq_len) {
    layer_row(row, tid);
  }
}
