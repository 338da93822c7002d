// The q8 GEMV's plain input (a part before llm_matmul_q4_tuned_gemv_q8.wgsl): the activation rows'
// codes and (d, Σq) a block, as llm_quantize_q8.wgsl writes them, read from storage buffers.
@group(0) @binding(0) var<storage, read> xq: array<vec4<u32>>;  // [M_ROWS · KB · 2]
@group(0) @binding(5) var<storage, read> x_scale_sums: array<vec2<f32>>;  // [M_ROWS · KB]: (d, Σq)

// Nothing to make: the input is in memory already.
fn prepare_input(wid: vec3<u32>, lid: u32, k: u32) {}

// Words 4i .. 4i + 3 of the codes (block i / 2's groups 2 (i % 2), 2 (i % 2) + 1).
fn input_words(i: u32) -> vec4<u32> {
  return xq[i];
}

// Block b's (d, Σq).
fn input_scale_sum(b: u32) -> vec2<f32> {
  return x_scale_sums[b];
}
