// sum_reduce with subgroupAdd in place of most of the tree (the subgroups sweep, SWEEPS.md):
// each subgroup sums its values with subgroupAdd, its first invocation stores that sum, and a
// tree in workgroup memory over the WG / subgroup_size sums finishes the workgroup. Otherwise
// as sum_reduce, two dispatches:
//   partials: workgroup g sums its WG * ITEMS consecutive vec4 (thread t: t, t + WG, …, ITEMS of
//             them), then its workgroup sum; thread 0 writes partial g.
//   finish:   one workgroup of WG sums the `groups` partials, and writes the total to result[0].
// The subgroups of a workgroup are taken to be its invocations lid / subgroup_size: a device
// that numbers them otherwise computes a wrong sum, which verification rejects.
// Dispatch: partials over ceil(count4 / (WG * ITEMS)) workgroups (a grid split into x × y
// continues row-major); finish over one.
enable subgroups;

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

fn workgroup_sum(value: f32, lid: u32, lane: u32, width: u32) -> f32 {
  let subgroup_total = subgroupAdd(value);
  if (lane == 0u) {
    tree[lid / width] = subgroup_total;
  }
  workgroupBarrier();
  for (var half = WG / width / 2u; half > 0u; half >>= 1u) {
    if (lid < half) {
      tree[lid] += tree[lid + half];
    }
    workgroupBarrier();
  }
  return tree[0];
}

@compute @workgroup_size(WG)
fn partials(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>,
            @builtin(local_invocation_index) lid: u32,
            @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) width: u32) {
  let group = wid.x + wid.y * grid.x;
  let first = group * WG * ITEMS + lid;
  var sum = vec4<f32>(0.0);
  for (var i = 0u; i < ITEMS; i++) {
    let index = first + i * WG;
    if (index < params.count4) {
      sum += data[index];
    }
  }
  let total = workgroup_sum(sum.x + sum.y + sum.z + sum.w, lid, lane, width);
  if (lid == 0u && group < params.groups) {
    partial_sums[group] = total;
  }
}

@compute @workgroup_size(WG)
fn finish(@builtin(local_invocation_index) lid: u32,
          @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) width: u32) {
  var sum = 0.0;
  for (var i = lid; i < params.groups; i += WG) {
    sum += partial_sums[i];
  }
  let total = workgroup_sum(sum, lid, lane, width);
  if (lid == 0u) {
    result[0] = total;
  }
}
