// The residual add's second addend as a projection in fixed point (a part before
// decode_add_norm_part.wgsl): the dispatch before adds its workgroups' shares of the projection
// into one vector of i32, FIXED_ONE to 1.0, which the GEMV after it reads here: the down
// projection (decode_gate_up_down_store_part.wgsl), read by the next layer's q/k/v GEMV or the
// final norm; the o projection (decode_merge_o_heads.wgsl), read by the gate/up GEMV. K a
// multiple of 8 (the host's check).
@group(0) @binding(16) var<storage, read> addend_fixed: array<vec4<i32>>;  // [K / 4]

override FIXED_ONE: f32 = 65536.0;

// Values first .. first + 7 of the addend, 0 from k on.
fn second_addend(first: u32, k: u32) -> array<f32, 8> {
  var low = vec4<f32>(0.0);
  var high = vec4<f32>(0.0);
  if (first < k) {
    low = vec4<f32>(addend_fixed[first / 4u]) / FIXED_ONE;
    high = vec4<f32>(addend_fixed[first / 4u + 1u]) / FIXED_ONE;
  }
  return array<f32, 8>(low.x, low.y, low.z, low.w, high.x, high.y, high.z, high.w);
}
