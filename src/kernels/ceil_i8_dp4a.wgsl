// i8-dp4a: peak throughput of dot4I8Packed (CEILINGS.md "Raw-ALU kernels"). Needs the WGSL
// language feature packed_4x8_integer_dot_product.
// Shape: 8 independent accumulators; each iteration acc += dot4I8Packed(a, b), then
// a ^= u32(acc) (signed bytes, i32 accumulators), so a is loop-carried and the dot product
// cannot be hoisted out of the loop. One step per accumulator an iteration.
// Ops: 8 dot4I8Packed x 4 multiply-adds x 2 = 64 per iteration (the xor is not counted).
// Operands are hashes of the thread index: a_k = operand(k), b_k = operand(8 + k), acc_k starts
// at operand(16 + k). The output is the wrapping i32 sum of the 8 accumulators, compared exactly.
// CPU model: reference::I8Dp4aModel.

requires packed_4x8_integer_dot_product;

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
  var a0 = operand(idx, 0u);
  var a1 = operand(idx, 1u);
  var a2 = operand(idx, 2u);
  var a3 = operand(idx, 3u);
  var a4 = operand(idx, 4u);
  var a5 = operand(idx, 5u);
  var a6 = operand(idx, 6u);
  var a7 = operand(idx, 7u);
  let b0 = operand(idx, 8u);
  let b1 = operand(idx, 9u);
  let b2 = operand(idx, 10u);
  let b3 = operand(idx, 11u);
  let b4 = operand(idx, 12u);
  let b5 = operand(idx, 13u);
  let b6 = operand(idx, 14u);
  let b7 = operand(idx, 15u);
  var acc0 = bitcast<i32>(operand(idx, 16u));
  var acc1 = bitcast<i32>(operand(idx, 17u));
  var acc2 = bitcast<i32>(operand(idx, 18u));
  var acc3 = bitcast<i32>(operand(idx, 19u));
  var acc4 = bitcast<i32>(operand(idx, 20u));
  var acc5 = bitcast<i32>(operand(idx, 21u));
  var acc6 = bitcast<i32>(operand(idx, 22u));
  var acc7 = bitcast<i32>(operand(idx, 23u));
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      acc0 += dot4I8Packed(a0, b0);
      a0 ^= u32(acc0);
      acc1 += dot4I8Packed(a1, b1);
      a1 ^= u32(acc1);
      acc2 += dot4I8Packed(a2, b2);
      a2 ^= u32(acc2);
      acc3 += dot4I8Packed(a3, b3);
      a3 ^= u32(acc3);
      acc4 += dot4I8Packed(a4, b4);
      a4 ^= u32(acc4);
      acc5 += dot4I8Packed(a5, b5);
      a5 ^= u32(acc5);
      acc6 += dot4I8Packed(a6, b6);
      a6 ^= u32(acc6);
      acc7 += dot4I8Packed(a7, b7);
      a7 ^= u32(acc7);
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    acc0 += dot4I8Packed(a0, b0);
    a0 ^= u32(acc0);
    acc1 += dot4I8Packed(a1, b1);
    a1 ^= u32(acc1);
    acc2 += dot4I8Packed(a2, b2);
    a2 ^= u32(acc2);
    acc3 += dot4I8Packed(a3, b3);
    a3 ^= u32(acc3);
    acc4 += dot4I8Packed(a4, b4);
    a4 ^= u32(acc4);
    acc5 += dot4I8Packed(a5, b5);
    a5 ^= u32(acc5);
    acc6 += dot4I8Packed(a6, b6);
    a6 ^= u32(acc6);
    acc7 += dot4I8Packed(a7, b7);
    a7 ^= u32(acc7);
  }
  out[idx] = ((acc0 + acc1) + (acc2 + acc3)) + ((acc4 + acc5) + (acc6 + acc7));
}
