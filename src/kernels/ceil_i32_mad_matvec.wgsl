// i32-mad-matvec: a register-resident int8 GEMV tile without packed dot products
// (CEILINGS.md "Raw-ALU kernels"): the int8 weights are unpacked once into vec4<i32> and every
// 4-wide product is an integer dot(). Shape: a 4x8 weight tile (rows k = 0..3, halves wk0, wk1);
// each iteration o[k] = dot(wk0, x0) + dot(wk1, x1) + c[k], the outputs are fed back (x1 = x0,
// x0 = o >> 4, wrapped to int8 by sign-extending its low byte, exactly what
// pack4xI8(o >> 4) keeps in i8-dp4a-matvec) and c rotates (c = c.yzwx).
// Ops: 4 rows x 8 multiply-adds x 2 = 64 per iteration (each row: 2 x (4 mul + 3 add) + 1 add +
// the add of c = 16); the 8 shifts of the feedback are not counted.
// Operands are hashes of the thread index: packed weights wkh = operand(2 k + h), x0 =
// operand(8), x1 = operand(9), c = operand(10), each as four int8. The output is the sum of the
// lanes of x0 and x1, compared exactly; it equals i8-dp4a-matvec's. CPU model:
// reference::I8MatvecModel.

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

// unpack4xI8 written out with shifts, so the kernel needs no language feature: lane i is the
// sign-extended byte i of p.
fn unpack_i8(p: u32) -> vec4<i32> {
  return bitcast<vec4<i32>>(vec4<u32>(p) << vec4<u32>(24u, 16u, 8u, 0u)) >> vec4<u32>(24u);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) {
    return;
  }
  let w00 = unpack_i8(operand(idx, 0u));
  let w01 = unpack_i8(operand(idx, 1u));
  let w10 = unpack_i8(operand(idx, 2u));
  let w11 = unpack_i8(operand(idx, 3u));
  let w20 = unpack_i8(operand(idx, 4u));
  let w21 = unpack_i8(operand(idx, 5u));
  let w30 = unpack_i8(operand(idx, 6u));
  let w31 = unpack_i8(operand(idx, 7u));
  var x0 = unpack_i8(operand(idx, 8u));
  var x1 = unpack_i8(operand(idx, 9u));
  var c = unpack_i8(operand(idx, 10u));
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      let o = vec4<i32>(dot(w00, x0) + dot(w01, x1), dot(w10, x0) + dot(w11, x1),
                        dot(w20, x0) + dot(w21, x1), dot(w30, x0) + dot(w31, x1)) + c;
      x1 = x0;
      x0 = (o << vec4<u32>(20u)) >> vec4<u32>(24u);
      c = c.yzwx;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    let o = vec4<i32>(dot(w00, x0) + dot(w01, x1), dot(w10, x0) + dot(w11, x1),
                      dot(w20, x0) + dot(w21, x1), dot(w30, x0) + dot(w31, x1)) + c;
    x1 = x0;
    x0 = (o << vec4<u32>(20u)) >> vec4<u32>(24u);
    c = c.yzwx;
  }
  out[idx] = ((x0.x + x0.y) + (x0.z + x0.w)) + ((x1.x + x1.y) + (x1.z + x1.w));
}
