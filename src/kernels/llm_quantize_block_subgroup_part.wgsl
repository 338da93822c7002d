enable subgroups;
// The q8 quantizer's block reductions through subgroup shuffles (a part, first in the kernel:
// then llm_quantize_q8.wgsl; the op's subgroups = 1). A block's four invocations are consecutive
// invocations from a multiple of 4, so consecutive lanes of one subgroup (subgroups are runs of
// consecutive invocations, at least 4 wide); two shuffles combine them, with no workgroup memory
// and no barrier. Call from uniform control flow.
fn block_max(v: f32, lid: u32) -> f32 {
  let m = max(v, subgroupShuffleXor(v, 1u));
  return max(m, subgroupShuffleXor(m, 2u));
}

fn block_sum(v: i32, lid: u32) -> i32 {
  let s = v + subgroupShuffleXor(v, 1u);
  return s + subgroupShuffleXor(s, 2u);
}
