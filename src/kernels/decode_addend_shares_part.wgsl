// The residual add's second addend as the sum of a projection's shares (a part before
// decode_add_norm_part.wgsl), added in order: the o projection's, a share a group of query heads
// (decode_merge_o_heads.wgsl), which the gate/up GEMV's input adds, so that attention's merge and
// the o projection take one dispatch; the down projection's, a share a workgroup of the gate/up
// GEMV (decode_gate_up_down_store_part.wgsl), which the next q/k/v GEMV's input adds, so that the
// down GEMV takes none. K a multiple of 8 (the host's check).
@group(0) @binding(16) var<storage, read> addend_shares: array<vec4<f32>>;  // [ADDEND_SHARES, K / 4]

override ADDEND_SHARES: u32 = 1u;

// Values first .. first + 7 of the addend, 0 from k on.
fn second_addend(first: u32, k: u32) -> array<f32, 8> {
  var low = vec4<f32>(0.0);
  var high = vec4<f32>(0.0);
  if (first < k) {
    let k4 = k / 4u;
    let at = first / 4u;
    for (var share = 0u; share < ADDEND_SHARES; share++) {
      low += addend_shares[share * k4 + at];
      high += addend_shares[share * k4 + at + 1u];
    }
  }
  return array<f32, 8>(low.x, low.y, low.z, low.w, high.x, high.y, high.z, high.w);
}
