// i32-div: 8 independent i32 chains x = x / a + b, loop body unrolled 4x (32 steps an iteration), 2
// OP a step (divide, add) = 64 OP per iteration; default 256 iterations. a in 2..5 (a per-thread
// value, not a constant the compiler could turn into a multiply), b in [-26, 26], x starts in
// [-128, 127]; WGSL i32 division truncates toward zero. Operands come from the thread index; the
// loop bound is params.iterations. The output is the wrapping i32 sum of the 8 chains.
struct Params {
  threads: u32,
  iterations: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) {
    return;
  }
  let a = 2 + i32(idx & 3u);
  let b = i32((idx >> 2u) & 31u) - 16;
  let b0 = b - 10;
  let b1 = b - 7;
  let b2 = b - 4;
  let b3 = b - 1;
  let b4 = b + 2;
  let b5 = b + 5;
  let b6 = b + 8;
  let b7 = b + 11;
  var x0 = i32((idx * 7u + 0u) & 255u) - 128;
  var x1 = i32((idx * 7u + 13u) & 255u) - 128;
  var x2 = i32((idx * 7u + 26u) & 255u) - 128;
  var x3 = i32((idx * 7u + 39u) & 255u) - 128;
  var x4 = i32((idx * 7u + 52u) & 255u) - 128;
  var x5 = i32((idx * 7u + 65u) & 255u) - 128;
  var x6 = i32((idx * 7u + 78u) & 255u) - 128;
  var x7 = i32((idx * 7u + 91u) & 255u) - 128;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = x0 / a + b0;
      x1 = x1 / a + b1;
      x2 = x2 / a + b2;
      x3 = x3 / a + b3;
      x4 = x4 / a + b4;
      x5 = x5 / a + b5;
      x6 = x6 / a + b6;
      x7 = x7 / a + b7;
      x0 = x0 / a + b0;
      x1 = x1 / a + b1;
      x2 = x2 / a + b2;
      x3 = x3 / a + b3;
      x4 = x4 / a + b4;
      x5 = x5 / a + b5;
      x6 = x6 / a + b6;
      x7 = x7 / a + b7;
      x0 = x0 / a + b0;
      x1 = x1 / a + b1;
      x2 = x2 / a + b2;
      x3 = x3 / a + b3;
      x4 = x4 / a + b4;
      x5 = x5 / a + b5;
      x6 = x6 / a + b6;
      x7 = x7 / a + b7;
      x0 = x0 / a + b0;
      x1 = x1 / a + b1;
      x2 = x2 / a + b2;
      x3 = x3 / a + b3;
      x4 = x4 / a + b4;
      x5 = x5 / a + b5;
      x6 = x6 / a + b6;
      x7 = x7 / a + b7;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = x0 / a + b0;
    x1 = x1 / a + b1;
    x2 = x2 / a + b2;
    x3 = x3 / a + b3;
    x4 = x4 / a + b4;
    x5 = x5 / a + b5;
    x6 = x6 / a + b6;
    x7 = x7 / a + b7;
    x0 = x0 / a + b0;
    x1 = x1 / a + b1;
    x2 = x2 / a + b2;
    x3 = x3 / a + b3;
    x4 = x4 / a + b4;
    x5 = x5 / a + b5;
    x6 = x6 / a + b6;
    x7 = x7 / a + b7;
    x0 = x0 / a + b0;
    x1 = x1 / a + b1;
    x2 = x2 / a + b2;
    x3 = x3 / a + b3;
    x4 = x4 / a + b4;
    x5 = x5 / a + b5;
    x6 = x6 / a + b6;
    x7 = x7 / a + b7;
    x0 = x0 / a + b0;
    x1 = x1 / a + b1;
    x2 = x2 / a + b2;
    x3 = x3 / a + b3;
    x4 = x4 / a + b4;
    x5 = x5 / a + b5;
    x6 = x6 / a + b6;
    x7 = x7 / a + b7;
  }
  out[idx] = ((x0 + x1) + (x2 + x3)) +
             ((x4 + x5) + (x6 + x7));
}
