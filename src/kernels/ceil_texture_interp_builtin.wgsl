// texture-interp-builtin: 1024 workgroups of 256 threads; each thread takes `iterations`
// linearly filtered samples (textureSampleLevel, a clamp-to-edge linear sampler) of a 4096×1
// rgba32float texture, folds them into a vec4 sum and writes one f32. Sample k of thread t sits
// at texel position x0 + f, x0 = min((t * 7 + k * 61) & 4095, 4094), f = (2 * ((t * 5 + k * 3)
// & 15) + 1) / 32: it depends on the thread and the loop (nothing can be hoisted), never falls
// on a texel centre, and the filter weight f is exact with ≥ 5 bits of sub-texel precision
// (Vulkan guarantees 4, GPUs have 8). Same interpolation as ceil_texture_interp_manual.wgsl.
// Bytes counted: threads × iterations × 32 (two 16-byte texels a sample).
struct Params {
  iterations: u32,  // samples a thread
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var samp: sampler;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  var sum = vec4<f32>(0.0);
  for (var k = 0u; k < params.iterations; k++) {
    let x0 = min((t * 7u + k * 61u) & 4095u, 4094u);
    let f = f32(((t * 5u + k * 3u) & 15u) * 2u + 1u) * (1.0 / 32.0);
    // Texel x0's centre is at (x0 + 0.5) / 4096; both divisions by powers of two are exact.
    let u = (f32(x0) + f + 0.5) * (1.0 / 4096.0);
    sum += textureSampleLevel(tex, samp, vec2<f32>(u, 0.5), 0.0);
  }
  out[t] = (sum.x + sum.y) + (sum.z + sum.w);
}
