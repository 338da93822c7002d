enable subgroups;
// The decode step's fused q8 GEMVs make their own input without a workgroup barrier (a part
// before llm_matmul_q4_tuned_gemv_q8.wgsl, in place of decode_gemv_norm_input_part.wgsl; after
// llm_quantize_q8_part.wgsl and decode_add_norm_part.wgsl, whose StreamSlots it reads): every
// subgroup makes the whole row itself. Lane l of a subgroup of SG lanes holds blocks l, l + SG,
// .. (INPUT_PASSES of them): it adds the residual's two addends, and the subgroup's sum of their
// squares (subgroupAdd) gives RMSNorm's scale; the lane then quantizes each of its blocks alone
// (the same d, codes and Σq as llm_quantize_q8_part.wgsl's quantizer), and the GEMV's lanes fetch
// the blocks they read by subgroup shuffles (stage_input). No workgroup memory, no barrier: the
// input's loads and arithmetic run while the first trip's weights are in flight. h is written to
// the stream by the first subgroup of workgroup (0, 0) alone.
// Needs: subgroups of exactly SG lanes, runs of consecutive invocations (the host takes this part
// only where the device's smallest and largest subgroups are equal); row groups of TPR lanes
// within one subgroup with TPR dividing SG and a trip's blocks TPR apart (ADJACENT 0), so that a
// trip's u-th block of every lane of a subgroup lies in the same pass; K = K_COLS, at most
// 32 · SG · MAX_INPUT_PASSES values; one activation row (M_ROWS = 1). Every subgroup adds the
// same values in the same lanes, so all of them quantize the same codes.
@group(0) @binding(13) var<storage, read_write> stream: array<f32>;
@group(0) @binding(14) var<storage, read> norm_weight: array<f32>;  // [K]
@group(0) @binding(15) var<uniform> slots: StreamSlots;

override NORM_EPS: f32 = 1e-6;
override SG: u32 = 32u;           // the device's subgroup size
override INPUT_PASSES: u32 = 1u;  // ceil(ceil(K / 32) / SG): the blocks a lane holds
const MAX_INPUT_PASSES = 4u;

// decode_add_norm_part.wgsl's quantizer outputs (unused here: this part keeps its codes in
// registers).
var<workgroup> codes: array<vec2<u32>, 1>;
var<workgroup> scale_sums: array<vec2<f32>, 1>;

// A block quantized: its eight code words in the order input_words reads them (group j's Aj,
// Bj at 2j, 2j + 1) and its (d, Σq).
struct HeldBlock {
  words: array<u32, 8>,
  scale_sum: vec2<f32>,
}

var<private> held: array<HeldBlock, MAX_INPUT_PASSES>;   // the lane's blocks l + p · SG
var<private> staged: array<HeldBlock, MAX_BATCH>;        // the trip's blocks of this lane

// Call from uniform control flow, before the input is read.
fn prepare_input(wid: vec3<u32>, lid: u32, k: u32) {
  let lane = lid % SG;
  var h: array<array<f32, 32>, MAX_INPUT_PASSES>;
  var w: array<array<f32, 32>, MAX_INPUT_PASSES>;
  for (var p = 0u; p < INPUT_PASSES; p++) {
    let first = (lane + p * SG) * 32u;
    for (var i = 0u; i < 32u; i++) {
      h[p][i] = 0.0;
      w[p][i] = 0.0;
      if (first + i < k) {
        h[p][i] = stream[slots.a + first + i] + stream[slots.b + first + i];
        w[p][i] = norm_weight[first + i];
      }
    }
  }
  var squares = 0.0;
  for (var p = 0u; p < INPUT_PASSES; p++) {
    let first = (lane + p * SG) * 32u;
    for (var i = 0u; i < 32u; i++) {
      squares += h[p][i] * h[p][i];
      if (wid.x == 0u && wid.y == 0u && lid < SG && first + i < k) {
        stream[slots.sum + first + i] = h[p][i];
      }
    }
  }
  let inverse_rms = inverseSqrt(subgroupAdd(squares) / f32(k) + NORM_EPS);
  for (var p = 0u; p < INPUT_PASSES; p++) {
    var amax = 0.0;
    for (var i = 0u; i < 32u; i++) {
      h[p][i] = h[p][i] * inverse_rms * w[p][i];
      amax = max(amax, abs(h[p][i]));
    }
    let d = amax / 127.0;
    var sum = 0i;
    for (var j = 0u; j < 4u; j++) {
      var values: array<f32, 8>;
      for (var i = 0u; i < 8u; i++) {
        values[i] = h[p][8u * j + i];
      }
      let group = pack_group(values, d);
      held[p].words[2u * j] = group.words.x;
      held[p].words[2u * j + 1u] = group.words.y;
      sum += group.sum;
    }
    held[p].scale_sum = vec2<f32>(d, f32(sum));
  }
}

// The trip's blocks kb0 + u · apart (clamped into the row) fetched from the lanes that hold
// them: lane kb % SG, pass kb / SG, the same pass for every lane of the subgroup (the part's
// contract), taken by a select over the passes so that every shuffle reads one register. Call
// from uniform control flow.
fn stage_input(kb0: u32, apart: u32, blocks: u32) {
  for (var u = 0u; u < K_BATCH; u++) {
    let kb = min(kb0 + u * apart, blocks - 1u);
    let source = kb % SG;
    let holding = kb / SG;
    for (var p = 0u; p < INPUT_PASSES; p++) {
      let mine = p == holding;
      for (var i = 0u; i < 8u; i++) {
        let word = subgroupShuffle(held[p].words[i], source);
        staged[u].words[i] = select(staged[u].words[i], word, mine);
      }
      let scale_sum = subgroupShuffle(held[p].scale_sum, source);
      staged[u].scale_sum = select(staged[u].scale_sum, scale_sum, mine);
    }
  }
}

// Words 4i .. 4i + 3 of the codes of the trip's u-th block (i = 2 · its block + 0 or 1).
fn input_words(u: u32, i: u32) -> vec4<u32> {
  let at = 4u * (i % 2u);
  return vec4<u32>(staged[u].words[at], staged[u].words[at + 1u], staged[u].words[at + 2u],
                   staged[u].words[at + 3u]);
}

fn input_scale_sum(u: u32, b: u32) -> vec2<f32> {
  return staged[u].scale_sum;
}
