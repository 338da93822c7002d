// DIAGNOSTIC skeleton of decode attention's V-tile split (its loads, queries, K/V tiles, barrier
// and stores): the entry point split_tile that `scripts/measure_gpu.sh decode-diagnostics` appends
// to the committed src/kernels/llm_attention_decode_tile_part.wgsl (its own split_tile renamed
// split_tile_full), whose helpers it calls. Issue 16; docs/MEASURING.md, "What the missed rows
// stand on".
@compute @workgroup_size(WG)
fn split_tile(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  let z = wid.x;
  let kv = wid.y;
  let row_stride = SPLIT_KV_HEADS * DV;
  let load_first = z * SPLIT_KEYS;
  let load_last = arrayLength(&k) / row_stride - 1u;
  let slice = SliceRows(lid, load_first, load_last, row_stride, kv * DV);
  var kr: array<vec4<f32>, 8>;
  load_key_tile(&kr, slice);
  var vr: array<vec4<f32>, 8>;
  load_value_tile(&vr, slice);
  let keys = split_keys(z).keys;
  var acc = vec4<f32>(0.0);
  acc += kr[0] + kr[1] + kr[2] + kr[3] + vr[0] + vr[1] + vr[2] + vr[3];
  for (var i = lid; i < SLOTS * DV; i += WG) {
    var value = vec4<f32>(0.0);
    if (i < GROUP * DV) {
      value = q[kv * GROUP * DV + i] * params.scale_log2;
    }
    tq[(i / DV) * Q_STRIDE + i % DV] = value;
  }
  store_value_tile(&vr, lid, keys);
  store_key_tile(&kr, lid);
  workgroupBarrier();
  acc += tv[lid] + tk[lid] + tq[lid % (SLOTS * Q_STRIDE)];
  let gc = lid;
  if (gc < SLOTS * DV && gc / DV < GROUP) {
    store_partial(z, kv, gc, Weighed(acc, f32(keys), acc.x));
  }
}
