// DIAGNOSTIC skeleton of decode attention's V-tile split (issue 16; docs/MEASURING.md, "What the
// missed rows stand on"): its loads, queries, K/V tiles, barrier and stores. Its entry point
// split_tile is at the end; the committed split, renamed split_tile_full, stays above it for its
// helpers. Unverified by design.
// Decode attention's split with its V slice in workgroup memory (the op's v_tile = 1). Composed
// after llm_attention_decode, whose Params, bindings, WG, HEAD_DIM, GROUP, DV, kNegative,
// split_keys and load_key_chunk it uses, and whose merges combine the partials it writes (the
// same layout).
// Workgroup (z, kv) takes the keys [z · keys_per_split, ..) — at most KEYS of them — of KV head
// kv for its GROUP query heads. Where llm_attention_decode's split gives an invocation a key and
// every head (a fixed ~1,000 multiply-adds however few keys a split holds), this one spreads a
// split over its invocations so that the work each does shrinks with KEYS:
// - loads: every global load is issued first — invocation t's key row (key t % KEYS; with
//   K_TILE, its share of the split's K rows, into tk), its share of the split's V rows (into tv)
//   and of the queries (into tq) — then one barrier;
// - scores: invocation t scores key t % KEYS against heads t / KEYS, t / KEYS + WG / KEYS, ..
//   (its key row loaded once), into ts; one barrier;
// - weighing: invocation t takes head g and vec4 column c ((g, c) = t, t + WG, .. below
//   SLOTS · DV) over every key: the head's max over ts, then Σ 2^(s − m) · V from tv; with
//   WG ≥ 2 · SLOTS · DV, key lanes share a (g, c) ((g, c) = t mod SLOTS · DV, the key quads
//   t / (SLOTS · DV), + KEY_LANES, ..) and one more barrier adds their sums.
// No reduction runs across invocations except through ts: each (g, c) reads the head's scores.
// Requires WG ≥ KEYS and 8 · WG ≥ KEYS · DV (the op's checks).
override KEYS: u32 = 32u;  // keys a split at most, a power of two ≥ 4
// Head slots: GROUP rounded up to a power of two (≤ 8).
override SLOTS: u32 = select(select(select(8u, 4u, GROUP <= 4u), 2u, GROUP <= 2u), 1u, GROUP <= 1u);
override HEAD_SETS: u32 = WG / KEYS;          // scoring invocations a key
override KEY_LANES: u32 = max(WG / (SLOTS * DV), 1u);  // weighing invocations a (head, column)
override HEAD_ROUNDS: u32 = (SLOTS * DV + WG - 1u) / WG;  // (head, column)s an invocation weighs
override Q_STRIDE: u32 = DV + 1u;             // a head's row in tq, padded off the banks
override QUADS: u32 = KEYS / 4u;              // a head's scores as vec4
override TS_STRIDE: u32 = QUADS + 1u;         // a head's row in ts, padded off the banks
override TV_STEPS: u32 = (KEYS * DV + WG - 1u) / WG;  // tv elements an invocation loads, ≤ 8
override LANE_QUADS: u32 = (QUADS + KEY_LANES - 1u) / KEY_LANES;  // quads a key lane weighs
// The KV heads and keys a split fixed at pipeline creation, or 0: params' (then every load's
// address waits on the uniform's read). With them, the loads clamp their rows to the cache's
// (arrayLength) and the split's own key count, from the uniform, only masks.
override SPLIT_KV_HEADS: u32 = 0u;
override SPLIT_KEYS: u32 = 0u;
// 1: the K slice too is loaded coalesced into workgroup memory (tk, rows padded off the banks),
// where each scoring invocation reads its key's row; 0: each scoring invocation loads its key's
// row from K itself (a warp's loads then touch a cache line a lane).
override K_TILE: u32 = 0u;
override K_STRIDE: u32 = DV + 1u;  // a key's row in tk

var<workgroup> tq: array<vec4<f32>, SLOTS * Q_STRIDE>;  // head g's column c at g · Q_STRIDE + c
var<workgroup> tv: array<vec4<f32>, KEYS * DV>;         // key j's column c at j · DV + c
var<workgroup> tk: array<vec4<f32>, max(K_TILE * KEYS * K_STRIDE, 1u)>;  // key j's at j · K_STRIDE
// Head g's key j at [g · TS_STRIDE + j / 4][j % 4].
var<workgroup> ts: array<vec4<f32>, SLOTS * TS_STRIDE>;
// Key lanes 1 .. of each (g, c): their outputs and sums.
var<workgroup> lane_o: array<vec4<f32>, max((KEY_LANES - 1u) * SLOTS * DV, 1u)>;
var<workgroup> lane_l: array<f32, max((KEY_LANES - 1u) * SLOTS * DV, 1u)>;

// Head g's dot with the key columns c0 + j (j < 16, below DV) held in kc, four partial sums so
// that the multiply-adds do not wait on each other.
fn head_dot(kc: ptr<function, array<vec4<f32>, 16>>, g: u32, c0: u32) -> f32 {
  let b = g * Q_STRIDE + c0;
  var s = vec4<f32>(0.0);
  if (c0 + 0u < DV) { s.x += dot(tq[b + 0u], (*kc)[0]); }
  if (c0 + 1u < DV) { s.y += dot(tq[b + 1u], (*kc)[1]); }
  if (c0 + 2u < DV) { s.z += dot(tq[b + 2u], (*kc)[2]); }
  if (c0 + 3u < DV) { s.w += dot(tq[b + 3u], (*kc)[3]); }
  if (c0 + 4u < DV) { s.x += dot(tq[b + 4u], (*kc)[4]); }
  if (c0 + 5u < DV) { s.y += dot(tq[b + 5u], (*kc)[5]); }
  if (c0 + 6u < DV) { s.z += dot(tq[b + 6u], (*kc)[6]); }
  if (c0 + 7u < DV) { s.w += dot(tq[b + 7u], (*kc)[7]); }
  if (c0 + 8u < DV) { s.x += dot(tq[b + 8u], (*kc)[8]); }
  if (c0 + 9u < DV) { s.y += dot(tq[b + 9u], (*kc)[9]); }
  if (c0 + 10u < DV) { s.z += dot(tq[b + 10u], (*kc)[10]); }
  if (c0 + 11u < DV) { s.w += dot(tq[b + 11u], (*kc)[11]); }
  if (c0 + 12u < DV) { s.x += dot(tq[b + 12u], (*kc)[12]); }
  if (c0 + 13u < DV) { s.y += dot(tq[b + 13u], (*kc)[13]); }
  if (c0 + 14u < DV) { s.z += dot(tq[b + 14u], (*kc)[14]); }
  if (c0 + 15u < DV) { s.w += dot(tq[b + 15u], (*kc)[15]); }
  return (s.x + s.y) + (s.z + s.w);
}

// Where a slice load of invocation `lid` reads: element e = lid + i · WG of the slice (clamped
// into it: past it, a repeat that is not stored) is key e / DV (clamped to last_row), column
// e % DV of the rows `row_stride` apart from column0.
struct SliceRows {
  lid: u32,
  first: u32,
  last_row: u32,
  row_stride: u32,
  column0: u32,
}

fn slice_index(rows: SliceRows, i: u32) -> u32 {
  let e = min(rows.lid + i * WG, KEYS * DV - 1u);
  return min(rows.first + e / DV, rows.last_row) * rows.row_stride + rows.column0 + e % DV;
}

// The V slice's elements i < TV_STEPS ≤ 8 of the invocation into vr[i]: eight loads issued
// together, none waiting on another (a loop that stored each into tv as it came waited a round
// trip a step).
fn load_value_tile(vr: ptr<function, array<vec4<f32>, 8>>, rows: SliceRows) {
  *vr = array<vec4<f32>, 8>(v[slice_index(rows, 0u)], v[slice_index(rows, 1u)],
                            v[slice_index(rows, 2u)], v[slice_index(rows, 3u)],
                            v[slice_index(rows, 4u)], v[slice_index(rows, 5u)],
                            v[slice_index(rows, 6u)], v[slice_index(rows, 7u)]);
}

// The same elements of the K slice (K_TILE 1).
fn load_key_tile(kr: ptr<function, array<vec4<f32>, 8>>, rows: SliceRows) {
  *kr = array<vec4<f32>, 8>(k[slice_index(rows, 0u)], k[slice_index(rows, 1u)],
                            k[slice_index(rows, 2u)], k[slice_index(rows, 3u)],
                            k[slice_index(rows, 4u)], k[slice_index(rows, 5u)],
                            k[slice_index(rows, 6u)], k[slice_index(rows, 7u)]);
}

// Element e of the K slice into tk (key e / DV's row, column e % DV), if inside the slice.
fn store_key_element(e: u32, value: vec4<f32>) {
  if (e < KEYS * DV) {
    tk[(e / DV) * K_STRIDE + e % DV] = value;
  }
}

// kr[i] into tk for the i < TV_STEPS; written out, so that kr is indexed by constants only.
fn store_key_tile(kr: ptr<function, array<vec4<f32>, 8>>, lid: u32) {
  if (TV_STEPS > 0u) { store_key_element(lid, (*kr)[0]); }
  if (TV_STEPS > 1u) { store_key_element(lid + WG, (*kr)[1]); }
  if (TV_STEPS > 2u) { store_key_element(lid + 2u * WG, (*kr)[2]); }
  if (TV_STEPS > 3u) { store_key_element(lid + 3u * WG, (*kr)[3]); }
  if (TV_STEPS > 4u) { store_key_element(lid + 4u * WG, (*kr)[4]); }
  if (TV_STEPS > 5u) { store_key_element(lid + 5u * WG, (*kr)[5]); }
  if (TV_STEPS > 6u) { store_key_element(lid + 6u * WG, (*kr)[6]); }
  if (TV_STEPS > 7u) { store_key_element(lid + 7u * WG, (*kr)[7]); }
}

// Key j's columns c0 + i (i < 16, clamped into the row) from tk into kc (K_TILE 1); written
// out, so that kc is indexed by constants only.
fn key_chunk_from_tile(kc: ptr<function, array<vec4<f32>, 16>>, j: u32, c0: u32) {
  let b = j * K_STRIDE;
  let l = DV - 1u;
  *kc = array<vec4<f32>, 16>(
      tk[b + min(c0, l)], tk[b + min(c0 + 1u, l)], tk[b + min(c0 + 2u, l)],
      tk[b + min(c0 + 3u, l)], tk[b + min(c0 + 4u, l)], tk[b + min(c0 + 5u, l)],
      tk[b + min(c0 + 6u, l)], tk[b + min(c0 + 7u, l)], tk[b + min(c0 + 8u, l)],
      tk[b + min(c0 + 9u, l)], tk[b + min(c0 + 10u, l)], tk[b + min(c0 + 11u, l)],
      tk[b + min(c0 + 12u, l)], tk[b + min(c0 + 13u, l)], tk[b + min(c0 + 14u, l)],
      tk[b + min(c0 + 15u, l)]);
}

// vr[i] into tv at e = lid + i · WG, for the i < TV_STEPS inside the slice; zero for the keys
// e / DV at or past `keys` (rows of the cache past the split: no value of theirs may reach a
// sum, not even a non-finite one times a zero weight).
fn store_value_tile(vr: ptr<function, array<vec4<f32>, 8>>, lid: u32, keys: u32) {
  let none = vec4<f32>(0.0);
  let n = keys * DV;
  if (TV_STEPS > 0u && lid < KEYS * DV) { tv[lid] = select(none, (*vr)[0], lid < n); }
  if (TV_STEPS > 1u && lid + WG < KEYS * DV) {
    tv[lid + WG] = select(none, (*vr)[1], lid + WG < n);
  }
  if (TV_STEPS > 2u && lid + 2u * WG < KEYS * DV) {
    tv[lid + 2u * WG] = select(none, (*vr)[2], lid + 2u * WG < n);
  }
  if (TV_STEPS > 3u && lid + 3u * WG < KEYS * DV) {
    tv[lid + 3u * WG] = select(none, (*vr)[3], lid + 3u * WG < n);
  }
  if (TV_STEPS > 4u && lid + 4u * WG < KEYS * DV) {
    tv[lid + 4u * WG] = select(none, (*vr)[4], lid + 4u * WG < n);
  }
  if (TV_STEPS > 5u && lid + 5u * WG < KEYS * DV) {
    tv[lid + 5u * WG] = select(none, (*vr)[5], lid + 5u * WG < n);
  }
  if (TV_STEPS > 6u && lid + 6u * WG < KEYS * DV) {
    tv[lid + 6u * WG] = select(none, (*vr)[6], lid + 6u * WG < n);
  }
  if (TV_STEPS > 7u && lid + 7u * WG < KEYS * DV) {
    tv[lid + 7u * WG] = select(none, (*vr)[7], lid + 7u * WG < n);
  }
}

// A (head, column)'s share of a split: Σ 2^(s − m) · V over its keys, Σ 2^(s − m), and m, the
// head's maximum score over every key of the split.
struct Weighed {
  o: vec4<f32>,
  l: f32,
  m: f32,
}

// Head gc / DV, column gc % DV over the key quads lane, lane + KEY_LANES, .. of the `keys` keys.
fn weigh_column(gc: u32, lane: u32, keys: u32) -> Weighed {
  let c = gc % DV;
  let row = (gc / DV) * TS_STRIDE;
  var m4 = vec4<f32>(kNegative);
  for (var quad = 0u; quad < QUADS; quad++) {
    m4 = max(m4, select(vec4<f32>(kNegative), ts[row + quad], held(quad, keys)));
  }
  let m = max(max(m4.x, m4.y), max(m4.z, m4.w));
  var l4 = vec4<f32>(0.0);
  var o = vec4<f32>(0.0);
  for (var i = 0u; i < LANE_QUADS; i++) {
    let quad = lane + i * KEY_LANES;
    if (quad < QUADS) {
      let p = select(vec4<f32>(0.0), exp2(ts[row + quad] - m), held(quad, keys));
      l4 += p;
      let at = 4u * quad * DV + c;
      o += p.x * tv[at] + p.y * tv[at + DV] + p.z * tv[at + 2u * DV] + p.w * tv[at + 3u * DV];
    }
  }
  return Weighed(o, (l4.x + l4.y) + (l4.z + l4.w), m);
}

// Split z's partial of KV head kv's head gc / DV, column gc % DV (and its (max, sum)), in
// llm_attention_decode's split-minor layout.
fn store_partial(z: u32, kv: u32, gc: u32, w: Weighed) {
  let h = kv * GROUP + gc / DV;
  let splits = params.splits;
  part_o[(h * DV + gc % DV) * splits + z] = w.o;
  if (gc % DV == 0u) {
    part_ml[h * splits + z] = vec2<f32>(w.m, w.l);
  }
}

// Which of the keys 4 · quad .. 4 · quad + 3 are below `keys`.
fn held(quad: u32, keys: u32) -> vec4<bool> {
  return vec4<u32>(4u * quad) + vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(keys);
}

// Every loop below runs a trip count fixed by the constants (the split's own key count only
// masks), so that the driver can unroll it and issue its workgroup-memory loads together: with a
// runtime bound each trip waited on the last (on the H200, ~0.06 µs a key of the split).
@compute @workgroup_size(WG)
fn split_tile_full(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  let z = wid.x;
  let kv = wid.y;
  let row_stride = select(params.kv_heads, SPLIT_KV_HEADS, SPLIT_KV_HEADS != 0u) * DV;
  // The rows the loads take: from the split's first, clamped into the cache (or, without the
  // constants, to the split's last key).
  var load_first = z * SPLIT_KEYS;
  var load_last = arrayLength(&k) / row_stride - 1u;
  if (SPLIT_KEYS == 0u) {
    let range = split_keys(z);
    load_first = range.first;
    load_last = range.last_row;
  }

  // Loads: the key row (or the K slice), the V slice, the queries (scaled to base-2 scores).
  let j = lid % KEYS;
  let key_row = min(load_first + j, load_last) * row_stride + kv * DV;
  let slice = SliceRows(lid, load_first, load_last, row_stride, kv * DV);
  var kc: array<vec4<f32>, 16>;
  var kr: array<vec4<f32>, 8>;
  if (K_TILE == 1u) {
    load_key_tile(&kr, slice);
  } else {
    load_key_chunk(&kc, key_row, 0u);
  }
  var vr: array<vec4<f32>, 8>;
  load_value_tile(&vr, slice);
  let keys = split_keys(z).keys;  // the split's own: what the sums take
  for (var i = lid; i < SLOTS * DV; i += WG) {
    var value = vec4<f32>(0.0);
    if (i < GROUP * DV) {
      value = q[kv * GROUP * DV + i] * params.scale_log2;
    }
    tq[(i / DV) * Q_STRIDE + i % DV] = value;
  }
  store_value_tile(&vr, lid, keys);
  if (K_TILE == 1u) {
    store_key_tile(&kr, lid);
  }
  workgroupBarrier();  // tq, tv (and tk) written

  // Scores: key j against this invocation's heads.
  if (lid < HEAD_SETS * KEYS) {
    if (K_TILE == 1u) {
      key_chunk_from_tile(&kc, j, 0u);
    }
    for (var g = lid / KEYS; g < GROUP; g += HEAD_SETS) {
      var s = head_dot(&kc, g, 0u);
      for (var c0 = 16u; c0 < DV; c0 += 16u) {
        var kx: array<vec4<f32>, 16>;
        if (K_TILE == 1u) {
          key_chunk_from_tile(&kx, j, c0);
        } else {
          load_key_chunk(&kx, key_row, c0);
        }
        s += head_dot(&kx, g, c0);
      }
      ts[g * TS_STRIDE + j / 4u][j % 4u] = s;
    }
  }
  workgroupBarrier();  // ts written

  // Weighing: (head, column) gc = lid, lid + WG, .. over every key quad, or, with key lanes,
  // gc = lid mod SLOTS · DV over lane lid / (SLOTS · DV)'s quads, the lanes then added.
  if (KEY_LANES == 1u) {
    for (var r = 0u; r < HEAD_ROUNDS; r++) {
      let gc = lid + r * WG;
      if (gc < SLOTS * DV && gc / DV < GROUP) {
        store_partial(z, kv, gc, weigh_column(gc, 0u, keys));
      }
    }
  } else {
    let gc = lid % (SLOTS * DV);
    let lane = lid / (SLOTS * DV);
    let weighs = gc / DV < GROUP && lane < KEY_LANES;
    var w = Weighed(vec4<f32>(0.0), 0.0, kNegative);
    if (weighs) {
      w = weigh_column(gc, lane, keys);
      if (lane > 0u) {
        lane_o[(lane - 1u) * SLOTS * DV + gc] = w.o;
        lane_l[(lane - 1u) * SLOTS * DV + gc] = w.l;
      }
    }
    workgroupBarrier();  // lane_o, lane_l written
    if (weighs && lane == 0u) {
      for (var other = 1u; other < KEY_LANES; other++) {
        w.o += lane_o[(other - 1u) * SLOTS * DV + gc];
        w.l += lane_l[(other - 1u) * SLOTS * DV + gc];
      }
      store_partial(z, kv, gc, w);
    }
  }
}

// DIAGNOSTIC (issue 16, unverified by design: it computes no attention): the committed split's
// global loads and stores only, to time what they cost without the scoring and weighing.
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
