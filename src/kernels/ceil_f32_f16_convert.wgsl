// f32-f16-convert: 8 independent vec2<f32> chains x = unpack2x16float(pack2x16float(x) +
// 0x00010001u) * a + b, loop body unrolled 4x (32 steps an iteration), 4 OP a step (each lane
// converted f32 -> f16 and back; the integer add and the multiply-add are not counted) = 128 OP per
// iteration; default 256 iterations.
//
// The add moves each packed f16 lane one ULP up. Without it a compiler may drop the round trip:
// Mesa 25.0 (lavapipe) folds unpack2x16float(pack2x16float(v)).y to v.y, unrounded, so half the
// conversions would vanish.
//
// a in [0.5, 0.79] and b in [0.25, 1.31] per lane, x starts in [0.5, 2.5): x stays in [0.25, 6]
// (normal f16 values) and the map contracts (a < 0.79). Operands come from the thread index; the
// loop bound is params.iterations. The output is the f32 sum of all 16 lanes.
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
  let a = vec2<f32>(0.5 + f32(idx & 7u) * 0.03125,
                    0.5625 + f32((idx >> 3u) & 7u) * 0.03125);
  let b0 = vec2<f32>(0.25 + f32((idx + 0u) & 15u) * 0.0625,
                     0.375 + f32((idx + 0u) & 7u) * 0.125);
  let b1 = vec2<f32>(0.25 + f32((idx + 1u) & 15u) * 0.0625,
                     0.375 + f32((idx + 2u) & 7u) * 0.125);
  let b2 = vec2<f32>(0.25 + f32((idx + 2u) & 15u) * 0.0625,
                     0.375 + f32((idx + 4u) & 7u) * 0.125);
  let b3 = vec2<f32>(0.25 + f32((idx + 3u) & 15u) * 0.0625,
                     0.375 + f32((idx + 6u) & 7u) * 0.125);
  let b4 = vec2<f32>(0.25 + f32((idx + 4u) & 15u) * 0.0625,
                     0.375 + f32((idx + 8u) & 7u) * 0.125);
  let b5 = vec2<f32>(0.25 + f32((idx + 5u) & 15u) * 0.0625,
                     0.375 + f32((idx + 10u) & 7u) * 0.125);
  let b6 = vec2<f32>(0.25 + f32((idx + 6u) & 15u) * 0.0625,
                     0.375 + f32((idx + 12u) & 7u) * 0.125);
  let b7 = vec2<f32>(0.25 + f32((idx + 7u) & 15u) * 0.0625,
                     0.375 + f32((idx + 14u) & 7u) * 0.125);
  var x0 = vec2<f32>(1.0 + f32((idx + 0u) & 31u) * 0.03125,
                     0.5 + f32((idx + 0u) & 31u) * 0.0625);
  var x1 = vec2<f32>(1.0 + f32((idx + 3u) & 31u) * 0.03125,
                     0.5 + f32((idx + 5u) & 31u) * 0.0625);
  var x2 = vec2<f32>(1.0 + f32((idx + 6u) & 31u) * 0.03125,
                     0.5 + f32((idx + 10u) & 31u) * 0.0625);
  var x3 = vec2<f32>(1.0 + f32((idx + 9u) & 31u) * 0.03125,
                     0.5 + f32((idx + 15u) & 31u) * 0.0625);
  var x4 = vec2<f32>(1.0 + f32((idx + 12u) & 31u) * 0.03125,
                     0.5 + f32((idx + 20u) & 31u) * 0.0625);
  var x5 = vec2<f32>(1.0 + f32((idx + 15u) & 31u) * 0.03125,
                     0.5 + f32((idx + 25u) & 31u) * 0.0625);
  var x6 = vec2<f32>(1.0 + f32((idx + 18u) & 31u) * 0.03125,
                     0.5 + f32((idx + 30u) & 31u) * 0.0625);
  var x7 = vec2<f32>(1.0 + f32((idx + 21u) & 31u) * 0.03125,
                     0.5 + f32((idx + 35u) & 31u) * 0.0625);
  for (var i = 0u; i < params.iterations; i++) {
    x0 = unpack2x16float(pack2x16float(x0) + 0x00010001u) * a + b0;
    x1 = unpack2x16float(pack2x16float(x1) + 0x00010001u) * a + b1;
    x2 = unpack2x16float(pack2x16float(x2) + 0x00010001u) * a + b2;
    x3 = unpack2x16float(pack2x16float(x3) + 0x00010001u) * a + b3;
    x4 = unpack2x16float(pack2x16float(x4) + 0x00010001u) * a + b4;
    x5 = unpack2x16float(pack2x16float(x5) + 0x00010001u) * a + b5;
    x6 = unpack2x16float(pack2x16float(x6) + 0x00010001u) * a + b6;
    x7 = unpack2x16float(pack2x16float(x7) + 0x00010001u) * a + b7;
    x0 = unpack2x16float(pack2x16float(x0) + 0x00010001u) * a + b0;
    x1 = unpack2x16float(pack2x16float(x1) + 0x00010001u) * a + b1;
    x2 = unpack2x16float(pack2x16float(x2) + 0x00010001u) * a + b2;
    x3 = unpack2x16float(pack2x16float(x3) + 0x00010001u) * a + b3;
    x4 = unpack2x16float(pack2x16float(x4) + 0x00010001u) * a + b4;
    x5 = unpack2x16float(pack2x16float(x5) + 0x00010001u) * a + b5;
    x6 = unpack2x16float(pack2x16float(x6) + 0x00010001u) * a + b6;
    x7 = unpack2x16float(pack2x16float(x7) + 0x00010001u) * a + b7;
    x0 = unpack2x16float(pack2x16float(x0) + 0x00010001u) * a + b0;
    x1 = unpack2x16float(pack2x16float(x1) + 0x00010001u) * a + b1;
    x2 = unpack2x16float(pack2x16float(x2) + 0x00010001u) * a + b2;
    x3 = unpack2x16float(pack2x16float(x3) + 0x00010001u) * a + b3;
    x4 = unpack2x16float(pack2x16float(x4) + 0x00010001u) * a + b4;
    x5 = unpack2x16float(pack2x16float(x5) + 0x00010001u) * a + b5;
    x6 = unpack2x16float(pack2x16float(x6) + 0x00010001u) * a + b6;
    x7 = unpack2x16float(pack2x16float(x7) + 0x00010001u) * a + b7;
    x0 = unpack2x16float(pack2x16float(x0) + 0x00010001u) * a + b0;
    x1 = unpack2x16float(pack2x16float(x1) + 0x00010001u) * a + b1;
    x2 = unpack2x16float(pack2x16float(x2) + 0x00010001u) * a + b2;
    x3 = unpack2x16float(pack2x16float(x3) + 0x00010001u) * a + b3;
    x4 = unpack2x16float(pack2x16float(x4) + 0x00010001u) * a + b4;
    x5 = unpack2x16float(pack2x16float(x5) + 0x00010001u) * a + b5;
    x6 = unpack2x16float(pack2x16float(x6) + 0x00010001u) * a + b6;
    x7 = unpack2x16float(pack2x16float(x7) + 0x00010001u) * a + b7;
  }
  let s = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
  out[idx] = s.x + s.y;
}
