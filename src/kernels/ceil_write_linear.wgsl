// write-linear: each thread stores vec4(f32(t)) at every vec4 it visits (grid-stride,
// coalesced); no reads. Dispatched as 16,384 workgroups (4,194,304 threads: writes need more
// in flight than reads, see docs/MEASURING.md). Bytes counted: the whole buffer, written once.
struct Params {
  count: u32,  // vec4 elements in `data`
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
  let value = vec4<f32>(f32(gid.x));
  for (var i = gid.x; i < params.count; i += stride) {
    data[i] = value;
  }
}
