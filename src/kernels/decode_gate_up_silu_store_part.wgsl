// The decode step's gate/up GEMV end on q8 activations (the last part of
// llm_matmul_q4_tuned_gemv_q8.wgsl's kernel, after decode_silu_quantize_part.wgsl): what
// decode_quantize_q8.wgsl's silu_mul does after the GEMV, done by the GEMV itself, one dispatch
// fewer a layer: silu(gate) · up as int8 blocks in `out_codes` and `out_scale_sums`, what the
// down GEMV reads.
@group(0) @binding(6) var<storage, read_write> out_codes: array<vec2<u32>>;       // [4 · I / 32]
@group(0) @binding(7) var<storage, read_write> out_scale_sums: array<vec2<f32>>;  // [I / 32]

// Call from uniform control flow (every invocation of the workgroup).
fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  let group = silu_quantize(acc, row0, n, lid);
  if (group.valid) {
    let out_group = group.block * 4u + group.item % 4u;
    out_codes[out_group] = group.quantized.words;
    if (out_group % 4u == 0u) {
      out_scale_sums[out_group / 4u] = vec2<f32>(group.quantized.d, f32(group.quantized.sum));
    }
  }
}
