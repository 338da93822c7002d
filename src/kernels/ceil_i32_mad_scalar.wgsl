// i32-mad-scalar: peak i32 multiply-add throughput (CEILINGS.md "Raw-ALU kernels").
// Shape: 8 independent i32 chains x = x * a + b (wrapping), loop body unrolled 4x (32 steps an
// iteration). Ops: 8 chains x 4 steps x 2 (a multiply-add counts 2) = 64 per iteration.
// Operands are hashes of the thread index: a = operand(0) | 1 (odd, so x -> x * a + b is a
// bijection modulo 2^32 and no chain collapses), b = operand(1), chain k starts at
// operand(2 + k). The output is the wrapping sum of the 8 chains, compared exactly.
// CPU model: reference::I32MadScalarModel.

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

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) {
    return;
  }
  let a = bitcast<i32>(operand(idx, 0u) | 1u);
  let b = bitcast<i32>(operand(idx, 1u));
  var x0 = bitcast<i32>(operand(idx, 2u));
  var x1 = bitcast<i32>(operand(idx, 3u));
  var x2 = bitcast<i32>(operand(idx, 4u));
  var x3 = bitcast<i32>(operand(idx, 5u));
  var x4 = bitcast<i32>(operand(idx, 6u));
  var x5 = bitcast<i32>(operand(idx, 7u));
  var x6 = bitcast<i32>(operand(idx, 8u));
  var x7 = bitcast<i32>(operand(idx, 9u));
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
  out[idx] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}
