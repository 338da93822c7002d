// Decode attention in one dispatch (the op's fused = 1): the V-tile split, whose partials each KV
// head's last split to arrive merges. Composed after llm_attention_decode_tile_part and
// llm_attention_decode_flat_merge_part (whose MergeRun, chunk_max, fold_split and SPLITS, the
// splits a KV head, it uses).
//
// WGSL's atomics are relaxed and its barriers workgroup-scoped: a plain store of one workgroup
// is not ordered before another's loads by anything, an arrival counter included. So every
// partial goes through atomics, a float a word: a split stores its words, then counts itself in
// arrivals[kv]; the split that counts last merges. Each word it reads was stored by a split that
// had already counted itself (its stores issued), so the reader only waits for a value on its
// way: until a word is no longer kEmpty it reads it again (atomics of one location are
// coherent), and after kSpinLimit reads it gives up with NaN, which no check passes. The merger
// then empties every word and the counter for the next call (the next dispatch sees that
// through the barrier WebGPU puts between dispatches). The op fills the words with kEmpty when
// it makes them, and a split writing a word that is kEmpty writes another NaN instead.
@group(0) @binding(7) var<storage, read_write> o_words: array<atomic<u32>>;   // part_o's layout
@group(0) @binding(8) var<storage, read_write> ml_words: array<atomic<u32>>;  // part_ml's
@group(0) @binding(9) var<storage, read_write> arrivals: array<atomic<u32>>;  // [kv_heads]

const kEmpty = 0xFFFFFFFFu;  // a NaN: no split has written the word since the last merge
const kSpinLimit = 65536u;

var<workgroup> merges: u32;  // 1: this workgroup arrived last for its KV head

fn word_of(x: f32) -> u32 {
  let bits = bitcast<u32>(x);
  return select(bits, 0x7FC00000u, bits == kEmpty);
}

fn keep_partial(z: u32, kv: u32, gc: u32, w: Weighed) {
  let slot = (z * params.kv_heads + kv) * GROUP + gc / DV;
  let at = 4u * (slot * DV + gc % DV);
  atomicStore(&o_words[at], word_of(w.o.x));
  atomicStore(&o_words[at + 1u], word_of(w.o.y));
  atomicStore(&o_words[at + 2u], word_of(w.o.z));
  atomicStore(&o_words[at + 3u], word_of(w.o.w));
  if (gc % DV == 0u) {
    atomicStore(&ml_words[2u * slot], word_of(w.m));
    atomicStore(&ml_words[2u * slot + 1u], word_of(w.l));
  }
}

// Word i of o_words (of ml_words), once a split has stored it (NaN after kSpinLimit reads).
fn settled_o_word(i: u32, first: u32) -> f32 {
  var bits = first;
  for (var spins = 0u; bits == kEmpty && spins < kSpinLimit; spins++) {
    bits = atomicLoad(&o_words[i]);
  }
  return bitcast<f32>(bits);
}

fn settled_ml_word(i: u32, first: u32) -> f32 {
  var bits = first;
  for (var spins = 0u; bits == kEmpty && spins < kSpinLimit; spins++) {
    bits = atomicLoad(&ml_words[i]);
  }
  return bitcast<f32>(bits);
}

// Slot s's output column c and its (max, sum), from words read once (`o`, `ml`): a word still
// kEmpty is read until settled.
fn settled_o(s: u32, c: u32, o: vec4<u32>) -> vec4<f32> {
  if (!any(o == vec4<u32>(kEmpty))) {
    return bitcast<vec4<f32>>(o);
  }
  let at = 4u * (s * DV + c);
  return vec4<f32>(settled_o_word(at, o.x), settled_o_word(at + 1u, o.y),
                   settled_o_word(at + 2u, o.z), settled_o_word(at + 3u, o.w));
}

fn settled_ml(s: u32, ml: vec2<u32>) -> vec2<f32> {
  if (!any(ml == vec2<u32>(kEmpty))) {
    return bitcast<vec2<f32>>(ml);
  }
  return vec2<f32>(settled_ml_word(2u * s, ml.x), settled_ml_word(2u * s + 1u, ml.y));
}

fn o_word4(s: u32, c: u32) -> vec4<u32> {
  let at = 4u * (s * DV + c);
  return vec4<u32>(atomicLoad(&o_words[at]), atomicLoad(&o_words[at + 1u]),
                   atomicLoad(&o_words[at + 2u]), atomicLoad(&o_words[at + 3u]));
}

fn ml_word2(s: u32) -> vec2<u32> {
  return vec2<u32>(atomicLoad(&ml_words[2u * s]), atomicLoad(&ml_words[2u * s + 1u]));
}

// Split z's slot of query head h (z clamped to the last split).
fn slot_of(z: u32, h: u32) -> u32 {
  return min(z, SPLITS - 1u) * params.heads + h;
}

// Query head h's column c over every split, 16 splits' words read together a chunk (as
// merge_flat), each split's o words emptied once read.
fn merge_column(h: u32, c: u32) -> vec4<f32> {
  var run = MergeRun(kNegative, 0.0, vec4<f32>(0.0));
  for (var z0 = 0u; z0 < SPLITS; z0 += kMergeChunk) {
    var mw = array<vec2<u32>, 16>(
        ml_word2(slot_of(z0, h)), ml_word2(slot_of(z0 + 1u, h)), ml_word2(slot_of(z0 + 2u, h)),
        ml_word2(slot_of(z0 + 3u, h)), ml_word2(slot_of(z0 + 4u, h)),
        ml_word2(slot_of(z0 + 5u, h)), ml_word2(slot_of(z0 + 6u, h)),
        ml_word2(slot_of(z0 + 7u, h)), ml_word2(slot_of(z0 + 8u, h)),
        ml_word2(slot_of(z0 + 9u, h)), ml_word2(slot_of(z0 + 10u, h)),
        ml_word2(slot_of(z0 + 11u, h)), ml_word2(slot_of(z0 + 12u, h)),
        ml_word2(slot_of(z0 + 13u, h)), ml_word2(slot_of(z0 + 14u, h)),
        ml_word2(slot_of(z0 + 15u, h)));
    var ow = array<vec4<u32>, 16>(
        o_word4(slot_of(z0, h), c), o_word4(slot_of(z0 + 1u, h), c),
        o_word4(slot_of(z0 + 2u, h), c), o_word4(slot_of(z0 + 3u, h), c),
        o_word4(slot_of(z0 + 4u, h), c), o_word4(slot_of(z0 + 5u, h), c),
        o_word4(slot_of(z0 + 6u, h), c), o_word4(slot_of(z0 + 7u, h), c),
        o_word4(slot_of(z0 + 8u, h), c), o_word4(slot_of(z0 + 9u, h), c),
        o_word4(slot_of(z0 + 10u, h), c), o_word4(slot_of(z0 + 11u, h), c),
        o_word4(slot_of(z0 + 12u, h), c), o_word4(slot_of(z0 + 13u, h), c),
        o_word4(slot_of(z0 + 14u, h), c), o_word4(slot_of(z0 + 15u, h), c));
    var ml = array<vec2<f32>, 16>(
        settled_ml(slot_of(z0, h), mw[0]), settled_ml(slot_of(z0 + 1u, h), mw[1]),
        settled_ml(slot_of(z0 + 2u, h), mw[2]), settled_ml(slot_of(z0 + 3u, h), mw[3]),
        settled_ml(slot_of(z0 + 4u, h), mw[4]), settled_ml(slot_of(z0 + 5u, h), mw[5]),
        settled_ml(slot_of(z0 + 6u, h), mw[6]), settled_ml(slot_of(z0 + 7u, h), mw[7]),
        settled_ml(slot_of(z0 + 8u, h), mw[8]), settled_ml(slot_of(z0 + 9u, h), mw[9]),
        settled_ml(slot_of(z0 + 10u, h), mw[10]), settled_ml(slot_of(z0 + 11u, h), mw[11]),
        settled_ml(slot_of(z0 + 12u, h), mw[12]), settled_ml(slot_of(z0 + 13u, h), mw[13]),
        settled_ml(slot_of(z0 + 14u, h), mw[14]), settled_ml(slot_of(z0 + 15u, h), mw[15]));
    let m = max(run.m, chunk_max(&ml));
    let rescale = exp2(run.m - m);
    run = MergeRun(m, run.l * rescale, run.o * rescale);
    fold_split(&run, z0, ml[0], settled_o(slot_of(z0, h), c, ow[0]));
    fold_split(&run, z0 + 1u, ml[1], settled_o(slot_of(z0 + 1u, h), c, ow[1]));
    fold_split(&run, z0 + 2u, ml[2], settled_o(slot_of(z0 + 2u, h), c, ow[2]));
    fold_split(&run, z0 + 3u, ml[3], settled_o(slot_of(z0 + 3u, h), c, ow[3]));
    fold_split(&run, z0 + 4u, ml[4], settled_o(slot_of(z0 + 4u, h), c, ow[4]));
    fold_split(&run, z0 + 5u, ml[5], settled_o(slot_of(z0 + 5u, h), c, ow[5]));
    fold_split(&run, z0 + 6u, ml[6], settled_o(slot_of(z0 + 6u, h), c, ow[6]));
    fold_split(&run, z0 + 7u, ml[7], settled_o(slot_of(z0 + 7u, h), c, ow[7]));
    fold_split(&run, z0 + 8u, ml[8], settled_o(slot_of(z0 + 8u, h), c, ow[8]));
    fold_split(&run, z0 + 9u, ml[9], settled_o(slot_of(z0 + 9u, h), c, ow[9]));
    fold_split(&run, z0 + 10u, ml[10], settled_o(slot_of(z0 + 10u, h), c, ow[10]));
    fold_split(&run, z0 + 11u, ml[11], settled_o(slot_of(z0 + 11u, h), c, ow[11]));
    fold_split(&run, z0 + 12u, ml[12], settled_o(slot_of(z0 + 12u, h), c, ow[12]));
    fold_split(&run, z0 + 13u, ml[13], settled_o(slot_of(z0 + 13u, h), c, ow[13]));
    fold_split(&run, z0 + 14u, ml[14], settled_o(slot_of(z0 + 14u, h), c, ow[14]));
    fold_split(&run, z0 + 15u, ml[15], settled_o(slot_of(z0 + 15u, h), c, ow[15]));
    for (var i = 0u; i < kMergeChunk; i++) {  // this invocation's own words: read, so emptied
      if (z0 + i < SPLITS) {
        let at = 4u * (slot_of(z0 + i, h) * DV + c);
        atomicStore(&o_words[at], kEmpty);
        atomicStore(&o_words[at + 1u], kEmpty);
        atomicStore(&o_words[at + 2u], kEmpty);
        atomicStore(&o_words[at + 3u], kEmpty);
      }
    }
  }
  return run.o / run.l;
}

@compute @workgroup_size(WG)
fn split_fused(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
  tile_split(wid, lid);
  let kv = wid.y;
  workgroupBarrier();  // every keep_partial of this workgroup issued
  if (lid == 0u) {
    merges = select(0u, 1u, atomicAdd(&arrivals[kv], 1u) == SPLITS - 1u);
  }
  if (workgroupUniformLoad(&merges) == 0u) {
    return;
  }
  for (var gc = lid; gc < GROUP * DV; gc += WG) {
    let h = kv * GROUP + gc / DV;
    out[h * DV + gc % DV] = merge_column(h, gc % DV);
  }
  workgroupBarrier();  // every column has read its heads' (max, sum) words
  for (var i = lid; i < SPLITS * GROUP; i += WG) {
    let s = slot_of(i / GROUP, kv * GROUP + i % GROUP);
    atomicStore(&ml_words[2u * s], kEmpty);
    atomicStore(&ml_words[2u * s + 1u], kEmpty);
  }
  if (lid == 0u) {
    atomicStore(&arrivals[kv], 0u);
  }
}
