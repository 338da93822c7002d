// Decode attention's merge through subgroup operations (the op's merge = 2). Composed after
// llm_reduce_subgroup_part (whose `enable subgroups` it needs) and llm_attention_decode, whose
// Params, bindings, WG (here the merge's invocations), DV and kNegative it uses; it reads the
// partials either split writes.
// Each subgroup combines one (query head, vec4 column) pair: pair wid.x · (WG / SG) + lid / SG
// (a subgroup is SG consecutive invocations). Its lanes take the splits lane, lane + SG, ..
// (SPLIT_STEPS of them, a constant, so that every step's loads are issued together) and fold
// them online into (m, l, o); then the subgroup combines its lanes: M = subgroupMax(m),
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
  var m = kNegative;
  var l = 0.0;
  var o = vec4<f32>(0.0);
  for (var i = 0u; i < SPLIT_STEPS; i++) {
    let z = lane + i * SG;
    let slot = min(z, splits - 1u) * heads + h;
    let ml = part_ml[slot];
    let part = part_o[slot * DV + c];
    if (z < splits) {
      let top = max(m, ml.x);
      let keep = exp2(m - top);
      let take = exp2(ml.x - top);
      l = l * keep + ml.y * take;
      o = o * keep + part * take;
      m = top;
    }
  }
  let top = subgroupMax(m);
  let weight = exp2(m - top);  // 0 for a lane that holds no split (m = kNegative)
  let total_l = subgroupAdd(l * weight);
  let total_o = subgroupAdd(o * weight);
  if (lane == 0u && pair < pairs) {
    out[h * DV + c] = total_o / total_l;
  }
}
