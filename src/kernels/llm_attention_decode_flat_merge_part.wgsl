// Decode attention's merge without reductions (the op's flat_merge = 1). Composed after
// llm_attention_decode, whose Params, bindings, WG (here the merge's invocations), DV and
// kNegative it uses; it reads the partials either split writes. Invocation t of workgroup w takes
// query head w · (WG / DV) + t / DV and vec4 column c = t % DV, and combines every split itself:
// M = max_z m_z, then O = Σ_z o_z · 2^(m_z − M) / Σ_z l_z · 2^(m_z − M). The splits of a head
// are a constant (SPLITS = params.splits), so both passes unroll and issue their loads together;
// no invocation waits on another (the merge of llm_attention_decode runs two workgroup
// reductions). Requires WG ≥ DV (the op's check).
override SPLITS: u32 = 1u;
override MERGE_HEADS: u32 = WG / DV;  // query heads a workgroup

@compute @workgroup_size(WG)
fn merge_flat(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  let h = wid.x * MERGE_HEADS + lid / DV;
  let c = lid % DV;
  if (lid >= MERGE_HEADS * DV || h >= params.heads) {
    return;
  }
  // Four running maxima, so that the loads do not wait on one chain.
  var m4 = vec4<f32>(kNegative);
  let mb = h * SPLITS;              // head h's (max, sum), split-minor (llm_attention_decode)
  let ob = (h * DV + c) * SPLITS;   // column c's partials
  for (var z = 0u; z < SPLITS; z += 4u) {
    let last = SPLITS - 1u;
    m4 = max(m4, vec4<f32>(part_ml[mb + z].x, part_ml[mb + min(z + 1u, last)].x,
                           part_ml[mb + min(z + 2u, last)].x, part_ml[mb + min(z + 3u, last)].x));
  }
  let m = max(max(m4.x, m4.y), max(m4.z, m4.w));
  var o = vec4<f32>(0.0);
  var l = 0.0;
  for (var z = 0u; z < SPLITS; z++) {
    let ml = part_ml[mb + z];
    let w = exp2(ml.x - m);
    o += w * part_o[ob + z];
    l += w * ml.y;
  }
  out[h * DV + c] = o / l;
}
