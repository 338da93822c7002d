// Element type of the tuned row kernels where a row's length is not a multiple of 4 (rows would
// not start on a 16-byte boundary): f32, with the interface of llm_row_vec4_part.wgsl.
alias V = f32;
const kWidth = 1u;

fn hsum(v: V) -> f32 {
  return v;
}

fn hmax(v: V) -> f32 {
  return v;
}
