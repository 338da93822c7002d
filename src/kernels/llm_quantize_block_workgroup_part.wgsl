// The q8 quantizer's block reductions through workgroup memory (a part, first in the kernel:
// then llm_quantize_q8.wgsl, whose WG it uses; the op's subgroups = 0): each of a block's four
// invocations (consecutive, from a multiple of 4) writes its value, one barrier, each reads the
// four. Call from uniform control flow.
var<workgroup> group_max: array<f32, WG>;
var<workgroup> group_sum: array<i32, WG>;

fn block_max(v: f32, lid: u32) -> f32 {
  group_max[lid] = v;
  workgroupBarrier();
  let mate = lid - lid % 4u;  // the block's first invocation
  return max(max(group_max[mate], group_max[mate + 1u]),
             max(group_max[mate + 2u], group_max[mate + 3u]));
}

fn block_sum(v: i32, lid: u32) -> i32 {
  group_sum[lid] = v;
  workgroupBarrier();
  let mate = lid - lid % 4u;
  return group_sum[mate] + group_sum[mate + 1u] + group_sum[mate + 2u] + group_sum[mate + 3u];
}
