// Smoke kernel: out[i] = in[i] * params.scale + params.offset, one element per invocation.
struct Params {
  count: u32,
  scale: f32,
  offset: f32,
  _pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let index = gid.x + gid.y * groups.x * 256u;
  if (index >= params.count) {
    return;
  }
  output[index] = input[index] * params.scale + params.offset;
}
