// The fused gate/up GEMV's end before its output leaves the workgroup (a part after
// llm_quantize_block_*_part.wgsl and llm_quantize_q8_part.wgsl, before a store part:
// decode_gate_up_silu_store_part.wgsl writes the result to storage for the down GEMV,
// decode_gate_up_down_store_part.wgsl multiplies it by the down projection itself). The weights'
// rows come in pairs (the engine uploads them so: row 2j is gate row j, row 2j + 1 up row j), and
// a workgroup's (WG / TPR) · ROWS rows are whole blocks of 64 (the engine's configuration sees to
// it), so a workgroup holds whole q8 blocks of its output: each row group's first invocation
// writes silu(gate) · up of its pairs to workgroup memory, then four invocations a block quantize
// the block's 32 values as the standalone quantizer does (llm_quantize_q8_part.wgsl). One
// activation row (M_ROWS = 1).
var<workgroup> mixed: array<f32, WG / TPR * ROWS / 2u>;

// Invocation lid's group of 8 of the workgroup's output: group `item` % 4 of the output's block
// `block`, the workgroup's block `item` / 4; `valid` where it is one of the output's.
struct MixedGroup {
  quantized: QuantizedGroup,
  item: u32,
  block: u32,
  valid: bool,
}

// The workgroup's output blocks: the first (of the whole output) and how many. row0 is
// invocation lid's group's first row.
fn workgroup_blocks(row0: u32, lid: u32) -> vec2<u32> {
  return vec2<u32>((row0 - (lid / TPR) * ROWS) / 64u, WG / TPR * ROWS / 64u);
}

// Call from uniform control flow (every invocation of the workgroup).
fn silu_quantize(acc: ptr<function, array<f32, MAX_ROWS>>, row0: u32, n: u32,
                 lid: u32) -> MixedGroup {
  let group = lid / TPR;
  if (lid % TPR == 0u) {
    for (var r = 0u; r + 1u < ROWS; r += 2u) {
      let gate = (*acc)[r];
      mixed[group * (ROWS / 2u) + r / 2u] = gate / (1.0 + exp(-gate)) * (*acc)[r + 1u];
    }
  }
  workgroupBarrier();
  let blocks = workgroup_blocks(row0, lid);
  let item = lid;
  var values: array<f32, 8>;
  let in_range = item < 4u * blocks.y;
  if (in_range) {
    for (var i = 0u; i < 8u; i++) {
      values[i] = mixed[item * 8u + i];
    }
  }
  let block = blocks.x + item / 4u;
  return MixedGroup(quantize_words(values, lid), item, block, in_range && block * 64u < n);
}
