// add and mul tuned: output = a + b (entry point `add`) or a * b (`mul`) in vec4, with the
// seed's bindings and uniform. The buffers hold count rounded up to a multiple of 4 floats (the
// inputs' padding zeros); the last vec4 is written whole, so the up to 3 floats past count
// receive the padding's sum or product. A workgroup handles VPT · WG consecutive vec4, thread t
// the vec4 t, t + WG, … (each pass of the workgroup coalesced, VPT loads in flight a thread).
// Dispatch: ceil(ceil(count / 4) / (WG · VPT)) workgroups (a grid split into x × y continues
// row-major).
struct Params {
  count: u32,
}

override WG: u32 = 256u;
override VPT: u32 = 1u;

@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> params: Params;

fn apply(wid: vec3<u32>, groups: vec3<u32>, lid: u32, multiply: bool) {
  let count4 = (params.count + 3u) / 4u;
  let first = (wid.x + wid.y * groups.x) * WG * VPT + lid;
  for (var v = 0u; v < VPT; v++) {
    let i = first + v * WG;
    if (i < count4) {
      let x = a[i];
      let y = b[i];
      output[i] = select(x + y, x * y, multiply);
    }
  }
}

@compute @workgroup_size(WG)
fn add(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
       @builtin(local_invocation_index) lid: u32) {
  apply(wid, groups, lid, false);
}

@compute @workgroup_size(WG)
fn mul(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
       @builtin(local_invocation_index) lid: u32) {
  apply(wid, groups, lid, true);
}
