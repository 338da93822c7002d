// The residual add's second addend read from the stream's slot b (a part before
// decode_add_norm_part.wgsl, whose kernel declares `stream` and `slots`).

// Values first .. first + 7 of the addend, 0 from k on.
fn second_addend(first: u32, k: u32) -> array<f32, 8> {
  var values: array<f32, 8>;
  for (var i = 0u; i < 8u; i++) {
    values[i] = 0.0;
    if (first + i < k) {
      values[i] = stream[slots.b + first + i];
    }
  }
  return values;
}
