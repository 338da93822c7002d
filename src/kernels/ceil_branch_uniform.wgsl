// branch-uniform: 8 independent f32 chains, each step inside if/else with equal work: if ((i + k) &
// 1) == 0 then x = x * a + b else x = x * a2 + d, with k the step's position in the body (0..31),
// so the condition is the same for every thread (uniform control flow). Loop body unrolled 4x (32
// steps an iteration), 2 FLOP a step = 64 FLOP per iteration; default 256 iterations. a, a2 in
// [0.5, 0.94], b in [0.0625, 1], d = b / 2, x starts in [0, 2): x stays in [0, 16] and every step
// contracts. Operands come from the thread index; the loop bound is params.iterations. The output
// is the f32 sum of the 8 chains.
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
  let a = 0.5 + f32(idx & 7u) * 0.0625;
  let a2 = 1.4375 - a;
  let b0 = 0.0625 + f32(((idx >> 3u) + 0u) & 15u) * 0.0625;
  let b1 = 0.0625 + f32(((idx >> 3u) + 1u) & 15u) * 0.0625;
  let b2 = 0.0625 + f32(((idx >> 3u) + 2u) & 15u) * 0.0625;
  let b3 = 0.0625 + f32(((idx >> 3u) + 3u) & 15u) * 0.0625;
  let b4 = 0.0625 + f32(((idx >> 3u) + 4u) & 15u) * 0.0625;
  let b5 = 0.0625 + f32(((idx >> 3u) + 5u) & 15u) * 0.0625;
  let b6 = 0.0625 + f32(((idx >> 3u) + 6u) & 15u) * 0.0625;
  let b7 = 0.0625 + f32(((idx >> 3u) + 7u) & 15u) * 0.0625;
  let d0 = b0 * 0.5;
  let d1 = b1 * 0.5;
  let d2 = b2 * 0.5;
  let d3 = b3 * 0.5;
  let d4 = b4 * 0.5;
  let d5 = b5 * 0.5;
  let d6 = b6 * 0.5;
  let d7 = b7 * 0.5;
  var x0 = f32((idx + 0u) & 31u) * 0.0625;
  var x1 = f32((idx + 3u) & 31u) * 0.0625;
  var x2 = f32((idx + 6u) & 31u) * 0.0625;
  var x3 = f32((idx + 9u) & 31u) * 0.0625;
  var x4 = f32((idx + 12u) & 31u) * 0.0625;
  var x5 = f32((idx + 15u) & 31u) * 0.0625;
  var x6 = f32((idx + 18u) & 31u) * 0.0625;
  var x7 = f32((idx + 21u) & 31u) * 0.0625;
  for (var i = 0u; i < params.iterations; i++) {
    let p = i;
    if (((p + 0u) & 1u) == 0u) {
      x0 = x0 * a + b0;
    } else {
      x0 = x0 * a2 + d0;
    }
    if (((p + 1u) & 1u) == 0u) {
      x1 = x1 * a + b1;
    } else {
      x1 = x1 * a2 + d1;
    }
    if (((p + 2u) & 1u) == 0u) {
      x2 = x2 * a + b2;
    } else {
      x2 = x2 * a2 + d2;
    }
    if (((p + 3u) & 1u) == 0u) {
      x3 = x3 * a + b3;
    } else {
      x3 = x3 * a2 + d3;
    }
    if (((p + 4u) & 1u) == 0u) {
      x4 = x4 * a + b4;
    } else {
      x4 = x4 * a2 + d4;
    }
    if (((p + 5u) & 1u) == 0u) {
      x5 = x5 * a + b5;
    } else {
      x5 = x5 * a2 + d5;
    }
    if (((p + 6u) & 1u) == 0u) {
      x6 = x6 * a + b6;
    } else {
      x6 = x6 * a2 + d6;
    }
    if (((p + 7u) & 1u) == 0u) {
      x7 = x7 * a + b7;
    } else {
      x7 = x7 * a2 + d7;
    }
    if (((p + 8u) & 1u) == 0u) {
      x0 = x0 * a + b0;
    } else {
      x0 = x0 * a2 + d0;
    }
    if (((p + 9u) & 1u) == 0u) {
      x1 = x1 * a + b1;
    } else {
      x1 = x1 * a2 + d1;
    }
    if (((p + 10u) & 1u) == 0u) {
      x2 = x2 * a + b2;
    } else {
      x2 = x2 * a2 + d2;
    }
    if (((p + 11u) & 1u) == 0u) {
      x3 = x3 * a + b3;
    } else {
      x3 = x3 * a2 + d3;
    }
    if (((p + 12u) & 1u) == 0u) {
      x4 = x4 * a + b4;
    } else {
      x4 = x4 * a2 + d4;
    }
    if (((p + 13u) & 1u) == 0u) {
      x5 = x5 * a + b5;
    } else {
      x5 = x5 * a2 + d5;
    }
    if (((p + 14u) & 1u) == 0u) {
      x6 = x6 * a + b6;
    } else {
      x6 = x6 * a2 + d6;
    }
    if (((p + 15u) & 1u) == 0u) {
      x7 = x7 * a + b7;
    } else {
      x7 = x7 * a2 + d7;
    }
    if (((p + 16u) & 1u) == 0u) {
      x0 = x0 * a + b0;
    } else {
      x0 = x0 * a2 + d0;
    }
    if (((p + 17u) & 1u) == 0u) {
      x1 = x1 * a + b1;
    } else {
      x1 = x1 * a2 + d1;
    }
    if (((p + 18u) & 1u) == 0u) {
      x2 = x2 * a + b2;
    } else {
      x2 = x2 * a2 + d2;
    }
    if (((p + 19u) & 1u) == 0u) {
      x3 = x3 * a + b3;
    } else {
      x3 = x3 * a2 + d3;
    }
    if (((p + 20u) & 1u) == 0u) {
      x4 = x4 * a + b4;
    } else {
      x4 = x4 * a2 + d4;
    }
    if (((p + 21u) & 1u) == 0u) {
      x5 = x5 * a + b5;
    } else {
      x5 = x5 * a2 + d5;
    }
    if (((p + 22u) & 1u) == 0u) {
      x6 = x6 * a + b6;
    } else {
      x6 = x6 * a2 + d6;
    }
    if (((p + 23u) & 1u) == 0u) {
      x7 = x7 * a + b7;
    } else {
      x7 = x7 * a2 + d7;
    }
    if (((p + 24u) & 1u) == 0u) {
      x0 = x0 * a + b0;
    } else {
      x0 = x0 * a2 + d0;
    }
    if (((p + 25u) & 1u) == 0u) {
      x1 = x1 * a + b1;
    } else {
      x1 = x1 * a2 + d1;
    }
    if (((p + 26u) & 1u) == 0u) {
      x2 = x2 * a + b2;
    } else {
      x2 = x2 * a2 + d2;
    }
    if (((p + 27u) & 1u) == 0u) {
      x3 = x3 * a + b3;
    } else {
      x3 = x3 * a2 + d3;
    }
    if (((p + 28u) & 1u) == 0u) {
      x4 = x4 * a + b4;
    } else {
      x4 = x4 * a2 + d4;
    }
    if (((p + 29u) & 1u) == 0u) {
      x5 = x5 * a + b5;
    } else {
      x5 = x5 * a2 + d5;
    }
    if (((p + 30u) & 1u) == 0u) {
      x6 = x6 * a + b6;
    } else {
      x6 = x6 * a2 + d6;
    }
    if (((p + 31u) & 1u) == 0u) {
      x7 = x7 * a + b7;
    } else {
      x7 = x7 * a2 + d7;
    }
  }
  out[idx] = ((x0 + x1) + (x2 + x3)) +
             ((x4 + x5) + (x6 + x7));
}
