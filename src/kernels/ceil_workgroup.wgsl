// workgroup-64 / -128 / -256: y[i] = x[i] * a + b over `count` vec4<f32>, one thread a vec4,
// no loop; the workgroup size is the pipeline-overridable constant `wg` (64, 128 or 256) and
// the grid ceil(count / wg) workgroups, so only the workgroup size differs between the rows.
// Shape of the timed problem: 1,048,576 vec4 (16 MiB in, 16 MiB out). The metric counts f32
// elements: 4 × count a dispatch.
override wg: u32 = 64u;

struct Params {
  count: u32,  // vec4 elements
  a: f32,
  b: f32,
  _pad0: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> y: array<vec4<f32>>;

@compute @workgroup_size(wg)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) {
    return;
  }
  y[i] = x[i] * params.a + params.b;
}
