// add and mul baselines, exactly as seed 003 §11-12 describe them: output[i] = a[i] + b[i]
// (entry point `add`) and output[i] = a[i] * b[i] (`mul`), one element a thread, scalar.
// Dispatch: ceil(count / 256) workgroups of 256. Open detail, read plainly: a grid split into
// x × y continues the index row-major; threads past count return.
struct Params {
  count: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(256)
fn add(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = gid.x + gid.y * groups.x * 256u;
  if (i < params.count) {
    output[i] = a[i] + b[i];
  }
}

@compute @workgroup_size(256)
fn mul(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = gid.x + gid.y * groups.x * 256u;
  if (i < params.count) {
    output[i] = a[i] * b[i];
  }
}
