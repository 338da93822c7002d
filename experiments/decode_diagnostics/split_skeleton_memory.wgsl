// DIAGNOSTIC skeleton of decode attention's V-tile split (its loads and stores only, split-minor
// stores): the entry point split_tile that `experiments/decode_diagnostics/run.sh decode-diagnostics` appends,
// after split_skeleton_loads.wgsl, to the committed src/kernels/llm_attention_decode_tile_part.wgsl
// (its own split_tile renamed split_tile_full), whose helpers it calls. Issue 16;
// docs/results/archive/NOTEBOOK.md, "What the missed rows stand on".
@compute @workgroup_size(WG)
fn split_tile(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  let z = wid.x;
  let kv = wid.y;
  var t = skeleton_loads(z, kv, lid);
  let acc = t.acc + q[kv * GROUP * DV + lid % (GROUP * DV)];  // binds q, as the split does
  let gc = lid;
  if (gc < SLOTS * DV && gc / DV < GROUP) {
    store_partial(z, kv, gc, Weighed(acc, f32(t.keys), acc.x));
  }
}
