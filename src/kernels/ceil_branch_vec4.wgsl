// branch-vec4-select / -if: `steps` conditional updates of every lane of `count` vec4<f32>,
// in place: x = x < 1024 ? x * 2 + 1 : x * 2 - 2048 (a twisted ring counter on the integers in
// [0, 2048), exact in f32; neighbouring lanes are at different phases, so the condition
// diverges within a subgroup).
//   with_select: one select() on the whole vec4 (both sides computed, no branch).
//   with_if:     an if/else per component.
// Shape of the timed problem: 262,144 vec4 (4 MiB), 64 steps, 1024 workgroups of 256. The
// metric counts lane-steps: count x 4 x steps a dispatch.
struct Params {
  count: u32,  // vec4 elements
  steps: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> data: array<vec4<f32>>;

@compute @workgroup_size(256)
fn with_select(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) {
    return;
  }
  var v = data[i];
  for (var k = 0u; k < params.steps; k++) {
    v = select(v * 2.0 - 2048.0, v * 2.0 + 1.0, v < vec4<f32>(1024.0));
  }
  data[i] = v;
}

@compute @workgroup_size(256)
fn with_if(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) {
    return;
  }
  var v = data[i];
  for (var k = 0u; k < params.steps; k++) {
    if (v.x < 1024.0) {
      v.x = v.x * 2.0 + 1.0;
    } else {
      v.x = v.x * 2.0 - 2048.0;
    }
    if (v.y < 1024.0) {
      v.y = v.y * 2.0 + 1.0;
    } else {
      v.y = v.y * 2.0 - 2048.0;
    }
    if (v.z < 1024.0) {
      v.z = v.z * 2.0 + 1.0;
    } else {
      v.z = v.z * 2.0 - 2048.0;
    }
    if (v.w < 1024.0) {
      v.w = v.w * 2.0 + 1.0;
    } else {
      v.w = v.w * 2.0 - 2048.0;
    }
  }
  data[i] = v;
}
