// read-linear: each thread folds the vec4s it visits (grid-stride, coalesced) into a vec4 sum
// and writes one f32. With the seed's shape (1024 workgroups of 256, a 64 MiB buffer) that is
// 16 vec4 a thread. Bytes counted: the whole buffer, read once.
struct Params {
  count: u32,  // vec4 elements in `data`
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> data: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  var sum = vec4<f32>(0.0);
  for (var i = gid.x; i < params.count; i += stride) {
    sum += data[i];
  }
  out[gid.x] = (sum.x + sum.y) + (sum.z + sum.w);
}
