// The q8 activations of the q4 GEMV (reference/llm_q8.h): x [K] f32 in blocks of 32, each with
// d = max|x| / 127 (0 for an all-zero block) and codes q = round(x / d) (WGSL's round: half to
// even) clamped to [-127, 127], packed four to a u32 in dot4I8Packed's pairing with MatMulNBits
// nibbles: block b's words 8b .. 8b + 7 = (A0, B0, A1, B1, A2, B2, A3, B3), Aj the codes 8j,
// 8j + 2, 8j + 4, 8j + 6 (lowest byte first), Bj the odd ones; beside them (d, Σq), Σq the
// block's sum of codes (a whole number, exact in f32). Elements past K count as 0.
// One invocation a block; dispatch ceil(blocks / WG) workgroups (continuing in y past the limit).
struct Params {
  K: u32,
  blocks: u32,
}

override WG: u32 = 64u;

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> codes: array<vec4<u32>>;  // [blocks · 2]
@group(0) @binding(2) var<storage, read_write> scale_sums: array<vec2<f32>>;  // [blocks]
@group(0) @binding(3) var<uniform> params: Params;

fn value(i: u32) -> f32 {
  return select(0.0, x[min(i, params.K - 1u)], i < params.K);
}

// The byte of code q, two's complement.
fn byte_of(q: i32) -> u32 {
  return u32(q) & 0xFFu;
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let b = gid.x + gid.y * groups.x * WG;
  if (b >= params.blocks) {
    return;
  }
  let first = b * 32u;
  var amax = 0.0;
  for (var i = 0u; i < 32u; i++) {
    amax = max(amax, abs(value(first + i)));
  }
  let d = amax / 127.0;
  var words: array<u32, 8>;
  var sum = 0i;
  for (var i = 0u; i < 32u; i++) {
    var q = 0i;
    if (d > 0.0) {
      q = i32(clamp(round(value(first + i) / d), -127.0, 127.0));
    }
    sum += q;
    let group = i / 8u;
    let within = i % 8u;
    let word = 2u * group + within % 2u;
    words[word] |= byte_of(q) << (8u * (within / 2u));
  }
  codes[2u * b] = vec4<u32>(words[0], words[1], words[2], words[3]);
  codes[2u * b + 1u] = vec4<u32>(words[4], words[5], words[6], words[7]);
  scale_sums[b] = vec2<f32>(d, f32(sum));
}
