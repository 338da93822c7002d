// Decode attention's merge without reductions (the op's flat_merge = 1). Composed after
// llm_attention_decode, whose Params, bindings, WG (here the merge's invocations), DV and
// kNegative it uses; it reads the partials either split writes. Invocation t of workgroup w takes
// query head w · (WG / DV) + t / DV and vec4 column c = t % DV, and combines every split itself:
// M = max_z m_z, then O = Σ_z o_z · 2^(m_z − M) / Σ_z l_z · 2^(m_z − M). No invocation waits on
// another (the merge of llm_attention_decode runs two workgroup reductions).
// The splits come in chunks of 16 whose 32 loads are issued together (written out, indexed by
// constants only), folded online: each chunk rescales the running sums from the running max to
// the chunk's. A loop that loaded a split a trip waited a round trip a split (on the H200 ~0.3
// µs each). SPLITS = params.splits, a constant, so the chunks' loop has a fixed trip count.
// Requires WG ≥ DV (the op's check).
override SPLITS: u32 = 1u;
override MERGE_HEADS: u32 = WG / DV;  // query heads a workgroup

const kMergeChunk = 16u;

// The running merge of a (head, column): max m, Σ l · 2^(m_z − m) and Σ o · 2^(m_z − m).
struct MergeRun {
  m: f32,
  l: f32,
  o: vec4<f32>,
}

// Split z0 + i's (max, sum) of head h, i < 16 (past the last split, a clamped repeat of it).
fn merge_ml_chunk(h: u32, z0: u32) -> array<vec2<f32>, 16> {
  let n = params.heads;
  let last = SPLITS - 1u;
  return array<vec2<f32>, 16>(
      part_ml[min(z0, last) * n + h], part_ml[min(z0 + 1u, last) * n + h],
      part_ml[min(z0 + 2u, last) * n + h], part_ml[min(z0 + 3u, last) * n + h],
      part_ml[min(z0 + 4u, last) * n + h], part_ml[min(z0 + 5u, last) * n + h],
      part_ml[min(z0 + 6u, last) * n + h], part_ml[min(z0 + 7u, last) * n + h],
      part_ml[min(z0 + 8u, last) * n + h], part_ml[min(z0 + 9u, last) * n + h],
      part_ml[min(z0 + 10u, last) * n + h], part_ml[min(z0 + 11u, last) * n + h],
      part_ml[min(z0 + 12u, last) * n + h], part_ml[min(z0 + 13u, last) * n + h],
      part_ml[min(z0 + 14u, last) * n + h], part_ml[min(z0 + 15u, last) * n + h]);
}

// Split z0 + i's output column c of head h, i < 16 (clamped as merge_ml_chunk).
fn merge_o_chunk(h: u32, c: u32, z0: u32) -> array<vec4<f32>, 16> {
  let n = params.heads;
  let last = SPLITS - 1u;
  return array<vec4<f32>, 16>(
      part_o[(min(z0, last) * n + h) * DV + c], part_o[(min(z0 + 1u, last) * n + h) * DV + c],
      part_o[(min(z0 + 2u, last) * n + h) * DV + c], part_o[(min(z0 + 3u, last) * n + h) * DV + c],
      part_o[(min(z0 + 4u, last) * n + h) * DV + c], part_o[(min(z0 + 5u, last) * n + h) * DV + c],
      part_o[(min(z0 + 6u, last) * n + h) * DV + c], part_o[(min(z0 + 7u, last) * n + h) * DV + c],
      part_o[(min(z0 + 8u, last) * n + h) * DV + c], part_o[(min(z0 + 9u, last) * n + h) * DV + c],
      part_o[(min(z0 + 10u, last) * n + h) * DV + c],
      part_o[(min(z0 + 11u, last) * n + h) * DV + c],
      part_o[(min(z0 + 12u, last) * n + h) * DV + c],
      part_o[(min(z0 + 13u, last) * n + h) * DV + c],
      part_o[(min(z0 + 14u, last) * n + h) * DV + c],
      part_o[(min(z0 + 15u, last) * n + h) * DV + c]);
}

// The largest of the chunk's maxima (a clamped repeat is a split's own: harmless in a max).
fn chunk_max(ml: ptr<function, array<vec2<f32>, 16>>) -> f32 {
  let a = max(vec4<f32>((*ml)[0].x, (*ml)[1].x, (*ml)[2].x, (*ml)[3].x),
              vec4<f32>((*ml)[4].x, (*ml)[5].x, (*ml)[6].x, (*ml)[7].x));
  let b = max(vec4<f32>((*ml)[8].x, (*ml)[9].x, (*ml)[10].x, (*ml)[11].x),
              vec4<f32>((*ml)[12].x, (*ml)[13].x, (*ml)[14].x, (*ml)[15].x));
  let m4 = max(a, b);
  return max(max(m4.x, m4.y), max(m4.z, m4.w));
}

// run += split z's partial (ml, o) weighed against run.m, if z is a split (not a clamped repeat).
fn fold_split(run: ptr<function, MergeRun>, z: u32, ml: vec2<f32>, o: vec4<f32>) {
  if (z < SPLITS) {
    let w = exp2(ml.x - (*run).m);
    (*run).l += w * ml.y;
    (*run).o += w * o;
  }
}

@compute @workgroup_size(WG)
fn merge_flat(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  let h = wid.x * MERGE_HEADS + lid / DV;
  let c = lid % DV;
  if (lid >= MERGE_HEADS * DV || h >= params.heads) {
    return;
  }
  var run = MergeRun(kNegative, 0.0, vec4<f32>(0.0));
  for (var z0 = 0u; z0 < SPLITS; z0 += kMergeChunk) {
    var ml = merge_ml_chunk(h, z0);
    var o = merge_o_chunk(h, c, z0);
    // From the running max to the chunk's (≥ it): exp2 of a difference ≤ 0, never an overflow.
    let m = max(run.m, chunk_max(&ml));
    let rescale = exp2(run.m - m);
    run = MergeRun(m, run.l * rescale, run.o * rescale);
    fold_split(&run, z0, ml[0], o[0]);
    fold_split(&run, z0 + 1u, ml[1], o[1]);
    fold_split(&run, z0 + 2u, ml[2], o[2]);
    fold_split(&run, z0 + 3u, ml[3], o[3]);
    fold_split(&run, z0 + 4u, ml[4], o[4]);
    fold_split(&run, z0 + 5u, ml[5], o[5]);
    fold_split(&run, z0 + 6u, ml[6], o[6]);
    fold_split(&run, z0 + 7u, ml[7], o[7]);
    fold_split(&run, z0 + 8u, ml[8], o[8]);
    fold_split(&run, z0 + 9u, ml[9], o[9]);
    fold_split(&run, z0 + 10u, ml[10], o[10]);
    fold_split(&run, z0 + 11u, ml[11], o[11]);
    fold_split(&run, z0 + 12u, ml[12], o[12]);
    fold_split(&run, z0 + 13u, ml[13], o[13]);
    fold_split(&run, z0 + 14u, ml[14], o[14]);
    fold_split(&run, z0 + 15u, ml[15], o[15]);
  }
  out[h * DV + c] = run.o / run.l;
}
