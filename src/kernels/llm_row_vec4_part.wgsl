// Element type of the tuned row kernels where a row holds a multiple of 4 values: vec4, so every
// load and store moves 16 bytes. (llm_row_scalar_part.wgsl is the same interface for other rows.)
alias V = vec4<f32>;
const kWidth = 4u;

fn hsum(v: V) -> f32 {
  return v.x + v.y + v.z + v.w;
}

fn hmax(v: V) -> f32 {
  return max(max(v.x, v.y), max(v.z, v.w));
}
