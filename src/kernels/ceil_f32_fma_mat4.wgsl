// f32-fma-mat4: f32 throughput of mat4x4 * vec4 (CEILINGS.md "Raw-ALU kernels").
// Shape: x = m * x + c, then c = c.yzwx (c rotates, so x settles into a 4-periodic orbit that
// keeps depending on the iteration count). One step an iteration: 16 multiply-adds = 32 ops.
// m is a contraction: column j, row i is ((idx + 3 i + 12 j) % 15 + 1) / 128, entries in
// [1/128, 1/8), row sums below 1/2, so |x| stays below 1 for any iteration count. x starts at
// l = ((idx + (0, 256, 512, 768)) & 1023) / 1024, c at l.yzwx - 0.5 (all exact in f32).
// The output is x.x + x.y + x.z + x.w. CPU model: reference::F32FmaMat4Model.

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
  let base = vec4<u32>(idx) + vec4<u32>(0u, 3u, 6u, 9u);
  let m = mat4x4<f32>(
    vec4<f32>((base + 0u) % vec4<u32>(15u) + vec4<u32>(1u)) * 0.0078125,
    vec4<f32>((base + 12u) % vec4<u32>(15u) + vec4<u32>(1u)) * 0.0078125,
    vec4<f32>((base + 24u) % vec4<u32>(15u) + vec4<u32>(1u)) * 0.0078125,
    vec4<f32>((base + 36u) % vec4<u32>(15u) + vec4<u32>(1u)) * 0.0078125,
  );
  let l = vec4<f32>((vec4<u32>(idx) + vec4<u32>(0u, 256u, 512u, 768u)) & vec4<u32>(1023u)) *
          0.0009765625;
  var x = l;
  var c = l.yzwx - 0.5;
  // Eight iterations a trip (a constant-count inner loop, which compilers unroll), then the
  // remainder: loop control would otherwise take issue slots from the measured ops
  // (f32-fma-scalar on the H200: 48.4 -> 61.7 TFLOP/s). Ops per iteration are unchanged.
  var trip = 0u;
  loop {
    if (trip + 8u > params.iterations) {
      break;
    }
    for (var u = 0u; u < 8u; u++) {
      x = m * x + c;
      c = c.yzwx;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x = m * x + c;
    c = c.yzwx;
  }
  out[idx] = (x.x + x.y) + (x.z + x.w);
}
