// Deterministic fill of a vec4<f32> buffer, so bandwidth rows never read all-zero memory
// (which some GPUs compress). Element i = (h & 0xffff, h >> 16, i & 1023, 1) / 65536 with
// h = i * 2654435761 (wrapping): every value is exact in f32.
struct Params {
  count: u32,  // vec4 elements to fill
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> data: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  for (var i = gid.x; i < params.count; i += stride) {
    let h = i * 2654435761u;
    data[i] = vec4<f32>(f32(h & 0xffffu), f32(h >> 16u), f32(i & 1023u), 1.0) * (1.0 / 65536.0);
  }
}
