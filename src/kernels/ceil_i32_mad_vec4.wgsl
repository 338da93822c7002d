// i32-mad-vec4: i32 multiply-add throughput on vec4 registers (CEILINGS.md "Raw-ALU kernels").
// Shape: 8 independent vec4<i32> chains x = x * a + b (wrapping), loop body unrolled 4x (32 steps
// an iteration). Ops: 8 chains x 4 lanes x 4 steps x 2 (a multiply-add counts 2) = 256 per
// iteration. Operands are hashes of the thread index: lane j of a = operand(j) | 1 (odd: no
// chain collapses), of b = operand(4 + j), of chain k = operand(8 + 4 k + j). The output is the
// wrapping sum of all chains and lanes, compared exactly. CPU model: reference::I32MadVec4Model.

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
  let a = bitcast<vec4<i32>>(operand4(idx, 0u) | vec4<u32>(1u));
  let b = bitcast<vec4<i32>>(operand4(idx, 4u));
  var x0 = bitcast<vec4<i32>>(operand4(idx, 8u));
  var x1 = bitcast<vec4<i32>>(operand4(idx, 12u));
  var x2 = bitcast<vec4<i32>>(operand4(idx, 16u));
  var x3 = bitcast<vec4<i32>>(operand4(idx, 20u));
  var x4 = bitcast<vec4<i32>>(operand4(idx, 24u));
  var x5 = bitcast<vec4<i32>>(operand4(idx, 28u));
  var x6 = bitcast<vec4<i32>>(operand4(idx, 32u));
  var x7 = bitcast<vec4<i32>>(operand4(idx, 36u));
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
  }
  let v = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
  out[idx] = (v.x + v.y) + (v.z + v.w);
}
