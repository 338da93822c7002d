// matmul-q4 baseline, exactly as seed 003 §3 (MatMulInt4) describes it:
// C[M, N] = A[M, K] · dequant(B_q[K, N]), one thread an element of C, each walking all of K
// (untiled). B_q packs 8 codes a u32 along the flat [K, N] order: the element of flat index
// f = k · N + n is nibble f % 8 of word f / 8; its group is f / group_size, and its value
// (nibble − zeros[group]) × scales[group].
// Dispatch: (ceil(N / 16), ceil(M / 16), 1). Open details, read plainly: workgroups of 16 × 16
// threads (the dispatch formula's tile), thread x → column, y → row; threads outside C return.
struct Params {
  M: u32,
  K: u32,
  N: u32,
  group_size: u32,
}

@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B_q: array<u32>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;
@group(0) @binding(3) var<storage, read> zeros: array<f32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

fn extract_nibble(packed: u32, pos: u32) -> f32 {
  let shift = pos * 4u;
  let nibble = (packed >> shift) & 0xFu;
  return f32(nibble);
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let row = gid.y;
  let col = gid.x;
  if (row >= params.M || col >= params.N) {
    return;
  }
  var sum = 0.0;
  for (var k = 0u; k < params.K; k++) {
    let flat_idx = k * params.N + col;
    let group_idx = flat_idx / params.group_size;
    let value = (extract_nibble(B_q[flat_idx / 8u], flat_idx % 8u) - zeros[group_idx]) *
                scales[group_idx];
    sum += A[row * params.K + k] * value;
  }
  C[row * params.N + col] = sum;
}
