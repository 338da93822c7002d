// f32-div: 8 independent f32 chains x = a / x + b, loop body unrolled 4x (32 steps an iteration), 2
// FLOP a step (divide, add) = 64 FLOP per iteration; default 256 iterations. The divisor is the
// loop-carried x, so no reciprocal of a loop invariant can replace the division (the x / a trap). a
// in [0.25, 0.72], b in [1, 2.32], x starts in [1, 2): x stays in [1, 3.1] and the map contracts
// (|d/dx| = a / x^2 <= a < 0.72). Operands come from the thread index (all exact dyadic values in
// f32); the loop bound is params.iterations, so nothing folds or hoists. The output is the f32 sum
// of the 8 chains.
struct Params {
  threads: u32,
  iterations: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) {
    return;
  }
  let a = 0.25 + f32(idx & 15u) * 0.03125;
  let b = 1.0 + f32((idx >> 4u) & 7u) * 0.0625;
  let b0 = b;
  let b1 = b + 0.125;
  let b2 = b + 0.25;
  let b3 = b + 0.375;
  let b4 = b + 0.5;
  let b5 = b + 0.625;
  let b6 = b + 0.75;
  let b7 = b + 0.875;
  var x0 = 1.0 + f32((idx + 0u) & 31u) * 0.03125;
  var x1 = 1.0 + f32((idx + 5u) & 31u) * 0.03125;
  var x2 = 1.0 + f32((idx + 10u) & 31u) * 0.03125;
  var x3 = 1.0 + f32((idx + 15u) & 31u) * 0.03125;
  var x4 = 1.0 + f32((idx + 20u) & 31u) * 0.03125;
  var x5 = 1.0 + f32((idx + 25u) & 31u) * 0.03125;
  var x6 = 1.0 + f32((idx + 30u) & 31u) * 0.03125;
  var x7 = 1.0 + f32((idx + 35u) & 31u) * 0.03125;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = a / x0 + b0;
      x1 = a / x1 + b1;
      x2 = a / x2 + b2;
      x3 = a / x3 + b3;
      x4 = a / x4 + b4;
      x5 = a / x5 + b5;
      x6 = a / x6 + b6;
      x7 = a / x7 + b7;
      x0 = a / x0 + b0;
      x1 = a / x1 + b1;
      x2 = a / x2 + b2;
      x3 = a / x3 + b3;
      x4 = a / x4 + b4;
      x5 = a / x5 + b5;
      x6 = a / x6 + b6;
      x7 = a / x7 + b7;
      x0 = a / x0 + b0;
      x1 = a / x1 + b1;
      x2 = a / x2 + b2;
      x3 = a / x3 + b3;
      x4 = a / x4 + b4;
      x5 = a / x5 + b5;
      x6 = a / x6 + b6;
      x7 = a / x7 + b7;
      x0 = a / x0 + b0;
      x1 = a / x1 + b1;
      x2 = a / x2 + b2;
      x3 = a / x3 + b3;
      x4 = a / x4 + b4;
      x5 = a / x5 + b5;
      x6 = a / x6 + b6;
      x7 = a / x7 + b7;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = a / x0 + b0;
    x1 = a / x1 + b1;
    x2 = a / x2 + b2;
    x3 = a / x3 + b3;
    x4 = a / x4 + b4;
    x5 = a / x5 + b5;
    x6 = a / x6 + b6;
    x7 = a / x7 + b7;
    x0 = a / x0 + b0;
    x1 = a / x1 + b1;
    x2 = a / x2 + b2;
    x3 = a / x3 + b3;
    x4 = a / x4 + b4;
    x5 = a / x5 + b5;
    x6 = a / x6 + b6;
    x7 = a / x7 + b7;
    x0 = a / x0 + b0;
    x1 = a / x1 + b1;
    x2 = a / x2 + b2;
    x3 = a / x3 + b3;
    x4 = a / x4 + b4;
    x5 = a / x5 + b5;
    x6 = a / x6 + b6;
    x7 = a / x7 + b7;
    x0 = a / x0 + b0;
    x1 = a / x1 + b1;
    x2 = a / x2 + b2;
    x3 = a / x3 + b3;
    x4 = a / x4 + b4;
    x5 = a / x5 + b5;
    x6 = a / x6 + b6;
    x7 = a / x7 + b7;
  }
  out[idx] = ((x0 + x1) + (x2 + x3)) +
             ((x4 + x5) + (x6 + x7));
}
