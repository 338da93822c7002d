// A variant of llm_attention_decode_tile_part (decode attention's split), measured on the H200
// for issue 16 (docs/results/archive/NOTEBOOK.md) through REFRACT_KERNEL_DIR, not shipped: a subgroup a query
// head, the split's softmax and weighing through subgroup operations, one barrier. Only for
// what it was run at: head_dim 64 (DV 16), subgroups of 32 consecutive invocations, --set
// keys=32 wg=256 (8 subgroups: the GROUP query heads, the rest computing a copy unwritten), the
// shape constants set (SPLIT_KV_HEADS, SPLIT_KEYS: the op's v_tile 1).
// - loads: the split's K and V slices coalesced (2 vec4 each an invocation), the lane's query
//   columns; K rows into tk (stride 20 vec4: a quarter-warp's eight 16-byte reads of two keys'
//   quarters fall in distinct banks), V rows into tv (zero past the split); one barrier;
// - scores: lane (ks = lane / 4, qd = lane % 4) dots key ks + 8 r (r < 4) over the columns
//   qd + 4 i with its head's query; two xor shuffles add the four quarters;
// - softmax: subgroupMax, exp2, subgroupAdd over the keys (each key counted once, from qd 0);
// - weighing: lane (c = lane % 16, h = lane / 16) takes column c over the 16 keys
//   4 h + t % 4 + 8 (t / 4), each key's weight shuffled from a lane that scored it; one xor
//   shuffle adds the halves.
override KEYS: u32 = 32u;
override K_TILE: u32 = 1u;
override SPLIT_KV_HEADS: u32 = 0u;
override SPLIT_KEYS: u32 = 0u;

const kKeyStride = 20u;
var<workgroup> tk: array<vec4<f32>, 32u * 20u>;
var<workgroup> tv: array<vec4<f32>, 32u * 16u>;

// Key ks + 8 r's score (base 2) against the lane's query quarter qr, masked past `keys`.
fn score_round(qr: ptr<function, array<vec4<f32>, 4>>, ks: u32, qd: u32, r: u32, keys: u32) -> f32 {
  let j = ks + 8u * r;
  let b = j * kKeyStride + qd;
  var d = dot((*qr)[0], tk[b]) + dot((*qr)[1], tk[b + 4u]);
  d += dot((*qr)[2], tk[b + 8u]) + dot((*qr)[3], tk[b + 12u]);
  d += subgroupShuffleXor(d, 1u);
  d += subgroupShuffleXor(d, 2u);
  return select(kNegative, d, j < keys);
}

// Σ over the keys 4 h + t4 + 8 r (t4 < 4) of weight · V[key][c]; `p` the lane's weight of
// round r (key ks + 8 r), shuffled from lane 16 h + 4 t4 (ks = 4 h + t4).
fn weigh_round(p: f32, r: u32, h: u32, c: u32) -> vec4<f32> {
  var o = vec4<f32>(0.0);
  for (var t4 = 0u; t4 < 4u; t4++) {
    let w = subgroupShuffle(p, 16u * h + 4u * t4);
    o += w * tv[(4u * h + t4 + 8u * r) * 16u + c];
  }
  return o;
}

@compute @workgroup_size(WG)
fn split_tile(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32,
              @builtin(subgroup_invocation_id) lane: u32) {
  let z = wid.x;
  let kv = wid.y;
  let row_stride = SPLIT_KV_HEADS * DV;
  let first = z * SPLIT_KEYS;
  let last = arrayLength(&k) / row_stride - 1u;
  let e0 = lid;
  let e1 = lid + WG;
  let k0 = k[min(first + e0 / 16u, last) * row_stride + kv * DV + e0 % 16u];
  let k1 = k[min(first + e1 / 16u, last) * row_stride + kv * DV + e1 % 16u];
  let v0 = v[min(first + e0 / 16u, last) * row_stride + kv * DV + e0 % 16u];
  let v1 = v[min(first + e1 / 16u, last) * row_stride + kv * DV + e1 % 16u];
  let g = min(lid / 32u, GROUP - 1u);
  let qd = lane % 4u;
  let ks = lane / 4u;
  let qb = (kv * GROUP + g) * DV + qd;
  var qr = array<vec4<f32>, 4>(q[qb] * params.scale_log2, q[qb + 4u] * params.scale_log2,
                               q[qb + 8u] * params.scale_log2, q[qb + 12u] * params.scale_log2);
  let keys = split_keys(z).keys;
  tk[(e0 / 16u) * kKeyStride + e0 % 16u] = k0;
  tk[(e1 / 16u) * kKeyStride + e1 % 16u] = k1;
  tv[e0] = select(vec4<f32>(0.0), v0, e0 / 16u < keys);
  tv[e1] = select(vec4<f32>(0.0), v1, e1 / 16u < keys);
  workgroupBarrier();

  let s0 = score_round(&qr, ks, qd, 0u, keys);
  let s1 = score_round(&qr, ks, qd, 1u, keys);
  let s2 = score_round(&qr, ks, qd, 2u, keys);
  let s3 = score_round(&qr, ks, qd, 3u, keys);
  let m = subgroupMax(max(max(s0, s1), max(s2, s3)));
  let p0 = exp2(s0 - m);
  let p1 = exp2(s1 - m);
  let p2 = exp2(s2 - m);
  let p3 = exp2(s3 - m);
  let l = subgroupAdd(select(0.0, (p0 + p1) + (p2 + p3), qd == 0u));
  let c = lane % 16u;
  let h = lane / 16u;
  var o = (weigh_round(p0, 0u, h, c) + weigh_round(p1, 1u, h, c)) +
          (weigh_round(p2, 2u, h, c) + weigh_round(p3, 3u, h, c));
  o += subgroupShuffleXor(o, 16u);
  if (lid / 32u < GROUP) {
    let slot = (z * SPLIT_KV_HEADS + kv) * GROUP + lid / 32u;
    if (h == 0u) {
      part_o[slot * DV + c] = o;
    }
    if (lane == 0u) {
      part_ml[slot] = vec2<f32>(m, l);
    }
  }
}
