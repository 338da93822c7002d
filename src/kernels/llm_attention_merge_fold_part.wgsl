// What decode attention's merges share (a part): a running combination of split partials
// (llm_attention_decode's split-minor (max, sum) in base 2 and unnormalised outputs), folded one
// split at a time. Used by llm_attention_decode_subgroup_merge_part.wgsl and the decode step's o
// projection that merges its own input (decode_gemv_merge_input_part.wgsl).

// The largest max m of the splits folded so far, and the sums l and o taken against it.
struct Folded {
  m: f32,
  l: f32,
  o: vec4<f32>,
}

// Folds one split's (max, sum) `ml` and output `part` into `f` (nothing when not `held`).
fn fold(f: ptr<function, Folded>, ml: vec2<f32>, part: vec4<f32>, held: bool) {
  if (held) {
    let top = max((*f).m, ml.x);
    let keep = exp2((*f).m - top);
    let take = exp2(ml.x - top);
    (*f).l = (*f).l * keep + ml.y * take;
    (*f).o = (*f).o * keep + part * take;
    (*f).m = top;
  }
}
