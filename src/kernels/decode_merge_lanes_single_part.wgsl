// How decode_merge_pair_part.wgsl's clusters combine their lanes where the device has no
// subgroups (a part before it): a cluster is one lane, which holds the result already.
const MERGE_LANES = 1u;

fn lanes_max(v: f32) -> f32 {
  return v;
}

fn lanes_sum(v: f32) -> f32 {
  return v;
}

fn lanes_sum4(v: vec4<f32>) -> vec4<f32> {
  return v;
}
