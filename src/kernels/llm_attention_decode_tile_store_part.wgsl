// The V-tile split as its own dispatch (the op's fused = 0): its partials into part_o and
// part_ml for llm_attention_decode's merges. Composed after llm_attention_decode_tile_part.

// Split z's partial of KV head kv's head gc / DV, column gc % DV (and its (max, sum)).
fn keep_partial(z: u32, kv: u32, gc: u32, w: Weighed) {
  let slot = (z * params.kv_heads + kv) * GROUP + gc / DV;
  part_o[slot * DV + gc % DV] = w.o;
  if (gc % DV == 0u) {
    part_ml[slot] = vec2<f32>(w.m, w.l);
  }
}

@compute @workgroup_size(WG)
fn split_tile(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  tile_split(wid, lid);
}
