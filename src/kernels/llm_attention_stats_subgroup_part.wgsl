// Decode attention's softmax statistics through subgroups, in one workgroup hand-off (composed
// after llm_reduce_subgroup_part, whose reduce_init gives sg_slot and sg_count, and before
// llm_attention_decode, which declares SoftmaxStats, GROUP and kNegative). Each subgroup takes
// its own max and its sum of exp2 against it (online softmax), its elected invocation writes
// them to its slot, one barrier, then every invocation combines the slots: M = max_s m_s,
// L = Σ_s l_s · 2^(m_s − M), and rescales its own probabilities by 2^(m_own − M). Four
// workgroup reductions (max and sum, two head groups) become one round. The op's online = 1.
var<workgroup> stats_parts: array<vec4<f32>, 4u * PARTS>;  // slot s: m lo, m hi, l lo, l hi

fn softmax_stats(lo: vec4<f32>, hi: vec4<f32>) -> SoftmaxStats {
  let none = vec4<f32>(kNegative);
  let sm_lo = subgroupMax(lo);
  let q_lo = select(exp2(lo - sm_lo), vec4<f32>(0.0), lo == none);
  let sl_lo = subgroupAdd(q_lo);
  var sm_hi = none;
  var q_hi = vec4<f32>(0.0);
  var sl_hi = vec4<f32>(0.0);
  if (GROUP > 4u) {
    sm_hi = subgroupMax(hi);
    q_hi = select(exp2(hi - sm_hi), vec4<f32>(0.0), hi == none);
    sl_hi = subgroupAdd(q_hi);
  }
  if (subgroupElect()) {
    stats_parts[4u * sg_slot] = sm_lo;
    stats_parts[4u * sg_slot + 1u] = sm_hi;
    stats_parts[4u * sg_slot + 2u] = sl_lo;
    stats_parts[4u * sg_slot + 3u] = sl_hi;
  }
  workgroupBarrier();
  var m_lo = stats_parts[0];
  var m_hi = stats_parts[1];
  for (var s = 1u; s < sg_count; s++) {
    m_lo = max(m_lo, stats_parts[4u * s]);
    m_hi = max(m_hi, stats_parts[4u * s + 1u]);
  }
  var l_lo = vec4<f32>(0.0);
  var l_hi = vec4<f32>(0.0);
  for (var s = 0u; s < sg_count; s++) {
    l_lo += stats_parts[4u * s + 2u] * exp2(stats_parts[4u * s] - m_lo);
    l_hi += stats_parts[4u * s + 3u] * exp2(stats_parts[4u * s + 1u] - m_hi);
  }
  return SoftmaxStats(q_lo * exp2(sm_lo - m_lo), q_hi * exp2(sm_hi - m_hi), m_lo, m_hi, l_lo,
                      l_hi);
}
