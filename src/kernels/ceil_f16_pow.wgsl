// f16-pow: 8 independent f16 chains x = pow(x, e) + b, loop body unrolled 4x (32 steps an
// iteration), 2 FLOP a step (pow, add) = 64 FLOP per iteration; default 128 iterations. e in [0.41,
// 0.63] (in (0.4, 0.7)), b in [1, 1.94], x starts in [1, 2): x stays in [1, 5) and the map
// contracts (|d/dx| = e x^(e-1) <= e < 0.63). Operands come from the thread index (all exact dyadic
// values in f16); the loop bound is params.iterations, so nothing folds or hoists. The output is
// the f32 sum of the 8 chains (each widened from f16).
enable f16;

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
  let e = 0.40625h + f16(idx & 7u) * 0.03125h;
  let b0 = 1.0h + f16(((idx >> 3u) + 0u) & 15u) * 0.0625h;
  let b1 = 1.0h + f16(((idx >> 3u) + 1u) & 15u) * 0.0625h;
  let b2 = 1.0h + f16(((idx >> 3u) + 2u) & 15u) * 0.0625h;
  let b3 = 1.0h + f16(((idx >> 3u) + 3u) & 15u) * 0.0625h;
  let b4 = 1.0h + f16(((idx >> 3u) + 4u) & 15u) * 0.0625h;
  let b5 = 1.0h + f16(((idx >> 3u) + 5u) & 15u) * 0.0625h;
  let b6 = 1.0h + f16(((idx >> 3u) + 6u) & 15u) * 0.0625h;
  let b7 = 1.0h + f16(((idx >> 3u) + 7u) & 15u) * 0.0625h;
  var x0 = 1.0h + f16((idx + 0u) & 31u) * 0.03125h;
  var x1 = 1.0h + f16((idx + 3u) & 31u) * 0.03125h;
  var x2 = 1.0h + f16((idx + 6u) & 31u) * 0.03125h;
  var x3 = 1.0h + f16((idx + 9u) & 31u) * 0.03125h;
  var x4 = 1.0h + f16((idx + 12u) & 31u) * 0.03125h;
  var x5 = 1.0h + f16((idx + 15u) & 31u) * 0.03125h;
  var x6 = 1.0h + f16((idx + 18u) & 31u) * 0.03125h;
  var x7 = 1.0h + f16((idx + 21u) & 31u) * 0.03125h;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = pow(x0, e) + b0;
      x1 = pow(x1, e) + b1;
      x2 = pow(x2, e) + b2;
      x3 = pow(x3, e) + b3;
      x4 = pow(x4, e) + b4;
      x5 = pow(x5, e) + b5;
      x6 = pow(x6, e) + b6;
      x7 = pow(x7, e) + b7;
      x0 = pow(x0, e) + b0;
      x1 = pow(x1, e) + b1;
      x2 = pow(x2, e) + b2;
      x3 = pow(x3, e) + b3;
      x4 = pow(x4, e) + b4;
      x5 = pow(x5, e) + b5;
      x6 = pow(x6, e) + b6;
      x7 = pow(x7, e) + b7;
      x0 = pow(x0, e) + b0;
      x1 = pow(x1, e) + b1;
      x2 = pow(x2, e) + b2;
      x3 = pow(x3, e) + b3;
      x4 = pow(x4, e) + b4;
      x5 = pow(x5, e) + b5;
      x6 = pow(x6, e) + b6;
      x7 = pow(x7, e) + b7;
      x0 = pow(x0, e) + b0;
      x1 = pow(x1, e) + b1;
      x2 = pow(x2, e) + b2;
      x3 = pow(x3, e) + b3;
      x4 = pow(x4, e) + b4;
      x5 = pow(x5, e) + b5;
      x6 = pow(x6, e) + b6;
      x7 = pow(x7, e) + b7;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = pow(x0, e) + b0;
    x1 = pow(x1, e) + b1;
    x2 = pow(x2, e) + b2;
    x3 = pow(x3, e) + b3;
    x4 = pow(x4, e) + b4;
    x5 = pow(x5, e) + b5;
    x6 = pow(x6, e) + b6;
    x7 = pow(x7, e) + b7;
    x0 = pow(x0, e) + b0;
    x1 = pow(x1, e) + b1;
    x2 = pow(x2, e) + b2;
    x3 = pow(x3, e) + b3;
    x4 = pow(x4, e) + b4;
    x5 = pow(x5, e) + b5;
    x6 = pow(x6, e) + b6;
    x7 = pow(x7, e) + b7;
    x0 = pow(x0, e) + b0;
    x1 = pow(x1, e) + b1;
    x2 = pow(x2, e) + b2;
    x3 = pow(x3, e) + b3;
    x4 = pow(x4, e) + b4;
    x5 = pow(x5, e) + b5;
    x6 = pow(x6, e) + b6;
    x7 = pow(x7, e) + b7;
    x0 = pow(x0, e) + b0;
    x1 = pow(x1, e) + b1;
    x2 = pow(x2, e) + b2;
    x3 = pow(x3, e) + b3;
    x4 = pow(x4, e) + b4;
    x5 = pow(x5, e) + b5;
    x6 = pow(x6, e) + b6;
    x7 = pow(x7, e) + b7;
  }
  out[idx] = ((f32(x0) + f32(x1)) + (f32(x2) + f32(x3))) +
             ((f32(x4) + f32(x5)) + (f32(x6) + f32(x7)));
}
