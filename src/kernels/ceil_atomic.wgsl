// atomic-direct / -workgroup / -sharded: a 32-bin histogram of `count` u32 keys in [0, 32),
// about half of them 0. Workgroups of 256, grid-stride over the keys.
//   direct:            atomicAdd(&bins[key], 1) in global memory.
//   workgroup_private: atomicAdd into a 32-bin histogram in workgroup memory, then threads
//                      0..31 add the workgroup's non-zero bins to the global bins.
//   sharded:           32 copies of the global bins (128 bytes each); thread t adds to copy
//                      t % 32, so the lanes of a subgroup never hit the same address; then
//   merge_shards:      a second, one-workgroup pass writes bin b = the sum of its 32 copies.
// Bins accumulate over repeated dispatches (wrapping); the check runs on fresh zero buffers.
// Shape of the timed problem: 1,048,576 keys (4 MiB), 256 workgroups (16 keys a thread). The
// metric counts keys: count a dispatch (the merge pass included in the sharded time).
const kBins = 32u;
const kShards = 32u;

struct Params {
  count: u32,  // keys
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> bins: array<atomic<u32>>;  // kBins or kShards x
@group(0) @binding(3) var<storage, read_write> merged: array<u32>;  // merge_shards' kBins

var<workgroup> local_bins: array<atomic<u32>, 32>;

@compute @workgroup_size(256)
fn direct(@builtin(global_invocation_id) gid: vec3<u32>,
          @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  for (var i = gid.x; i < params.count; i += stride) {
    atomicAdd(&bins[keys[i]], 1u);
  }
}

@compute @workgroup_size(256)
fn workgroup_private(@builtin(global_invocation_id) gid: vec3<u32>,
                     @builtin(local_invocation_index) li: u32,
                     @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  for (var i = gid.x; i < params.count; i += stride) {
    atomicAdd(&local_bins[keys[i]], 1u);
  }
  workgroupBarrier();
  if (li < kBins) {
    let n = atomicLoad(&local_bins[li]);
    if (n != 0u) {
      atomicAdd(&bins[li], n);
    }
  }
}

@compute @workgroup_size(256)
fn sharded(@builtin(global_invocation_id) gid: vec3<u32>,
           @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  let shard = (gid.x % kShards) * kBins;
  for (var i = gid.x; i < params.count; i += stride) {
    atomicAdd(&bins[shard + keys[i]], 1u);
  }
}

@compute @workgroup_size(32)
fn merge_shards(@builtin(local_invocation_index) li: u32) {
  var sum = 0u;
  for (var s = 0u; s < kShards; s++) {
    sum += atomicLoad(&bins[s * kBins + li]);
  }
  merged[li] = sum;
}
