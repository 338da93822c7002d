// matmul-f32 baseline, exactly as seed 003 §2 describes it: C[M, N] = A[M, K] · B[K, N], all
// row-major f32. 16 × 16 tiled: each workgroup computes one 16 × 16 tile of C, one output a
// thread; for each 16-wide slice of K the threads load one element of A's tile and one of B's
// into workgroup memory, synchronise, and add up the 16 products.
// Dispatch: (ceil(N / 16), ceil(M / 16), 1). Open details, read plainly: thread (x, y) of the
// workgroup owns row y, column x of the tile; loads outside A or B read as 0 and outputs
// outside C are not written.
const TILE: u32 = 16u;

struct Params {
  M: u32,
  K: u32,
  N: u32,
}

@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tile_a: array<array<f32, TILE>, TILE>;
var<workgroup> tile_b: array<array<f32, TILE>, TILE>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let row = wid.y * TILE + lid.y;
  let col = wid.x * TILE + lid.x;
  var sum = 0.0;
  let tiles = (params.K + TILE - 1u) / TILE;
  for (var t = 0u; t < tiles; t++) {
    let a_col = t * TILE + lid.x;
    let b_row = t * TILE + lid.y;
    var a = 0.0;
    if (row < params.M && a_col < params.K) {
      a = A[row * params.K + a_col];
    }
    var b = 0.0;
    if (b_row < params.K && col < params.N) {
      b = B[b_row * params.N + col];
    }
    tile_a[lid.y][lid.x] = a;
    tile_b[lid.y][lid.x] = b;
    workgroupBarrier();
    for (var i = 0u; i < TILE; i++) {
      sum += tile_a[lid.y][i] * tile_b[i][lid.x];
    }
    workgroupBarrier();
  }
  if (row < params.M && col < params.N) {
    C[row * params.N + col] = sum;
  }
}
