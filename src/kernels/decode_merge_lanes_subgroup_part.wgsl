enable subgroups;
// How decode_merge_pair_part.wgsl's clusters combine their lanes, through subgroup
// shuffles (a part before it): a butterfly of subgroupShuffleXor over MERGE_LANES consecutive
// invocations, which lie in one subgroup (MERGE_LANES a power of two ≤ the device's smallest
// subgroup; subgroups are runs of consecutive invocations, as the GEMVs' row sums take them).
// Every lane ends holding the result. Call from uniform control flow.
override MERGE_LANES: u32 = 4u;

fn lanes_max(v: f32) -> f32 {
  var m = v;
  for (var stride = MERGE_LANES / 2u; stride > 0u; stride /= 2u) {
    m = max(m, subgroupShuffleXor(m, stride));
  }
  return m;
}

fn lanes_sum(v: f32) -> f32 {
  var s = v;
  for (var stride = MERGE_LANES / 2u; stride > 0u; stride /= 2u) {
    s += subgroupShuffleXor(s, stride);
  }
  return s;
}

fn lanes_sum4(v: vec4<f32>) -> vec4<f32> {
  var s = v;
  for (var stride = MERGE_LANES / 2u; stride > 0u; stride /= 2u) {
    s += subgroupShuffleXor(s, stride);
  }
  return s;
}
