// The next token on the GPU: the index of the largest logit (decode_argmax_rule_part.wgsl's rule;
// the parts before this file are it and decode_embed_row_part.wgsl), in two dispatches.
// `partial`: workgroup g takes the logits [g · CHUNK, (g + 1) · CHUNK), CHUNK = WG · PER_THREAD,
// its invocations striding by WG, and writes its best (value, index); `pick`: one workgroup
// reduces the partials (`partial`'s, or the LM head's own: decode_head_argmax_store_part.wgsl),
// writes the token to ids[0] and to generated[step index] (the run's record), writes the token's
// embedding row to `embedded` (the next step's input), and moves the step's values to the next
// token, so that steps recorded back to back in one pass need nothing from the host between
// them: the step's position and index (decode_rope_kv.wgsl's Step and
// decode_qkv_rope_store_part.wgsl's), and decode attention's KV length and position offset
// (ops/attention_rules.h's AttentionDecodeParams), each + 1. The step's other dispatches read
// both as uniforms; `pick`, the step's last, writes them as storage (a host that writes the
// values before each step overwrites its moves). Workgroups of WG.
override WG: u32 = 256u;  // a power of two
override PER_THREAD: u32 = 16u;
override COUNT: u32 = 1u;     // logits
override PARTIALS: u32 = 1u;  // partial's workgroups
override KV_LEN: u32 = 0u;           // the field index of the KV length in attention
override POSITION_OFFSET: u32 = 3u;  // the field index of the position offset
override HIDDEN: u32 = 32u;          // the embedding's width, a multiple of 32

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read_write> partials: array<Best>;  // [PARTIALS]
@group(0) @binding(2) var<storage, read_write> ids: array<u32>;        // [1]
@group(0) @binding(3) var<storage, read_write> generated: array<u32>;  // [steps]
@group(0) @binding(4) var<storage, read_write> step: array<u32, 4>;       // position, index, -, -
@group(0) @binding(5) var<storage, read_write> attention: array<u32, 8>;  // the params' words
@group(0) @binding(8) var<storage, read_write> embedded: array<f32>;      // [HIDDEN]

var<workgroup> best_values: array<f32, WG>;
var<workgroup> best_indices: array<u32, WG>;

// Lanes below `width` take the better of their own and lane + width's.
fn fold(lid: u32, width: u32) {
  if (lid < width) {
    let other = Best(best_values[lid + width], best_indices[lid + width]);
    if (beats(other, Best(best_values[lid], best_indices[lid]))) {
      best_values[lid] = other.value;
      best_indices[lid] = other.index;
    }
  }
}

// The workgroup's best: a tree of halvings (a loop of constant trip count, uniform).
fn workgroup_best(lid: u32, mine: Best) -> Best {
  best_values[lid] = mine.value;
  best_indices[lid] = mine.index;
  workgroupBarrier();
  for (var width = WG / 2u; width > 0u; width /= 2u) {
    fold(lid, width);
    workgroupBarrier();
  }
  return Best(best_values[0], best_indices[0]);
}

@compute @workgroup_size(WG)
fn partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  var mine = Best(0.0, kNone);
  let first = wid.x * WG * PER_THREAD;
  for (var j = 0u; j < PER_THREAD; j++) {
    let at = first + j * WG + lid;
    if (at < COUNT) {
      let offered = candidate(logits[at], at);
      if (beats(offered, mine)) {
        mine = offered;
      }
    }
  }
  let best = workgroup_best(lid, mine);
  if (lid == 0u) {
    partials[wid.x] = best;
  }
}

// Partials a `pick` invocation loads before it compares them (a trip's loads in flight together:
// the fused LM head leaves one a workgroup: 4,748 for Qwen2.5-0.5B).
const PICK_BATCH = 8u;

@compute @workgroup_size(WG)
fn pick(@builtin(local_invocation_index) lid: u32) {
  var mine = Best(0.0, kNone);
  let trips = (PARTIALS + WG * PICK_BATCH - 1u) / (WG * PICK_BATCH);
  for (var trip = 0u; trip < trips; trip++) {
    // Indices past the partials load the last again: beats is strict, so a repeat changes nothing.
    var batch: array<Best, PICK_BATCH>;
    for (var u = 0u; u < PICK_BATCH; u++) {
      batch[u] = partials[min((trip * PICK_BATCH + u) * WG + lid, PARTIALS - 1u)];
    }
    for (var u = 0u; u < PICK_BATCH; u++) {
      if (beats(batch[u], mine)) {
        mine = batch[u];
      }
    }
  }
  let best = workgroup_best(lid, mine);
  let token = select(best.index, 0u, best.index == kNone);  // all NaN: token 0
  for (var w = lid; w < HIDDEN / 8u; w += WG) {
    let values = embedding_word(token, w, HIDDEN);
    for (var j = 0u; j < 8u; j++) {
      embedded[8u * w + j] = values[j];
    }
  }
  if (lid == 0u) {
    ids[0] = token;
    generated[step[1]] = token;
    step[0] += 1u;
    step[1] += 1u;
    attention[KV_LEN] += 1u;
    attention[POSITION_OFFSET] += 1u;
  }
}
