// The f32 q4 GEMV's plain input (a part before llm_matmul_q4_tuned_gemv.wgsl): x read from a
// storage buffer, [1, K] as K4 = ceil(K / 4) vec4 (the decode step's o projection merges its
// input from decode attention's partials instead: decode_gemv_merge_input_part.wgsl).
@group(0) @binding(0) var<storage, read> A: array<vec4<f32>>;

// Stages the chunk of CHUNK blocks from block c0 into the kernel's `xs` (block b's 8 vec4 at 9b;
// past K4, zeros). Call from uniform control flow, between the kernel's barriers.
fn stage_input(c0: u32, k4s: u32, lid: u32) {
  for (var i = lid; i < CHUNK * 8u; i += WG) {
    let q = c0 * 8u + i;
    xs[(i / 8u) * 9u + i % 8u] = select(vec4<f32>(0.0), A[min(q, k4s - 1u)], q < k4s);
  }
}
