// Attention, tuned: flash-style (online softmax, K/V tiles in workgroup memory, every thread
// working), with grouped-query heads served together and the keys split across workgroups
// where the rows alone make too few of them (decode: one query position).
//
// Rows: the (query position t, query head) pairs that read one key/value head, numbered
// r = t · group + (head − kv_head · group). Workgroup (x, y, z) takes BQ = TR · RQ consecutive
// rows of KV head y, over the keys of split z: [z · keys_per_split, (z + 1) · keys_per_split).
// Every K/V tile it loads serves all those rows: the `group` query heads of a KV head and
// several positions at once.
//
// Threads: TR thread rows × TC thread columns. Per tile of BK = TC · RK keys, thread (tr, tc)
// computes the RQ × RK scores of rows tr · RQ + i and keys tc + j · TC from q and K in workgroup
// memory (register-blocked), the row maxima are combined across the TC threads of a row through
// workgroup memory, the probabilities go to a BQ × BK tile, and the thread accumulates the RQ
// rows × its vec4 columns tc + n · TC of P · V in registers. Scores are in base 2: q is scaled by
// log2(e) / sqrt(d) on load, so p = exp2(score − max).
//
// Entry points: `main` writes the normalised output (one split), `main_split` writes each
// split's unnormalised output and (max, sum) for `combine`, which merges the splits of every
// row. Causal rows mask keys s > t + position_offset; a workgroup stops at the last key its
// last row sees (prefill skips the masked tiles). head_dim must be a multiple of 4.
struct Params {
  seq_len: u32,          // T
  kv_len: u32,           // S
  heads: u32,            // query heads
  kv_heads: u32,         // key/value heads
  position_offset: u32,  // absolute position of query 0
  causal: u32,           // 1: causal mask; 0: every query sees all S keys (an encoder)
  keys_per_split: u32,   // keys one split covers
  splits: u32,           // grid z
  scale_log2: f32,       // log2(e) / sqrt(head_dim)
  head_vec4: u32,        // DV as a uniform: the score loop over it stays a loop (unrolled by
                         // the driver as it sees fit; lavapipe compiles it 3x faster)
}

override HEAD_DIM: u32 = 64u;  // d
override TR: u32 = 16u;        // thread rows
override TC: u32 = 16u;        // threads sharing a row (and a tile's keys)
override RQ: u32 = 2u;         // rows a thread owns, ≤ kMaxRq
override RK: u32 = 2u;         // keys a thread scores a tile, ≤ kMaxRk
override V_TILES: u32 = 2u;    // 2: V has its own tile, loaded with K; 1: V reuses K's tile

override DV: u32 = HEAD_DIM / 4u;          // vec4 per head row
override BQ: u32 = TR * RQ;                // rows a workgroup
override BK: u32 = TC * RK;                // keys a tile
override STRIDE: u32 = DV + 1u;            // padded tile row [vec4]: conflict-free column reads
override CHUNKS: u32 = (DV + TC - 1u) / TC;  // vec4 output columns a thread, ≤ kMaxChunks

const kMaxRq = 4u;
const kMaxRk = 8u;
const kMaxChunks = 16u;
const kNegative = -3.0e38;  // "no score yet": finite, so exp2(kNegative − m) is 0, never NaN

@group(0) @binding(0) var<storage, read> q: array<vec4<f32>>;  // [T, heads · d]
@group(0) @binding(1) var<storage, read> k: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(2) var<storage, read> v: array<vec4<f32>>;  // [S, kv_heads · d]
@group(0) @binding(3) var<storage, read_write> out: array<vec4<f32>>;  // [T, heads · d]
@group(0) @binding(4) var<uniform> params: Params;
// Split partials: [splits, kv_heads · T · group, d] unnormalised outputs and (max, sum).
@group(0) @binding(5) var<storage, read_write> part_o: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> part_ml: array<vec2<f32>>;

var<workgroup> q_tile: array<vec4<f32>, BQ * DV>;
var<workgroup> kv_tile: array<vec4<f32>, V_TILES * BK * STRIDE>;
var<workgroup> p_tile: array<f32, BQ * BK>;
var<workgroup> red: array<f32, BQ * TC>;

// What a thread holds for its RQ rows (module-scope private: registers once the loops over the
// override bounds are unrolled; no large struct is copied between functions).
struct RowState {
  m: array<f32, kMaxRq>,                   // running max (base-2 scores)
  l: array<f32, kMaxRq>,                   // sum of exp2(score − m), the whole row's
  o: array<vec4<f32>, kMaxRq * kMaxChunks>,  // unnormalised P · V, row-major by chunk
}
var<private> state: RowState;

fn group_size() -> u32 {
  return params.heads / params.kv_heads;
}

// Index of row r's vec4 column c in q and out (row r of KV head kv).
fn row_index(kv: u32, r: u32, c: u32) -> u32 {
  let g = group_size();
  return ((r / g) * params.heads + kv * g + r % g) * DV + c;
}

// Keys row r sees: [0, limit).
fn key_limit(r: u32) -> u32 {
  if (params.causal == 0u) {
    return params.kv_len;
  }
  return min(params.kv_len, r / group_size() + params.position_offset + 1u);
}

// Loads BK rows of `which` (0: K into tile 0; 1: V into tile V_TILES − 1) from key `first`.
fn load_tile(which: u32, kv: u32, first: u32, end: u32, lid: u32) {
  let base = select(0u, (V_TILES - 1u) * BK * STRIDE, which == 1u);
  for (var i = lid; i < BK * DV; i += TR * TC) {
    let key = i / DV;
    let c = i % DV;
    let s = first + key;
    let index = (s * params.kv_heads + kv) * DV + c;
    var value = vec4<f32>(0.0);
    if (s < end && which == 0u) {
      value = k[index];
    } else if (s < end) {
      value = v[index];
    }
    kv_tile[base + key * STRIDE + c] = value;
  }
}

// Runs the key loop of workgroup wid for invocation lid, leaving its rows in `state`.
fn attend(wid: vec3<u32>, lid: u32) {
  let kv = wid.y;
  let row0 = wid.x * BQ;
  let rows = params.seq_len * group_size();
  let tr = lid / TC;
  let tc = lid % TC;

  for (var i = lid; i < BQ * DV; i += TR * TC) {
    let r = row0 + i / DV;
    var value = vec4<f32>(0.0);
    if (r < rows) {
      value = q[row_index(kv, r, i % DV)] * params.scale_log2;
    }
    q_tile[i] = value;
  }
  let first = wid.z * params.keys_per_split;
  let last_row = min(rows, row0 + BQ) - 1u;
  let end = min(first + params.keys_per_split, key_limit(last_row));

  var limit: array<u32, kMaxRq>;
  for (var i = 0u; i < RQ; i++) {
    state.m[i] = kNegative;
    state.l[i] = 0.0;
    limit[i] = min(end, key_limit(row0 + tr * RQ + i));
    for (var n = 0u; n < CHUNKS; n++) {
      state.o[i * kMaxChunks + n] = vec4<f32>(0.0);
    }
  }

  for (var tile = first; tile < end; tile += BK) {
    workgroupBarrier();  // the previous tile's readers are done
    load_tile(0u, kv, tile, end, lid);
    if (V_TILES == 2u) {
      load_tile(1u, kv, tile, end, lid);
    }
    workgroupBarrier();

    var score: array<f32, kMaxRq * kMaxRk>;
    for (var i = 0u; i < RQ * kMaxRk; i++) {
      score[i] = 0.0;
    }
    for (var c = 0u; c < params.head_vec4; c++) {
      var kc: array<vec4<f32>, kMaxRk>;
      for (var j = 0u; j < RK; j++) {
        kc[j] = kv_tile[(tc + j * TC) * STRIDE + c];
      }
      for (var i = 0u; i < RQ; i++) {
        let qc = q_tile[(tr * RQ + i) * DV + c];
        for (var j = 0u; j < RK; j++) {
          score[i * kMaxRk + j] += dot(qc, kc[j]);
        }
      }
    }
    for (var i = 0u; i < RQ; i++) {
      var tile_max = kNegative;
      for (var j = 0u; j < RK; j++) {
        if (tile + tc + j * TC >= limit[i]) {
          score[i * kMaxRk + j] = kNegative;  // masked: beyond the causal limit or the split
        }
        tile_max = max(tile_max, score[i * kMaxRk + j]);
      }
      red[(tr * RQ + i) * TC + tc] = tile_max;
    }
    workgroupBarrier();  // every score is read from K: its tile may now take V
    if (V_TILES == 1u) {
      load_tile(1u, kv, tile, end, lid);
    }
    for (var i = 0u; i < RQ; i++) {
      let row = tr * RQ + i;
      var m_new = state.m[i];
      for (var c = 0u; c < TC; c++) {
        m_new = max(m_new, red[row * TC + c]);
      }
      let alpha = exp2(state.m[i] - m_new);
      state.m[i] = m_new;
      state.l[i] *= alpha;
      for (var n = 0u; n < CHUNKS; n++) {
        state.o[i * kMaxChunks + n] *= alpha;
      }
      for (var j = 0u; j < RK; j++) {
        let s = score[i * kMaxRk + j];
        let p = select(exp2(s - m_new), 0.0, s == kNegative);
        state.l[i] += p;
        p_tile[row * BK + tc + j * TC] = p;
      }
    }
    workgroupBarrier();

    let v_base = (V_TILES - 1u) * BK * STRIDE;
    for (var key = 0u; key < min(BK, end - tile); key++) {  // no padding keys
      for (var i = 0u; i < RQ; i++) {
        let p = p_tile[(tr * RQ + i) * BK + key];
        for (var n = 0u; n < CHUNKS; n++) {
          let c = tc + n * TC;
          if (c < DV) {
            state.o[i * kMaxChunks + n] += p * kv_tile[v_base + key * STRIDE + c];
          }
        }
      }
    }
  }
  // Each thread summed exp2 of its own keys: the row's sum is over its TC threads.
  workgroupBarrier();
  for (var i = 0u; i < RQ; i++) {
    red[(tr * RQ + i) * TC + tc] = state.l[i];
  }
  workgroupBarrier();
  for (var i = 0u; i < RQ; i++) {
    state.l[i] = 0.0;
    for (var c = 0u; c < TC; c++) {
      state.l[i] += red[(tr * RQ + i) * TC + c];
    }
  }
}

@compute @workgroup_size(TR * TC)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  attend(wid, lid);
  let rows = params.seq_len * group_size();
  for (var i = 0u; i < RQ; i++) {
    let r = wid.x * BQ + (lid / TC) * RQ + i;
    for (var n = 0u; n < CHUNKS; n++) {
      let c = lid % TC + n * TC;
      if (r < rows && c < DV) {
        out[row_index(wid.y, r, c)] = state.o[i * kMaxChunks + n] / state.l[i];
      }
    }
  }
}

@compute @workgroup_size(TR * TC)
fn main_split(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  attend(wid, lid);
  let rows = params.seq_len * group_size();
  for (var i = 0u; i < RQ; i++) {
    let r = wid.x * BQ + (lid / TC) * RQ + i;
    let slot = (wid.z * params.kv_heads + wid.y) * rows + r;
    for (var n = 0u; n < CHUNKS; n++) {
      let c = lid % TC + n * TC;
      if (r < rows && c < DV) {
        part_o[slot * DV + c] = state.o[i * kMaxChunks + n];
      }
    }
    if (r < rows && lid % TC == 0u) {
      part_ml[slot] = vec2<f32>(state.m[i], state.l[i]);
    }
  }
}

// One thread per (row of any KV head, vec4 column): merges the splits' partials,
// O = Σ_z o_z · 2^(m_z − M) / Σ_z l_z · 2^(m_z − M) with M the largest m_z.
@compute @workgroup_size(64)
fn combine(@builtin(global_invocation_id) gid: vec3<u32>,
           @builtin(num_workgroups) groups: vec3<u32>) {
  let rows = params.seq_len * group_size();
  let index = gid.x + gid.y * groups.x * 64u;
  if (index >= params.kv_heads * rows * DV) {
    return;
  }
  let row = index / DV;  // kv · rows + r
  let c = index % DV;
  var m = kNegative;
  for (var z = 0u; z < params.splits; z++) {
    m = max(m, part_ml[z * params.kv_heads * rows + row].x);
  }
  var l = 0.0;
  var o = vec4<f32>(0.0);
  for (var z = 0u; z < params.splits; z++) {
    let slot = z * params.kv_heads * rows + row;
    let weight = exp2(part_ml[slot].x - m);
    l += part_ml[slot].y * weight;
    o += part_o[slot * DV + c] * weight;
  }
  out[row_index(row / rows, row % rows, c)] = o / l;
}
