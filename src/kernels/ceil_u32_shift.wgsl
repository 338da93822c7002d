// u32-shift: 8 independent u32 chains; even chains x = (x << n) ^ k, odd chains x = (x >> n) ^ k,
// with the amount n = (i + 8u + c) & 31 (i the iteration, u the unrolled step, c the chain). Loop
// body unrolled 4x (32 steps an iteration), 1 OP a step (the shift; the xor that keeps bits flowing
// and the amount arithmetic are not counted) = 32 OP per iteration; default 256 iterations. k and
// the start of x are hashes of the thread index; the loop bound is params.iterations. The output is
// the wrapping u32 sum of the 8 chains.
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
  let k0 = (idx ^ 0x5bd1e995u) * 0x85ebca6bu;
  let k1 = (idx ^ 0x5cd2ea96u) * 0x85ebca6bu;
  let k2 = (idx ^ 0x5dd3eb97u) * 0x85ebca6bu;
  let k3 = (idx ^ 0x5ed4ec98u) * 0x85ebca6bu;
  let k4 = (idx ^ 0x5fd5ed99u) * 0x85ebca6bu;
  let k5 = (idx ^ 0x60d6ee9au) * 0x85ebca6bu;
  let k6 = (idx ^ 0x61d7ef9bu) * 0x85ebca6bu;
  let k7 = (idx ^ 0x62d8f09cu) * 0x85ebca6bu;
  var x0 = (idx + 0u) * 0x9e3779b9u;
  var x1 = (idx + 1u) * 0x9e3779b9u;
  var x2 = (idx + 2u) * 0x9e3779b9u;
  var x3 = (idx + 3u) * 0x9e3779b9u;
  var x4 = (idx + 4u) * 0x9e3779b9u;
  var x5 = (idx + 5u) * 0x9e3779b9u;
  var x6 = (idx + 6u) * 0x9e3779b9u;
  var x7 = (idx + 7u) * 0x9e3779b9u;
  for (var i = 0u; i < params.iterations; i++) {
    x0 = (x0 << ((i + 0u) & 31u)) ^ k0;
    x1 = (x1 >> ((i + 1u) & 31u)) ^ k1;
    x2 = (x2 << ((i + 2u) & 31u)) ^ k2;
    x3 = (x3 >> ((i + 3u) & 31u)) ^ k3;
    x4 = (x4 << ((i + 4u) & 31u)) ^ k4;
    x5 = (x5 >> ((i + 5u) & 31u)) ^ k5;
    x6 = (x6 << ((i + 6u) & 31u)) ^ k6;
    x7 = (x7 >> ((i + 7u) & 31u)) ^ k7;
    x0 = (x0 << ((i + 8u) & 31u)) ^ k0;
    x1 = (x1 >> ((i + 9u) & 31u)) ^ k1;
    x2 = (x2 << ((i + 10u) & 31u)) ^ k2;
    x3 = (x3 >> ((i + 11u) & 31u)) ^ k3;
    x4 = (x4 << ((i + 12u) & 31u)) ^ k4;
    x5 = (x5 >> ((i + 13u) & 31u)) ^ k5;
    x6 = (x6 << ((i + 14u) & 31u)) ^ k6;
    x7 = (x7 >> ((i + 15u) & 31u)) ^ k7;
    x0 = (x0 << ((i + 16u) & 31u)) ^ k0;
    x1 = (x1 >> ((i + 17u) & 31u)) ^ k1;
    x2 = (x2 << ((i + 18u) & 31u)) ^ k2;
    x3 = (x3 >> ((i + 19u) & 31u)) ^ k3;
    x4 = (x4 << ((i + 20u) & 31u)) ^ k4;
    x5 = (x5 >> ((i + 21u) & 31u)) ^ k5;
    x6 = (x6 << ((i + 22u) & 31u)) ^ k6;
    x7 = (x7 >> ((i + 23u) & 31u)) ^ k7;
    x0 = (x0 << ((i + 24u) & 31u)) ^ k0;
    x1 = (x1 >> ((i + 25u) & 31u)) ^ k1;
    x2 = (x2 << ((i + 26u) & 31u)) ^ k2;
    x3 = (x3 >> ((i + 27u) & 31u)) ^ k3;
    x4 = (x4 << ((i + 28u) & 31u)) ^ k4;
    x5 = (x5 >> ((i + 29u) & 31u)) ^ k5;
    x6 = (x6 << ((i + 30u) & 31u)) ^ k6;
    x7 = (x7 >> ((i + 31u) & 31u)) ^ k7;
  }
  out[idx] = ((x0 + x1) + (x2 + x3)) +
             ((x4 + x5) + (x6 + x7));
}
