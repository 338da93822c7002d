// reduction-subgroup: the wrapping u32 sum of each segment of 256 values, one workgroup of 256
// a segment: subgroupAdd within each subgroup, then one workgroup atomicAdd a subgroup (any
// subgroup size works: 8 on lavapipe, 32 on NVIDIA, 64 on AMD), then thread 0 stores.
// Needs the `subgroups` feature.
// Shape of the timed problem: 64 independent copies of the 256 segments x 256 values of
// CEILINGS.md (16,384 segments, 4,194,304 u32, 16 MiB). The metric counts values summed:
// segments x 256 a dispatch.
enable subgroups;

const kLength = 256u;

@group(0) @binding(1) var<storage, read> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

var<workgroup> total: atomic<u32>;  // zero-initialised for each workgroup

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
  let s = wid.x;
  let sum = subgroupAdd(data[s * kLength + li]);
  if (lane == 0u) {
    atomicAdd(&total, sum);
  }
  workgroupBarrier();
  if (li == 0u) {
    sums[s] = atomicLoad(&total);
  }
}
