// RMSNorm, LayerNorm and the fused residual add + RMSNorm, tuned (entry points `rmsnorm`,
// `layernorm`, `add_rmsnorm`). One workgroup of WG per row, dispatch (T, 1, 1) continuing in y;
// each invocation keeps its VPT elements of the row in registers (V = vec4 when hidden is a
// multiple of 4, else f32; WG · VPT · kWidth ≥ hidden, so the row is read once), the row's
// statistics come from workgroup reductions (subgroup operations or a tree: the composed
// reduction part), and the outputs are written from the kept values.
// layernorm merges per-invocation (count, mean, M2) exactly: the row mean from the sum of the
// invocations' sums, then M2 = Σ (M2_t + n_t · (mean_t − mean)²) (Chan et al.'s parallel
// variance), each invocation's M2_t taken about its own mean from registers.
// add_rmsnorm: h = a + b is written out and normalised without being read back.
// Composed after a reduction part (llm_reduce_*_part) and an element part (llm_row_*_part).
struct Params {
  rows: u32,
  hidden: u32,
  eps_bits: u32,  // f32 epsilon reinterpreted as u32
  _pad: u32,
}

override WG: u32 = 256u;  // invocations per row
override VPT: u32 = 1u;   // elements of V an invocation keeps, ≤ kMaxKept

const kMaxKept = 16u;

@group(0) @binding(0) var<storage, read> x: array<V>;         // [T, hidden] (add_rmsnorm: a)
@group(0) @binding(1) var<storage, read> weight: array<V>;    // [hidden]
@group(0) @binding(2) var<storage, read_write> y: array<V>;   // [T, hidden]
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(4) var<storage, read> bias: array<V>;      // layernorm: [hidden]
@group(0) @binding(5) var<storage, read> resid: array<V>;     // add_rmsnorm: b, [T, hidden]
@group(0) @binding(6) var<storage, read_write> h: array<V>;   // add_rmsnorm: a + b

var<private> kept: array<V, kMaxKept>;

// Starts a workgroup's row: the reduction's set-up, no element kept yet; returns the row.
fn begin_row(wid: vec3<u32>, groups: vec3<u32>, lid: u32) -> u32 {
  reduce_init(lid);
  for (var j = 0u; j < VPT; j++) {
    kept[j] = V(0.0);
  }
  return wid.x + wid.y * groups.x;
}

fn eps() -> f32 {
  return bitcast<f32>(params.eps_bits);
}

// Element j of this invocation: whether the row has it, and its index in x, y (and b, h).
fn in_row(lid: u32, j: u32) -> bool {
  return lid + j * WG < params.hidden / kWidth;
}

fn at(row: u32, lid: u32, j: u32) -> u32 {
  return row * (params.hidden / kWidth) + lid + j * WG;
}

// y = kept · rsqrt(mean square + eps) · weight over the row (elements the row lacks are 0).
fn store_rms(row: u32, lid: u32) {
  var squares = 0.0;
  for (var j = 0u; j < VPT; j++) {
    squares += hsum(kept[j] * kept[j]);
  }
  let mean_square = workgroup_reduce(vec4<f32>(squares), false).x / f32(params.hidden);
  let inv_rms = inverseSqrt(mean_square + eps());
  for (var j = 0u; j < VPT; j++) {
    if (in_row(lid, j)) {
      y[at(row, lid, j)] = kept[j] * inv_rms * weight[lid + j * WG];
    }
  }
}

@compute @workgroup_size(WG)
fn rmsnorm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let row = begin_row(wid, groups, lid);
  if (row < params.rows) {
    for (var j = 0u; j < VPT; j++) {
      if (in_row(lid, j)) {
        kept[j] = x[at(row, lid, j)];
      }
    }
    store_rms(row, lid);
  }
}

@compute @workgroup_size(WG)
fn add_rmsnorm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
  let row = begin_row(wid, groups, lid);
  if (row < params.rows) {
    for (var j = 0u; j < VPT; j++) {
      if (in_row(lid, j)) {
        let i = at(row, lid, j);
        kept[j] = x[i] + resid[i];
        h[i] = kept[j];
      }
    }
    store_rms(row, lid);
  }
}

@compute @workgroup_size(WG)
fn layernorm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let row = begin_row(wid, groups, lid);
  if (row < params.rows) {
    var sum = 0.0;
    var count = 0.0;
    for (var j = 0u; j < VPT; j++) {
      if (in_row(lid, j)) {
        kept[j] = x[at(row, lid, j)];
        count += f32(kWidth);
      }
      sum += hsum(kept[j]);
    }
    let own_mean = select(0.0, sum / count, count > 0.0);
    var own_m2 = 0.0;
    for (var j = 0u; j < VPT; j++) {
      if (in_row(lid, j)) {
        let centred = kept[j] - V(own_mean);
        own_m2 += hsum(centred * centred);
      }
    }
    let mean = workgroup_reduce(vec4<f32>(sum), false).x / f32(params.hidden);
    let shift = own_mean - mean;
    let m2 = workgroup_reduce(vec4<f32>(own_m2 + count * shift * shift), false).x;
    let inv_std = inverseSqrt(m2 / f32(params.hidden) + eps());
    for (var j = 0u; j < VPT; j++) {
      if (in_row(lid, j)) {
        let d = lid + j * WG;
        y[at(row, lid, j)] = (kept[j] - V(mean)) * inv_std * weight[d] + bias[d];
      }
    }
  }
}
