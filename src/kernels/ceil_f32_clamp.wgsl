// f32-clamp: 8 independent f32 chains x = clamp(x * a + b, 0.0, 1.0), loop body unrolled 4x (32
// steps an iteration), 1 OP a step (the clamp; the multiply-add is not counted) = 32 OP per
// iteration; default 256 iterations. a in [0.5, 0.83], b in [-0.25, 0.69], x starts in [0, 1): the
// unclamped fixed point b / (1 - a) lies below 0 for some threads and above 1 for others, so both
// bounds bind; the map contracts (a < 0.83). Operands come from the thread index; the loop bound is
// params.iterations. The output is the f32 sum of the 8 chains.
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
  let a = 0.5 + f32(idx & 7u) * 0.046875;
  let b0 = -0.25 + f32(((idx >> 3u) + 0u) & 15u) * 0.0625;
  let b1 = -0.25 + f32(((idx >> 3u) + 3u) & 15u) * 0.0625;
  let b2 = -0.25 + f32(((idx >> 3u) + 6u) & 15u) * 0.0625;
  let b3 = -0.25 + f32(((idx >> 3u) + 9u) & 15u) * 0.0625;
  let b4 = -0.25 + f32(((idx >> 3u) + 12u) & 15u) * 0.0625;
  let b5 = -0.25 + f32(((idx >> 3u) + 15u) & 15u) * 0.0625;
  let b6 = -0.25 + f32(((idx >> 3u) + 18u) & 15u) * 0.0625;
  let b7 = -0.25 + f32(((idx >> 3u) + 21u) & 15u) * 0.0625;
  var x0 = f32((idx + 0u) & 15u) * 0.0625;
  var x1 = f32((idx + 5u) & 15u) * 0.0625;
  var x2 = f32((idx + 10u) & 15u) * 0.0625;
  var x3 = f32((idx + 15u) & 15u) * 0.0625;
  var x4 = f32((idx + 20u) & 15u) * 0.0625;
  var x5 = f32((idx + 25u) & 15u) * 0.0625;
  var x6 = f32((idx + 30u) & 15u) * 0.0625;
  var x7 = f32((idx + 35u) & 15u) * 0.0625;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = clamp(x0 * a + b0, 0.0, 1.0);
      x1 = clamp(x1 * a + b1, 0.0, 1.0);
      x2 = clamp(x2 * a + b2, 0.0, 1.0);
      x3 = clamp(x3 * a + b3, 0.0, 1.0);
      x4 = clamp(x4 * a + b4, 0.0, 1.0);
      x5 = clamp(x5 * a + b5, 0.0, 1.0);
      x6 = clamp(x6 * a + b6, 0.0, 1.0);
      x7 = clamp(x7 * a + b7, 0.0, 1.0);
      x0 = clamp(x0 * a + b0, 0.0, 1.0);
      x1 = clamp(x1 * a + b1, 0.0, 1.0);
      x2 = clamp(x2 * a + b2, 0.0, 1.0);
      x3 = clamp(x3 * a + b3, 0.0, 1.0);
      x4 = clamp(x4 * a + b4, 0.0, 1.0);
      x5 = clamp(x5 * a + b5, 0.0, 1.0);
      x6 = clamp(x6 * a + b6, 0.0, 1.0);
      x7 = clamp(x7 * a + b7, 0.0, 1.0);
      x0 = clamp(x0 * a + b0, 0.0, 1.0);
      x1 = clamp(x1 * a + b1, 0.0, 1.0);
      x2 = clamp(x2 * a + b2, 0.0, 1.0);
      x3 = clamp(x3 * a + b3, 0.0, 1.0);
      x4 = clamp(x4 * a + b4, 0.0, 1.0);
      x5 = clamp(x5 * a + b5, 0.0, 1.0);
      x6 = clamp(x6 * a + b6, 0.0, 1.0);
      x7 = clamp(x7 * a + b7, 0.0, 1.0);
      x0 = clamp(x0 * a + b0, 0.0, 1.0);
      x1 = clamp(x1 * a + b1, 0.0, 1.0);
      x2 = clamp(x2 * a + b2, 0.0, 1.0);
      x3 = clamp(x3 * a + b3, 0.0, 1.0);
      x4 = clamp(x4 * a + b4, 0.0, 1.0);
      x5 = clamp(x5 * a + b5, 0.0, 1.0);
      x6 = clamp(x6 * a + b6, 0.0, 1.0);
      x7 = clamp(x7 * a + b7, 0.0, 1.0);
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = clamp(x0 * a + b0, 0.0, 1.0);
    x1 = clamp(x1 * a + b1, 0.0, 1.0);
    x2 = clamp(x2 * a + b2, 0.0, 1.0);
    x3 = clamp(x3 * a + b3, 0.0, 1.0);
    x4 = clamp(x4 * a + b4, 0.0, 1.0);
    x5 = clamp(x5 * a + b5, 0.0, 1.0);
    x6 = clamp(x6 * a + b6, 0.0, 1.0);
    x7 = clamp(x7 * a + b7, 0.0, 1.0);
    x0 = clamp(x0 * a + b0, 0.0, 1.0);
    x1 = clamp(x1 * a + b1, 0.0, 1.0);
    x2 = clamp(x2 * a + b2, 0.0, 1.0);
    x3 = clamp(x3 * a + b3, 0.0, 1.0);
    x4 = clamp(x4 * a + b4, 0.0, 1.0);
    x5 = clamp(x5 * a + b5, 0.0, 1.0);
    x6 = clamp(x6 * a + b6, 0.0, 1.0);
    x7 = clamp(x7 * a + b7, 0.0, 1.0);
    x0 = clamp(x0 * a + b0, 0.0, 1.0);
    x1 = clamp(x1 * a + b1, 0.0, 1.0);
    x2 = clamp(x2 * a + b2, 0.0, 1.0);
    x3 = clamp(x3 * a + b3, 0.0, 1.0);
    x4 = clamp(x4 * a + b4, 0.0, 1.0);
    x5 = clamp(x5 * a + b5, 0.0, 1.0);
    x6 = clamp(x6 * a + b6, 0.0, 1.0);
    x7 = clamp(x7 * a + b7, 0.0, 1.0);
    x0 = clamp(x0 * a + b0, 0.0, 1.0);
    x1 = clamp(x1 * a + b1, 0.0, 1.0);
    x2 = clamp(x2 * a + b2, 0.0, 1.0);
    x3 = clamp(x3 * a + b3, 0.0, 1.0);
    x4 = clamp(x4 * a + b4, 0.0, 1.0);
    x5 = clamp(x5 * a + b5, 0.0, 1.0);
    x6 = clamp(x6 * a + b6, 0.0, 1.0);
    x7 = clamp(x7 * a + b7, 0.0, 1.0);
  }
  out[idx] = ((x0 + x1) + (x2 + x3)) +
             ((x4 + x5) + (x6 + x7));
}
