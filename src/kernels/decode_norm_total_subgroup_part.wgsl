enable subgroups;
// The sum over a workgroup that decode_add_norm_part.wgsl's RMSNorm takes, through subgroup
// shuffles (a part before it, where the device has subgroups): each run of NORM_LANES
// consecutive invocations adds its values by a butterfly of subgroupShuffleXor (a run lies in one
// subgroup: NORM_LANES ≤ the device's smallest subgroup, subgroups being runs of consecutive
// invocations from a multiple of their size, as the GEMVs' row sums take them), the run's first
// invocation writes the run's sum, one barrier, and every invocation adds the WG / NORM_LANES sums
// in the same order (or in halves: norm_publish, a barrier the caller takes, norm_published_total).
// Every workgroup that calls it with the same values gets the same total. NORM_LANES a power of
// two dividing WG. Call from uniform control flow.
override NORM_LANES: u32 = 4u;

var<workgroup> norm_run_sums: array<f32, WG / NORM_LANES>;

// norm_total's first half: the run's sum published to workgroup memory. Call from uniform
// control flow.
fn norm_publish(v: f32, lid: u32) {
  var sum = v;
  for (var stride = NORM_LANES / 2u; stride > 0u; stride /= 2u) {
    sum += subgroupShuffleXor(sum, stride);
  }
  if (lid % NORM_LANES == 0u) {
    norm_run_sums[lid / NORM_LANES] = sum;
  }
}

// Its second half, after a barrier that follows every invocation's norm_publish.
fn norm_published_total() -> f32 {
  var total = 0.0;
  for (var i = 0u; i < WG / NORM_LANES; i++) {
    total += norm_run_sums[i];
  }
  return total;
}

fn norm_total(v: f32, lid: u32) -> f32 {
  norm_publish(v, lid);
  workgroupBarrier();
  return norm_published_total();
}
