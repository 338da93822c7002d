// f32-fma-vec4: f32 multiply-add throughput on vec4 registers (CEILINGS.md "Raw-ALU kernels").
// Shape: 8 independent vec4<f32> chains x = x * a + b, loop body unrolled 4x (32 steps an
// iteration). Ops: 8 chains x 4 lanes x 4 steps x 2 (a multiply-add counts 2) = 256 per
// iteration. Lane j computes exactly what f32-fma-scalar computes with s = ((idx + 256 j) & 1023)
// / 1024: a = 1 - 2^-10 - s * 2^-11, b = (s + 0.5) * 2^-10, chain k starts at s - 1 + k / 4
// (exact operands, values within [-1, 2)). The output sums all chains, then the lanes.
// CPU model: reference::F32FmaVec4Model.

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
  let l = vec4<f32>((vec4<u32>(idx) + vec4<u32>(0u, 256u, 512u, 768u)) & vec4<u32>(1023u)) *
          0.0009765625;
  let a = 0.9990234375 - l * 0.00048828125;
  let b = l * 0.0009765625 + 0.00048828125;
  var x0 = l - 1.0;
  var x1 = l - 0.75;
  var x2 = l - 0.5;
  var x3 = l - 0.25;
  var x4 = l;
  var x5 = l + 0.25;
  var x6 = l + 0.5;
  var x7 = l + 0.75;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
      x4 = x4 * a + b;
      x5 = x5 * a + b;
      x6 = x6 * a + b;
      x7 = x7 * a + b;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
  }
  let v = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
  out[idx] = (v.x + v.y) + (v.z + v.w);
}
