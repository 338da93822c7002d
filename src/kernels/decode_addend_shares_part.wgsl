// The residual add's second addend as the sum of the o projection's shares (a part before
// decode_add_norm_part.wgsl): decode_merge_o_heads.wgsl writes each group of query heads' share of
// the o projection, and the GEMV after it adds them up in its input, groups in order, so that
// attention's merge and the o projection take one dispatch. K a multiple of 8 (the host's check).
@group(0) @binding(16) var<storage, read> o_shares: array<vec4<f32>>;  // [O_SHARES, K / 4]

override O_SHARES: u32 = 1u;

// Values first .. first + 7 of the addend, 0 from k on.
fn second_addend(first: u32, k: u32) -> array<f32, 8> {
  var low = vec4<f32>(0.0);
  var high = vec4<f32>(0.0);
  if (first < k) {
    let k4 = k / 4u;
    let at = first / 4u;
    for (var share = 0u; share < O_SHARES; share++) {
      low += o_shares[share * k4 + at];
      high += o_shares[share * k4 + at + 1u];
    }
  }
  return array<f32, 8>(low.x, low.y, low.z, low.w, high.x, high.y, high.z, high.w);
}
