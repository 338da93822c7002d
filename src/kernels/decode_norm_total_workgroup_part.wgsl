// The sum over a workgroup that decode_add_norm_part.wgsl's RMSNorm takes, through workgroup
// memory (a part before it; decode_norm_total_subgroup_part.wgsl where the device has subgroups):
// 16 invocations each add a 16th of the partials, then every invocation adds their 16 sums in the
// same order (two barriers). In halves (norm_publish, then norm_published_total after a barrier
// the caller takes), every invocation adds all WG partials itself. Every workgroup that calls
// them with the same values gets the same total. Call from uniform control flow.
var<workgroup> norm_partials: array<f32, WG>;
var<workgroup> norm_sums: array<f32, 16>;

fn norm_total(v: f32, lid: u32) -> f32 {
  norm_partials[lid] = v;
  workgroupBarrier();
  let share = (WG + 15u) / 16u;
  if (lid < 16u) {
    var sum = 0.0;
    for (var i = lid * share; i < min((lid + 1u) * share, WG); i++) {
      sum += norm_partials[i];
    }
    norm_sums[lid] = sum;
  }
  workgroupBarrier();
  var total = 0.0;
  for (var i = 0u; i < 16u; i++) {
    total += norm_sums[i];
  }
  return total;
}

fn norm_publish(v: f32, lid: u32) {
  norm_partials[lid] = v;
}

fn norm_published_total() -> f32 {
  var total = 0.0;
  for (var i = 0u; i < WG; i++) {
    total += norm_partials[i];
  }
  return total;
}
