// Sum of `count4` vec4 of f32 (the reduction sweep, SWEEPS.md), two dispatches:
//   partials: workgroup g sums its WG * ITEMS consecutive vec4 (thread t: t, t + WG, …, ITEMS of
//             them, each pass of the workgroup coalesced), then a tree in workgroup memory halves
//             the active threads with a barrier a level; thread 0 writes partial g.
//   finish:   one workgroup of WG sums the `groups` partials (thread t: t, t + WG, …), then the
//             same tree, and writes the total to result[0].
// Dispatch: partials over ceil(count4 / (WG * ITEMS)) workgroups (a grid split into x × y
// continues row-major); finish over one.
struct Params {
  count4: u32,  // vec4 of data
  groups: u32,  // partials written by the first dispatch
}

override WG: u32 = 256u;
override ITEMS: u32 = 1u;

@group(0) @binding(0) var<storage, read> data: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> partial_sums: array<f32>;
@group(0) @binding(2) var<storage, read_write> result: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tree: array<f32, WG>;

fn workgroup_sum(value: f32, lid: u32) -> f32 {
  tree[lid] = value;
  workgroupBarrier();
  for (var width = WG / 2u; width > 0u; width >>= 1u) {
    if (lid < width) {
      tree[lid] += tree[lid + width];
    }
    workgroupBarrier();
  }
  return tree[0];
}

@compute @workgroup_size(WG)
fn partials(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let group = wid.x + wid.y * grid.x;
  let first = group * WG * ITEMS + lid;
  var sum = vec4<f32>(0.0);
  for (var i = 0u; i < ITEMS; i++) {
    let index = first + i * WG;
    if (index < params.count4) {
      sum += data[index];
    }
  }
  let total = workgroup_sum(sum.x + sum.y + sum.z + sum.w, lid);
  if (lid == 0u && group < params.groups) {
    partial_sums[group] = total;
  }
}

@compute @workgroup_size(WG)
fn finish(@builtin(local_invocation_index) lid: u32) {
  var sum = 0.0;
  for (var i = lid; i < params.groups; i += WG) {
    sum += partial_sums[i];
  }
  let total = workgroup_sum(sum, lid);
  if (lid == 0u) {
    result[0] = total;
  }
}
