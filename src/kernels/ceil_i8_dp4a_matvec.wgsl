// i8-dp4a-matvec: a register-resident int8 GEMV tile on packed dot products (CEILINGS.md
// "Raw-ALU kernels"). Needs the WGSL language feature packed_4x8_integer_dot_product.
// Shape: a 4x8 int8 weight tile kept packed, four int8 lanes per u32 (rows k = 0..3, halves wk0,
// wk1); each iteration o[k] = dot4I8Packed(wk0, x0) + dot4I8Packed(wk1, x1) + c[k], the outputs
// are repacked and fed back (x1 = x0, x0 = pack4xI8(o >> 4), which keeps the low byte of each
// lane) and c rotates (c = c.yzwx).
// Ops: 8 dot4I8Packed x 4 multiply-adds x 2 = 64 per iteration, the same work as
// i32-mad-matvec, whose arithmetic (and output) this kernel reproduces with packed operands.
// Operands are hashes of the thread index: wkh = operand(2 k + h), x0 = operand(8),
// x1 = operand(9), c = unpack4xI8(operand(10)). The output is the sum of the int8 lanes of x0
// and x1, compared exactly. CPU model: reference::I8MatvecModel.

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
  let w00 = operand(idx, 0u);
  let w01 = operand(idx, 1u);
  let w10 = operand(idx, 2u);
  let w11 = operand(idx, 3u);
  let w20 = operand(idx, 4u);
  let w21 = operand(idx, 5u);
  let w30 = operand(idx, 6u);
  let w31 = operand(idx, 7u);
  var x0 = operand(idx, 8u);
  var x1 = operand(idx, 9u);
  var c = unpack4xI8(operand(idx, 10u));
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      let o = vec4<i32>(dot4I8Packed(w00, x0) + dot4I8Packed(w01, x1),
                        dot4I8Packed(w10, x0) + dot4I8Packed(w11, x1),
                        dot4I8Packed(w20, x0) + dot4I8Packed(w21, x1),
                        dot4I8Packed(w30, x0) + dot4I8Packed(w31, x1)) + c;
      x1 = x0;
      x0 = pack4xI8(o >> vec4<u32>(4u));
      c = c.yzwx;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    let o = vec4<i32>(dot4I8Packed(w00, x0) + dot4I8Packed(w01, x1),
                      dot4I8Packed(w10, x0) + dot4I8Packed(w11, x1),
                      dot4I8Packed(w20, x0) + dot4I8Packed(w21, x1),
                      dot4I8Packed(w30, x0) + dot4I8Packed(w31, x1)) + c;
    x1 = x0;
    x0 = pack4xI8(o >> vec4<u32>(4u));
    c = c.yzwx;
  }
  let v0 = unpack4xI8(x0);
  let v1 = unpack4xI8(x1);
  out[idx] = ((v0.x + v0.y) + (v0.z + v0.w)) + ((v1.x + v1.y) + (v1.z + v1.w));
}
