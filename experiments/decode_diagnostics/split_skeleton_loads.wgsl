// DIAGNOSTIC: what the split skeletons (split_skeleton_*.wgsl) share — the V-tile split's global
// loads of split z, KV head kv, as the committed split issues them (its K and V slices into
// registers), and a value made from them so that none is dead. `scripts/measure_gpu.sh
// decode-diagnostics` appends it, then a skeleton, to the committed
// src/kernels/llm_attention_decode_tile_part.wgsl, whose helpers it calls. Issue 16.
struct SkeletonLoads {
  kr: array<vec4<f32>, 8>,
  vr: array<vec4<f32>, 8>,
  keys: u32,  // the split's own key count
  acc: vec4<f32>,
}

fn skeleton_loads(z: u32, kv: u32, lid: u32) -> SkeletonLoads {
  let row_stride = SPLIT_KV_HEADS * DV;
  let load_first = z * SPLIT_KEYS;
  let load_last = arrayLength(&k) / row_stride - 1u;
  let slice = SliceRows(lid, load_first, load_last, row_stride, kv * DV);
  var t: SkeletonLoads;
  load_key_tile(&t.kr, slice);
  load_value_tile(&t.vr, slice);
  t.keys = split_keys(z).keys;
  t.acc = t.kr[0] + t.kr[1] + t.kr[2] + t.kr[3] + t.vr[0] + t.vr[1] + t.vr[2] + t.vr[3];
  return t;
}
