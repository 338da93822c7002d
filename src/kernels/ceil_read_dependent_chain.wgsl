// read-dependent-chain: pointer chasing through `next`, a single-cycle permutation of 1,048,576
// u32 indices (4 MiB, built on the host with Sattolo's algorithm). Chain t starts at index
// t * start_stride and loads i = next[i] `hops` times; each load's address is the previous
// load's value, so a chain runs at the memory system's latency, not its bandwidth. The end index
// is stored so the loop cannot be removed.
// Shape of the timed problem: 1024 chains (16 workgroups of 64, one chain a thread, starts
// 1024 apart), 4096 hops. The metric counts hops: chains x hops a dispatch (latency per hop
// = chains / the rate).
struct Params {
  hops: u32,
  start_stride: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> next: array<u32>;
@group(0) @binding(2) var<storage, read_write> ends: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var i = gid.x * params.start_stride;
  for (var h = 0u; h < params.hops; h++) {
    i = next[i];
  }
  ends[gid.x] = i;
}
