// A decode step's embedding: out[i] = (code_i − 8) · scale of row `ids[t]` of a q4 MatMulNBits
// matrix [vocab, hidden] (llm_q4.h: a row's blocks of 32 codes in 16 bytes, low nibble first,
// one f32 scale a block), for T tokens whose ids the GPU holds (the last step's argmax). Thread
// i decodes word i % (hidden / 8) (eight codes) of token i / (hidden / 8). hidden a multiple of
// 32. Dispatch: ceil(T · hidden / 8 / WG) workgroups of WG.
struct Params {
  tokens: u32,  // T
  hidden: u32,
}

override WG: u32 = 256u;

@group(0) @binding(0) var<storage, read> ids: array<u32>;      // [T]
@group(0) @binding(1) var<storage, read> codes: array<u32>;    // [vocab, hidden / 8]
@group(0) @binding(2) var<storage, read> scales: array<f32>;   // [vocab, hidden / 32]
@group(0) @binding(3) var<storage, read_write> out: array<f32>;  // [T, hidden]
@group(0) @binding(4) var<uniform> params: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let words = params.hidden / 8u;
  let i = gid.x;
  if (i >= params.tokens * words) {
    return;
  }
  let t = i / words;
  let w = i % words;
  let row = ids[t];
  let word = codes[row * words + w];
  let scale = scales[row * (params.hidden / 32u) + w / 4u];
  for (var j = 0u; j < 8u; j++) {
    out[t * params.hidden + w * 8u + j] = (f32((word >> (4u * j)) & 15u) - 8.0) * scale;
  }
}
