// Workgroup-wide reductions through subgroup operations, for the tuned row kernels (composed in
// front of a kernel body that declares `override WG` and calls reduce_init first). Needs the
// `subgroups` feature; makes no assumption about the subgroup size or about which invocations
// share a subgroup: each subgroup takes a slot with one atomic at reduce_init.
enable subgroups;

override PARTS: u32 = (WG + 3u) / 4u;  // subgroups a workgroup can hold (subgroups ≥ 4 wide)

var<workgroup> sg_parts: array<vec4<f32>, 2u * PARTS>;  // two rounds, used alternately
var<workgroup> sg_slots: atomic<u32>;
var<private> sg_slot: u32;    // this invocation's subgroup's slot
var<private> sg_count: u32;   // subgroups in the workgroup
var<private> sg_round: u32;   // reductions done (selects the half of sg_parts)

fn reduce_init(lid: u32) {
  if (lid == 0u) {
    atomicStore(&sg_slots, 0u);
  }
  workgroupBarrier();
  var slot = 0u;
  if (subgroupElect()) {
    slot = atomicAdd(&sg_slots, 1u);
  }
  sg_slot = subgroupBroadcastFirst(slot);
  workgroupBarrier();  // every subgroup has its slot
  sg_count = atomicLoad(&sg_slots);
  sg_round = 0u;
}

// The sum (or, with `is_max`, the component-wise maximum) of `v` over the workgroup, returned
// to every invocation. Call from uniform control flow. Alternating halves of sg_parts make one
// barrier enough: a round's slots are rewritten two rounds later, after every invocation passed
// the next round's barrier.
// One subgroup operation, the one asked for: a `select` of both ran both (on the H200 that cost
// decode attention's split and merge 1.3 µs together, docs/MEASURING.md).
fn workgroup_reduce(v: vec4<f32>, is_max: bool) -> vec4<f32> {
  var part: vec4<f32>;
  if (is_max) {
    part = subgroupMax(v);
  } else {
    part = subgroupAdd(v);
  }
  let half = (sg_round % 2u) * PARTS;
  sg_round += 1u;
  if (subgroupElect()) {
    sg_parts[half + sg_slot] = part;
  }
  workgroupBarrier();
  var total = sg_parts[half];
  for (var i = 1u; i < sg_count; i++) {
    total = select(total + sg_parts[half + i], max(total, sg_parts[half + i]), is_max);
  }
  return total;
}
