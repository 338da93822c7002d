// u32-firstleadingbit: 8 independent u32 chains x = firstLeadingBit(x) ^ k, loop body unrolled 4x
// (32 steps an iteration), 1 OP a step (the firstLeadingBit; the xor is not counted) = 32 OP per
// iteration; default 256 iterations. k = h >> (h & 31) has a varied bit length, so the leading bit
// moves (and x = 0, where firstLeadingBit is 0xffffffff, occurs). k and the start of x are hashes
// of the thread index; the loop bound is params.iterations. The output is the wrapping u32 sum of
// the 8 chains.
struct Params {
  threads: u32,
  iterations: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) {
    return;
  }
  let h0 = (idx ^ 0x5bd1e995u) * 0x85ebca6bu;
  let h1 = (idx ^ 0x5cd2ea96u) * 0x85ebca6bu;
  let h2 = (idx ^ 0x5dd3eb97u) * 0x85ebca6bu;
  let h3 = (idx ^ 0x5ed4ec98u) * 0x85ebca6bu;
  let h4 = (idx ^ 0x5fd5ed99u) * 0x85ebca6bu;
  let h5 = (idx ^ 0x60d6ee9au) * 0x85ebca6bu;
  let h6 = (idx ^ 0x61d7ef9bu) * 0x85ebca6bu;
  let h7 = (idx ^ 0x62d8f09cu) * 0x85ebca6bu;
  let k0 = h0 >> (h0 & 31u);
  let k1 = h1 >> (h1 & 31u);
  let k2 = h2 >> (h2 & 31u);
  let k3 = h3 >> (h3 & 31u);
  let k4 = h4 >> (h4 & 31u);
  let k5 = h5 >> (h5 & 31u);
  let k6 = h6 >> (h6 & 31u);
  let k7 = h7 >> (h7 & 31u);
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
      x0 = firstLeadingBit(x0) ^ k0;
      x1 = firstLeadingBit(x1) ^ k1;
      x2 = firstLeadingBit(x2) ^ k2;
      x3 = firstLeadingBit(x3) ^ k3;
      x4 = firstLeadingBit(x4) ^ k4;
      x5 = firstLeadingBit(x5) ^ k5;
      x6 = firstLeadingBit(x6) ^ k6;
      x7 = firstLeadingBit(x7) ^ k7;
      x0 = firstLeadingBit(x0) ^ k0;
      x1 = firstLeadingBit(x1) ^ k1;
      x2 = firstLeadingBit(x2) ^ k2;
      x3 = firstLeadingBit(x3) ^ k3;
      x4 = firstLeadingBit(x4) ^ k4;
      x5 = firstLeadingBit(x5) ^ k5;
      x6 = firstLeadingBit(x6) ^ k6;
      x7 = firstLeadingBit(x7) ^ k7;
      x0 = firstLeadingBit(x0) ^ k0;
      x1 = firstLeadingBit(x1) ^ k1;
      x2 = firstLeadingBit(x2) ^ k2;
      x3 = firstLeadingBit(x3) ^ k3;
      x4 = firstLeadingBit(x4) ^ k4;
      x5 = firstLeadingBit(x5) ^ k5;
      x6 = firstLeadingBit(x6) ^ k6;
      x7 = firstLeadingBit(x7) ^ k7;
      x0 = firstLeadingBit(x0) ^ k0;
      x1 = firstLeadingBit(x1) ^ k1;
      x2 = firstLeadingBit(x2) ^ k2;
      x3 = firstLeadingBit(x3) ^ k3;
      x4 = firstLeadingBit(x4) ^ k4;
      x5 = firstLeadingBit(x5) ^ k5;
      x6 = firstLeadingBit(x6) ^ k6;
      x7 = firstLeadingBit(x7) ^ k7;
    }
    trip += 8u;
  }
  for (var i = trip; i < params.iterations; i++) {
    x0 = firstLeadingBit(x0) ^ k0;
    x1 = firstLeadingBit(x1) ^ k1;
    x2 = firstLeadingBit(x2) ^ k2;
    x3 = firstLeadingBit(x3) ^ k3;
    x4 = firstLeadingBit(x4) ^ k4;
    x5 = firstLeadingBit(x5) ^ k5;
    x6 = firstLeadingBit(x6) ^ k6;
    x7 = firstLeadingBit(x7) ^ k7;
    x0 = firstLeadingBit(x0) ^ k0;
    x1 = firstLeadingBit(x1) ^ k1;
    x2 = firstLeadingBit(x2) ^ k2;
    x3 = firstLeadingBit(x3) ^ k3;
    x4 = firstLeadingBit(x4) ^ k4;
    x5 = firstLeadingBit(x5) ^ k5;
    x6 = firstLeadingBit(x6) ^ k6;
    x7 = firstLeadingBit(x7) ^ k7;
    x0 = firstLeadingBit(x0) ^ k0;
    x1 = firstLeadingBit(x1) ^ k1;
    x2 = firstLeadingBit(x2) ^ k2;
    x3 = firstLeadingBit(x3) ^ k3;
    x4 = firstLeadingBit(x4) ^ k4;
    x5 = firstLeadingBit(x5) ^ k5;
    x6 = firstLeadingBit(x6) ^ k6;
    x7 = firstLeadingBit(x7) ^ k7;
    x0 = firstLeadingBit(x0) ^ k0;
    x1 = firstLeadingBit(x1) ^ k1;
    x2 = firstLeadingBit(x2) ^ k2;
    x3 = firstLeadingBit(x3) ^ k3;
    x4 = firstLeadingBit(x4) ^ k4;
    x5 = firstLeadingBit(x5) ^ k5;
    x6 = firstLeadingBit(x6) ^ k6;
    x7 = firstLeadingBit(x7) ^ k7;
  }
  out[idx] = ((x0 + x1) + (x2 + x3)) +
             ((x4 + x5) + (x6 + x7));
}
