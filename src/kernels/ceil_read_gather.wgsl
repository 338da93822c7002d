// read-gather-16kb / -4mb / -64mb: 1024 workgroups of 256 threads (the read-linear grid); each
// thread steps an LCG h = h * 1664525 + 1013904223 (seeded with t * 2654435761) `loads` times
// and folds data[(h >> 8) & mask] into a vec4 sum, then writes one f32. The window (mask + 1
// vec4s) is a pipeline-overridable constant, so each row compiles its own mask in. Bytes
// counted: threads × loads × 16, which the rows make the bandwidth buffer size (e.g. 64 MiB =
// 16 loads a thread), whatever the window.
override mask: u32;  // window size in vec4s − 1 (the window is a power of two)

struct Params {
  loads: u32,  // loads a thread
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> data: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var h = gid.x * 2654435761u;
  var sum = vec4<f32>(0.0);
  for (var k = 0u; k < params.loads; k++) {
    h = h * 1664525u + 1013904223u;
    sum += data[(h >> 8u) & mask];
  }
  out[gid.x] = (sum.x + sum.y) + (sum.z + sum.w);
}
