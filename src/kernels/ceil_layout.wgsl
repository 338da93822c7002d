// layout-aos / -soa / -aosoa: `count` particles of 8 f32 fields (px py pz vx vy vz mass age),
// one thread a particle, p += v * dt per axis (6 fields read, 3 written; mass and age ride
// along in the same cache lines only in the struct layouts). The override `particle_layout`
// picks where field f of particle p lives in the flat buffer:
//   0 array of structs:           p * 8 + f
//   1 struct of arrays:           f * count + p
//   2 array of structs of arrays: ((p / 32) * 8 + f) * 32 + p % 32   (count a multiple of 32)
// Shape of the timed problem: 65,536 particles (2 MiB), 256 workgroups of 256. The metric
// counts particles: count a dispatch.
override particle_layout: u32 = 0u;

const kFields = 8u;
const kBlock = 32u;

struct Params {
  count: u32,  // particles
  dt: f32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> data: array<f32>;

fn at(p: u32, f: u32) -> u32 {
  if (particle_layout == 0u) {
    return p * kFields + f;
  }
  if (particle_layout == 1u) {
    return f * params.count + p;
  }
  return ((p / kBlock) * kFields + f) * kBlock + p % kBlock;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let p = gid.x;
  if (p >= params.count) {
    return;
  }
  let dt = params.dt;
  let vx = data[at(p, 3u)];
  let vy = data[at(p, 4u)];
  let vz = data[at(p, 5u)];
  data[at(p, 0u)] = data[at(p, 0u)] + vx * dt;
  data[at(p, 1u)] = data[at(p, 1u)] + vy * dt;
  data[at(p, 2u)] = data[at(p, 2u)] + vz * dt;
}
