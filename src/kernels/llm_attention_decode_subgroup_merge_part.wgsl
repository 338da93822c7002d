// Decode attention's merge through subgroup operations (the op's merge = 2). Composed after
// llm_reduce_subgroup_part (whose `enable subgroups` it needs), llm_attention_decode, whose
// Params, bindings, WG (here the merge's invocations), DV and kNegative it uses, and
// llm_attention_merge_fold_part (Folded, fold); it reads the partials either split writes.
// Each subgroup combines one (query head, vec4 column) pair: pair wid.x · (WG / SG) + lid / SG
// (a subgroup is SG consecutive invocations). Its lanes take the splits lane, lane + SG, ..
// (SPLIT_STEPS of them, four steps' loads issued together) and fold them online into
// (m, l, o); then the subgroup combines its lanes: M = subgroupMax(m),
// L = subgroupAdd(l · 2^(m − M)), O = subgroupAdd(o · 2^(m − M)), and lane 0 writes O / L.
// No workgroup memory and no barrier: the lanes' merge (llm_attention_decode's) waits on two
// workgroup reductions, the flat merge on a loop over every split.
// Requires the device's subgroups to be SG invocations wide and WG a multiple of SG (the op's
// checks).
override SG: u32 = 32u;          // the device's subgroup size
override SPLIT_STEPS: u32 = 1u;  // ceil(splits / SG): the splits a lane folds
// The query heads and splits fixed at pipeline creation, or 0: params' (then every load's
// address waits on the uniform's read).
override MERGE_HEADS: u32 = 0u;
override MERGE_SPLITS: u32 = 0u;

@compute @workgroup_size(WG)
fn merge_subgroup(@builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32,
                  @builtin(subgroup_invocation_id) lane: u32) {
  let heads = select(params.heads, MERGE_HEADS, MERGE_HEADS != 0u);
  let splits = select(params.splits, MERGE_SPLITS, MERGE_SPLITS != 0u);
  let pairs = heads * DV;
  let pair = wid.x * (WG / SG) + lid / SG;
  let clamped = min(pair, pairs - 1u);  // a pair past the last computes a copy, unwritten
  let h = clamped / DV;
  let c = clamped % DV;
  let last = splits - 1u;
  // The partials are split-minor (llm_attention_decode): the lanes' loads of a step are adjacent
  // words (on the H200 0.3-0.7 µs under the split-major layout's, a cache line a lane).
  let ob = (h * DV + c) * splits;
  let mb = h * splits;
  var f = Folded(kNegative, 0.0, vec4<f32>(0.0));
  // Four steps' loads issued together a trip, then folded.
  for (var i = 0u; i < SPLIT_STEPS; i += 4u) {
    let z = lane + i * SG;
    let z0 = min(z, last);
    let z1 = min(z + SG, last);
    let z2 = min(z + 2u * SG, last);
    let z3 = min(z + 3u * SG, last);
    let ml0 = part_ml[mb + z0];
    let ml1 = part_ml[mb + z1];
    let ml2 = part_ml[mb + z2];
    let ml3 = part_ml[mb + z3];
    let o0 = part_o[ob + z0];
    let o1 = part_o[ob + z1];
    let o2 = part_o[ob + z2];
    let o3 = part_o[ob + z3];
    fold(&f, ml0, o0, z < splits);
    fold(&f, ml1, o1, i + 1u < SPLIT_STEPS && z + SG < splits);
    fold(&f, ml2, o2, i + 2u < SPLIT_STEPS && z + 2u * SG < splits);
    fold(&f, ml3, o3, i + 3u < SPLIT_STEPS && z + 3u * SG < splits);
  }
  let top = subgroupMax(f.m);
  let weight = exp2(f.m - top);  // 0 for a lane that holds no split (m = kNegative)
  let total_l = subgroupAdd(f.l * weight);
  let total_o = subgroupAdd(f.o * weight);
  if (lane == 0u && pair < pairs) {
    out[h * DV + c] = total_o / total_l;
  }
}
