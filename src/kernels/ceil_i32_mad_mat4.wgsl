// i32-mad-mat4: i32 throughput of a 4x4 integer matrix-vector step (CEILINGS.md "Raw-ALU
// kernels"). WGSL has no mat4x4<i32>: the matrix is four vec4<i32> rows combined with dot().
// Shape: x = (dot(r0, x), dot(r1, x), dot(r2, x), dot(r3, x)) + c (wrapping), then c = c.yzwx.
// One step an iteration: 16 multiply-adds = 32 ops (4 rows x (4 mul + 3 add + the add of c)).
// Operands are hashes of the thread index: lane j of row i = operand(4 i + j), of x =
// operand(16 + j), of c = operand(20 + j). The output is the wrapping sum of x's lanes, compared
// exactly. CPU model: reference::I32MadMat4Model.

struct Params {
  threads: u32,
  iterations: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<i32>;

// Integer operand n of thread idx: a multiply-xorshift hash of idx * 64 + n
// (reference::OperandHash), so no operand is a constant the compiler could fold.
fn operand(idx: u32, n: u32) -> u32 {
  var h = (idx * 64u + n) * 0x9e3779b9u;
  h ^= h >> 16u;
  h *= 0x85ebca6bu;
  h ^= h >> 13u;
  return h;
}

// Operands n .. n + 3 as one vector.
fn operand4(idx: u32, n: u32) -> vec4<u32> {
  return vec4<u32>(operand(idx, n), operand(idx, n + 1u), operand(idx, n + 2u),
                   operand(idx, n + 3u));
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) {
    return;
  }
  let r0 = bitcast<vec4<i32>>(operand4(idx, 0u));
  let r1 = bitcast<vec4<i32>>(operand4(idx, 4u));
  let r2 = bitcast<vec4<i32>>(operand4(idx, 8u));
  let r3 = bitcast<vec4<i32>>(operand4(idx, 12u));
  var x = bitcast<vec4<i32>>(operand4(idx, 16u));
  var c = bitcast<vec4<i32>>(operand4(idx, 20u));
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x = vec4<i32>(dot(r0, x), dot(r1, x), dot(r2, x), dot(r3, x)) + c;
      c = c.yzwx;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x = vec4<i32>(dot(r0, x), dot(r1, x), dot(r2, x), dot(r3, x)) + c;
    c = c.yzwx;
  }
  out[idx] = (x.x + x.y) + (x.z + x.w);
}
