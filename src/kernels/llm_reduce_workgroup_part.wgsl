// Workgroup-wide reductions through workgroup memory (the portable path: no subgroups), for the
// tuned row kernels (composed in front of a kernel body that declares `override WG` and calls
// reduce_init first): a tree over WG slots.
var<workgroup> wg_parts: array<vec4<f32>, WG>;
var<private> wg_lid: u32;

fn reduce_init(lid: u32) {
  wg_lid = lid;
}

// The sum (or, with `is_max`, the component-wise maximum) of `v` over the workgroup, returned
// to every invocation. Call from uniform control flow.
fn workgroup_reduce(v: vec4<f32>, is_max: bool) -> vec4<f32> {
  wg_parts[wg_lid] = v;
  workgroupBarrier();
  var stride = 1u;
  while (stride < WG) {
    stride *= 2u;
  }
  for (stride /= 2u; stride > 0u; stride /= 2u) {
    if (wg_lid < stride && wg_lid + stride < WG) {
      let a = wg_parts[wg_lid];
      let b = wg_parts[wg_lid + stride];
      wg_parts[wg_lid] = select(a + b, max(a, b), is_max);
    }
    workgroupBarrier();
  }
  let total = wg_parts[0];
  workgroupBarrier();  // before the next reduction rewrites the slots
  return total;
}
