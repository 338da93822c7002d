// The bandwidth sweep's kernels (SWEEPS.md): vec4 traffic over a whole buffer, grid-stride
// (thread t of the grid's T: vec4 t, t + T, …):
//   copy_vec4: destination[i] = source[i]                   (reads and writes every byte)
//   read_vec4: sums[t] = the sum of thread t's vec4's lanes  (reads every byte, writes T floats)
// Dispatch: `threads` / WG workgroups (a grid split into x × y continues row-major).
struct Params {
  count4: u32,   // vec4 in the buffer
  threads: u32,  // invocations of the grid
}

override WG: u32 = 256u;

@group(0) @binding(0) var<storage, read> source: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> destination: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> sums: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

fn thread_index(wid: vec3<u32>, grid: vec3<u32>, lid: u32) -> u32 {
  return (wid.x + wid.y * grid.x) * WG + lid;
}

@compute @workgroup_size(WG)
fn copy_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  for (var i = thread_index(wid, grid, lid); i < params.count4; i += params.threads) {
    destination[i] = source[i];
  }
}

@compute @workgroup_size(WG)
fn read_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, grid, lid);
  if (t >= params.threads) {
    return;
  }
  var sum = vec4<f32>(0.0);
  for (var i = t; i < params.count4; i += params.threads) {
    sum += source[i];
  }
  sums[t] = sum.x + sum.y + sum.z + sum.w;
}
