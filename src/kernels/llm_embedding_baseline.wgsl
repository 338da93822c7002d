// embedding baseline, exactly as seed 003 §1 describes it: output[t, d] = weight[input_ids[t], d],
// a flat gather, one output element a thread: thread idx copies element (idx / hidden_size,
// idx % hidden_size). Dispatch: ceil(T · hidden_size / 256) workgroups of 256. Open detail,
// read plainly: a grid split into x × y (more workgroups than one dimension holds) continues
// the flat index row-major; threads past the output return.
struct Params {
  seq_len: u32,
  hidden_size: u32,
}

@group(0) @binding(0) var<storage, read> input_ids: array<u32>;
@group(0) @binding(1) var<storage, read> weight: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let idx = gid.x + gid.y * groups.x * 256u;
  if (idx >= params.seq_len * params.hidden_size) {
    return;
  }
  let t = idx / params.hidden_size;
  let d = idx % params.hidden_size;
  output[idx] = weight[input_ids[t] * params.hidden_size + d];
}
