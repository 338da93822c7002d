// texture-interp-manual: the interpolation of ceil_texture_interp_builtin.wgsl done by hand:
// two textureLoad of neighbouring texels of a 4096×1 rgba32float texture and mix(a, b, f).
// 1024 workgroups of 256 threads; sample k of thread t at texel position x0 + f with
// x0 = min((t * 7 + k * 61) & 4095, 4094) and f = (2 * ((t * 5 + k * 3) & 15) + 1) / 32 (both
// texels always in bounds); the samples fold into a vec4 sum, one f32 a thread.
// Bytes counted: threads × iterations × 32 (two 16-byte texels a sample).
struct Params {
  iterations: u32,  // samples a thread
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x;
  var sum = vec4<f32>(0.0);
  for (var k = 0u; k < params.iterations; k++) {
    let x0 = min((t * 7u + k * 61u) & 4095u, 4094u);
    let f = f32(((t * 5u + k * 3u) & 15u) * 2u + 1u) * (1.0 / 32.0);
    let a = textureLoad(tex, vec2<u32>(x0, 0u), 0);
    let b = textureLoad(tex, vec2<u32>(x0 + 1u, 0u), 0);
    sum += mix(a, b, vec4<f32>(f));
  }
  out[t] = (sum.x + sum.y) + (sum.z + sum.w);
}
