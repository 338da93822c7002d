// f16-log: 8 independent f16 chains x = log(x) + b, loop body unrolled 4x (32 steps an iteration),
// 2 FLOP a step (log, add) = 64 FLOP per iteration; default 256 iterations. b in [10, 15.82], x
// starts in [10, 17.5]: x stays in [10, 19) (log(x) > 0) and the map contracts (|d/dx| = 1 / x <=
// 0.1). Operands come from the thread index (all exact dyadic values in f16); the loop bound is
// params.iterations, so nothing folds or hoists. The output is the f32 sum of the 8 chains (each
// widened from f16).
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
  let b0 = 10.0h + f16((idx + 0u) & 31u) * 0.1875h;
  let b1 = 10.0h + f16((idx + 5u) & 31u) * 0.1875h;
  let b2 = 10.0h + f16((idx + 10u) & 31u) * 0.1875h;
  let b3 = 10.0h + f16((idx + 15u) & 31u) * 0.1875h;
  let b4 = 10.0h + f16((idx + 20u) & 31u) * 0.1875h;
  let b5 = 10.0h + f16((idx + 25u) & 31u) * 0.1875h;
  let b6 = 10.0h + f16((idx + 30u) & 31u) * 0.1875h;
  let b7 = 10.0h + f16((idx + 35u) & 31u) * 0.1875h;
  var x0 = 10.0h + f16((idx + 0u) & 15u) * 0.5h;
  var x1 = 10.0h + f16((idx + 3u) & 15u) * 0.5h;
  var x2 = 10.0h + f16((idx + 6u) & 15u) * 0.5h;
  var x3 = 10.0h + f16((idx + 9u) & 15u) * 0.5h;
  var x4 = 10.0h + f16((idx + 12u) & 15u) * 0.5h;
  var x5 = 10.0h + f16((idx + 15u) & 15u) * 0.5h;
  var x6 = 10.0h + f16((idx + 18u) & 15u) * 0.5h;
  var x7 = 10.0h + f16((idx + 21u) & 15u) * 0.5h;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = log(x0) + b0;
      x1 = log(x1) + b1;
      x2 = log(x2) + b2;
      x3 = log(x3) + b3;
      x4 = log(x4) + b4;
      x5 = log(x5) + b5;
      x6 = log(x6) + b6;
      x7 = log(x7) + b7;
      x0 = log(x0) + b0;
      x1 = log(x1) + b1;
      x2 = log(x2) + b2;
      x3 = log(x3) + b3;
      x4 = log(x4) + b4;
      x5 = log(x5) + b5;
      x6 = log(x6) + b6;
      x7 = log(x7) + b7;
      x0 = log(x0) + b0;
      x1 = log(x1) + b1;
      x2 = log(x2) + b2;
      x3 = log(x3) + b3;
      x4 = log(x4) + b4;
      x5 = log(x5) + b5;
      x6 = log(x6) + b6;
      x7 = log(x7) + b7;
      x0 = log(x0) + b0;
      x1 = log(x1) + b1;
      x2 = log(x2) + b2;
      x3 = log(x3) + b3;
      x4 = log(x4) + b4;
      x5 = log(x5) + b5;
      x6 = log(x6) + b6;
      x7 = log(x7) + b7;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = log(x0) + b0;
    x1 = log(x1) + b1;
    x2 = log(x2) + b2;
    x3 = log(x3) + b3;
    x4 = log(x4) + b4;
    x5 = log(x5) + b5;
    x6 = log(x6) + b6;
    x7 = log(x7) + b7;
    x0 = log(x0) + b0;
    x1 = log(x1) + b1;
    x2 = log(x2) + b2;
    x3 = log(x3) + b3;
    x4 = log(x4) + b4;
    x5 = log(x5) + b5;
    x6 = log(x6) + b6;
    x7 = log(x7) + b7;
    x0 = log(x0) + b0;
    x1 = log(x1) + b1;
    x2 = log(x2) + b2;
    x3 = log(x3) + b3;
    x4 = log(x4) + b4;
    x5 = log(x5) + b5;
    x6 = log(x6) + b6;
    x7 = log(x7) + b7;
    x0 = log(x0) + b0;
    x1 = log(x1) + b1;
    x2 = log(x2) + b2;
    x3 = log(x3) + b3;
    x4 = log(x4) + b4;
    x5 = log(x5) + b5;
    x6 = log(x6) + b6;
    x7 = log(x7) + b7;
  }
  out[idx] = ((f32(x0) + f32(x1)) + (f32(x2) + f32(x3))) +
             ((f32(x4) + f32(x5)) + (f32(x6) + f32(x7)));
}
