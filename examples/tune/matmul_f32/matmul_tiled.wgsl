// A tiled f32 matmul for `refract tune`'s example: C = A × B, row-major (A is M × K, B is K × N,
// C is M × N). Each workgroup computes a TILE × TILE block of C and each invocation a WORK × WORK
// block of that, stepping through K in slices of TILE_K staged in workgroup memory. `naive` is
// its reference: one invocation an output, the sum in K order.

override TILE: u32 = 64;    // the C block of a workgroup, TILE × TILE
override TILE_K: u32 = 16;  // the K slice staged a step
override WORK: u32 = 4;     // the C block of an invocation, WORK × WORK (at most 8)
override SIDE: u32 = 16;    // TILE / WORK: the workgroup is SIDE × SIDE (the spec sets it)

struct Dims {
  m: u32,
  n: u32,
  k: u32,
  unused: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<f32, TILE * TILE_K>;  // [TILE rows][TILE_K]
var<workgroup> tile_b: array<f32, TILE_K * TILE>;  // [TILE_K][TILE columns]

@compute @workgroup_size(SIDE, SIDE)
fn main(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_id) local: vec3u,
        @builtin(local_invocation_index) index: u32) {
  let row0 = group.y * TILE;
  let col0 = group.x * TILE;
  let threads = SIDE * SIDE;
  var acc: array<f32, 64>;  // WORK × WORK of them used
  for (var k0 = 0u; k0 < dims.k; k0 += TILE_K) {
    for (var i = index; i < TILE * TILE_K; i += threads) {
      let r = row0 + i / TILE_K;
      let k = k0 + i % TILE_K;
      var value = 0.0;
      if (r < dims.m && k < dims.k) {
        value = a[r * dims.k + k];
      }
      tile_a[i] = value;
    }
    for (var i = index; i < TILE_K * TILE; i += threads) {
      let k = k0 + i / TILE;
      let col = col0 + i % TILE;
      var value = 0.0;
      if (k < dims.k && col < dims.n) {
        value = b[k * dims.n + col];
      }
      tile_b[i] = value;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < TILE_K; kk++) {
      for (var wy = 0u; wy < WORK; wy++) {
        let av = tile_a[(local.y * WORK + wy) * TILE_K + kk];
        for (var wx = 0u; wx < WORK; wx++) {
          acc[wy * WORK + wx] += av * tile_b[kk * TILE + local.x * WORK + wx];
        }
      }
    }
    workgroupBarrier();
  }
  for (var wy = 0u; wy < WORK; wy++) {
    let r = row0 + local.y * WORK + wy;
    for (var wx = 0u; wx < WORK; wx++) {
      let col = col0 + local.x * WORK + wx;
      if (r < dims.m && col < dims.n) {
        c[r * dims.n + col] = acc[wy * WORK + wx];
      }
    }
  }
}

@compute @workgroup_size(8, 8)
fn naive(@builtin(global_invocation_id) id: vec3u) {
  let r = id.y;
  let col = id.x;
  if (r >= dims.m || col >= dims.n) {
    return;
  }
  var sum = 0.0;
  for (var k = 0u; k < dims.k; k++) {
    sum += a[r * dims.k + k] * b[k * dims.n + col];
  }
  c[r * dims.n + col] = sum;
}
