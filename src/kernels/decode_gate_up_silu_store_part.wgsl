// The decode step's gate/up GEMV end on q8 activations (the last part of
// llm_matmul_q4_tuned_gemv_q8.wgsl's kernel, after llm_quantize_block_workgroup_part.wgsl and
// llm_quantize_q8_part.wgsl): what decode_quantize_q8.wgsl's silu_mul does after the GEMV, done by
// the GEMV itself, one dispatch fewer a layer. The weights' rows come in pairs (the engine
// uploads them so: row 2j is gate row j, row 2j + 1 up row j), and a workgroup's
// (WG / TPR) · ROWS rows are whole blocks of 64 (the engine's configuration sees to it), so a
// workgroup holds whole q8 blocks of its output: each row group's first invocation writes
// silu(gate) · up of its pairs to workgroup memory, then four invocations a block quantize
// the block's 32 values as the standalone quantizer does (llm_quantize_q8_part.wgsl) into
// `out_codes` and `out_scale_sums`, what the down GEMV reads. One activation row (M_ROWS = 1).
@group(0) @binding(6) var<storage, read_write> out_codes: array<vec2<u32>>;       // [4 · I / 32]
@group(0) @binding(7) var<storage, read_write> out_scale_sums: array<vec2<f32>>;  // [I / 32]

var<workgroup> mixed: array<f32, WG / TPR * ROWS / 2u>;

// Call from uniform control flow (every invocation of the workgroup).
fn store_rows(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32, lid: u32) {
  let group = lid / TPR;
  if (lid % TPR == 0u) {
    for (var r = 0u; r + 1u < ROWS; r += 2u) {
      let gate = (*acc)[r];
      mixed[group * (ROWS / 2u) + r / 2u] = gate / (1.0 + exp(-gate)) * (*acc)[r + 1u];
    }
  }
  workgroupBarrier();
  // The workgroup's rows start at its first group's row0; its blocks of 32 outputs follow.
  let first_block = (row0 - group * ROWS) / 64u;
  let blocks = WG / TPR * ROWS / 64u;
  let item = lid;  // group `item` % 4 of the workgroup's block `item` / 4
  var values: array<f32, 8>;
  let in_range = item < 4u * blocks;
  if (in_range) {
    for (var i = 0u; i < 8u; i++) {
      values[i] = mixed[item * 8u + i];
    }
  }
  let block = first_block + item / 4u;
  let quantized = quantize_words(values, lid);
  let out_group = block * 4u + item % 4u;
  if (in_range && block * 64u < n) {
    out_codes[out_group] = quantized.words;
    if (out_group % 4u == 0u) {
      out_scale_sums[out_group / 4u] = vec2<f32>(quantized.d, f32(quantized.sum));
    }
  }
}
