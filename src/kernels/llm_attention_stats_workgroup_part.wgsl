// Decode attention's softmax statistics through the workgroup reductions of the composed
// reduction part (either llm_reduce_*_part: its workgroup_reduce; the op's online = 0), before
// llm_attention_decode, which declares SoftmaxStats, GROUP and kNegative: the maximum of each
// head group, the probabilities against it, then their sums — four reductions.
fn softmax_stats(lo: vec4<f32>, hi: vec4<f32>) -> SoftmaxStats {
  let none = vec4<f32>(kNegative);
  let m_lo = workgroup_reduce(lo, true);
  var m_hi = none;
  if (GROUP > 4u) {
    m_hi = workgroup_reduce(hi, true);
  }
  let p_lo = select(exp2(lo - m_lo), vec4<f32>(0.0), lo == none);
  let p_hi = select(exp2(hi - m_hi), vec4<f32>(0.0), hi == none);
  let l_lo = workgroup_reduce(p_lo, false);
  var l_hi = vec4<f32>(0.0);
  if (GROUP > 4u) {
    l_hi = workgroup_reduce(p_hi, false);
  }
  return SoftmaxStats(p_lo, p_hi, m_lo, m_hi, l_lo, l_hi);
}
