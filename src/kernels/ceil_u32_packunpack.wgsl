// u32-packunpack: 8 independent u32 chains x = repack(unpack(x) + 1): the 4 bytes of x are unpacked
// with shifts and masks, each is incremented (wrapping at 8 bits), and they are repacked rotated by
// one byte (byte 0 into byte 1, ..., byte 3 into byte 0) so that successive steps cannot merge into
// one wider add. Loop body unrolled 4x (32 steps an iteration), 2 OP a step (unpack, pack) = 64 OP
// per iteration; default 256 iterations. x starts as a hash of the thread index; the loop bound is
// params.iterations. The output is the wrapping u32 sum of the 8 chains.
struct Params {
  threads: u32,
  iterations: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

fn bump_bytes(x: u32) -> u32 {
  let b0 = x & 0xffu;
  let b1 = (x >> 8u) & 0xffu;
  let b2 = (x >> 16u) & 0xffu;
  let b3 = x >> 24u;
  return (((b0 + 1u) & 0xffu) << 8u) | (((b1 + 1u) & 0xffu) << 16u) |
         (((b2 + 1u) & 0xffu) << 24u) | ((b3 + 1u) & 0xffu);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) {
    return;
  }
  var x0 = (idx + 0u) * 0x9e3779b9u;
  var x1 = (idx + 1u) * 0x9e3779b9u;
  var x2 = (idx + 2u) * 0x9e3779b9u;
  var x3 = (idx + 3u) * 0x9e3779b9u;
  var x4 = (idx + 4u) * 0x9e3779b9u;
  var x5 = (idx + 5u) * 0x9e3779b9u;
  var x6 = (idx + 6u) * 0x9e3779b9u;
  var x7 = (idx + 7u) * 0x9e3779b9u;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = bump_bytes(x0);
      x1 = bump_bytes(x1);
      x2 = bump_bytes(x2);
      x3 = bump_bytes(x3);
      x4 = bump_bytes(x4);
      x5 = bump_bytes(x5);
      x6 = bump_bytes(x6);
      x7 = bump_bytes(x7);
      x0 = bump_bytes(x0);
      x1 = bump_bytes(x1);
      x2 = bump_bytes(x2);
      x3 = bump_bytes(x3);
      x4 = bump_bytes(x4);
      x5 = bump_bytes(x5);
      x6 = bump_bytes(x6);
      x7 = bump_bytes(x7);
      x0 = bump_bytes(x0);
      x1 = bump_bytes(x1);
      x2 = bump_bytes(x2);
      x3 = bump_bytes(x3);
      x4 = bump_bytes(x4);
      x5 = bump_bytes(x5);
      x6 = bump_bytes(x6);
      x7 = bump_bytes(x7);
      x0 = bump_bytes(x0);
      x1 = bump_bytes(x1);
      x2 = bump_bytes(x2);
      x3 = bump_bytes(x3);
      x4 = bump_bytes(x4);
      x5 = bump_bytes(x5);
      x6 = bump_bytes(x6);
      x7 = bump_bytes(x7);
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = bump_bytes(x0);
    x1 = bump_bytes(x1);
    x2 = bump_bytes(x2);
    x3 = bump_bytes(x3);
    x4 = bump_bytes(x4);
    x5 = bump_bytes(x5);
    x6 = bump_bytes(x6);
    x7 = bump_bytes(x7);
    x0 = bump_bytes(x0);
    x1 = bump_bytes(x1);
    x2 = bump_bytes(x2);
    x3 = bump_bytes(x3);
    x4 = bump_bytes(x4);
    x5 = bump_bytes(x5);
    x6 = bump_bytes(x6);
    x7 = bump_bytes(x7);
    x0 = bump_bytes(x0);
    x1 = bump_bytes(x1);
    x2 = bump_bytes(x2);
    x3 = bump_bytes(x3);
    x4 = bump_bytes(x4);
    x5 = bump_bytes(x5);
    x6 = bump_bytes(x6);
    x7 = bump_bytes(x7);
    x0 = bump_bytes(x0);
    x1 = bump_bytes(x1);
    x2 = bump_bytes(x2);
    x3 = bump_bytes(x3);
    x4 = bump_bytes(x4);
    x5 = bump_bytes(x5);
    x6 = bump_bytes(x6);
    x7 = bump_bytes(x7);
  }
  out[idx] = ((x0 + x1) + (x2 + x3)) +
             ((x4 + x5) + (x6 + x7));
}
