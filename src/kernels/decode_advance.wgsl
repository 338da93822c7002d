// Moves a decode step's values to the next token on the GPU, so that steps recorded back to back
// in one pass need nothing from the host between them: the step's position and index
// (decode_rope_kv.wgsl's and decode_argmax.wgsl's Step), and decode attention's KV length and
// position offset (ops/attention_rules.h's AttentionDecodeParams), each + 1. The step's
// dispatches read both as uniforms; this dispatch, between two steps, writes them as storage.
// One invocation.
override KV_LEN: u32 = 0u;           // the field index of the KV length in attention
override POSITION_OFFSET: u32 = 3u;  // the field index of the position offset

@group(0) @binding(0) var<storage, read_write> step: array<u32, 4>;       // position, index, -, -
@group(0) @binding(1) var<storage, read_write> attention: array<u32, 8>;  // the params' words

@compute @workgroup_size(1)
fn main() {
  step[0] += 1u;
  step[1] += 1u;
  attention[KV_LEN] += 1u;
  attention[POSITION_OFFSET] += 1u;
}
