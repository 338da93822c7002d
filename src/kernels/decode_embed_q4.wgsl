// Embeddings of T tokens whose ids the GPU holds: out[t] = row ids[t] of the q4 embedding (a
// kernel after decode_embed_row_part.wgsl). Thread i makes word i % (hidden / 8) (eight values)
// of token i / (hidden / 8). hidden a multiple of 32. Dispatch: ceil(T · hidden / 8 / WG)
// workgroups of WG. (A decode step's next token is embedded by the argmax's pick itself:
// decode_argmax.wgsl.)
struct Params {
  tokens: u32,  // T
  hidden: u32,
}

override WG: u32 = 256u;

@group(0) @binding(0) var<storage, read> ids: array<u32>;        // [T]
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
  let values = embedding_word(ids[t], w, params.hidden);
  for (var j = 0u; j < 8u; j++) {
    out[t * params.hidden + w * 8u + j] = values[j];
  }
}
