// SiLU and GELU baselines, exactly as seed 003 §9-10 describe them: entry points `silu`
// (output = x / (1 + exp(−x))) and `gelu` (the tanh approximation with the seed's constants),
// one element a thread, scalar, workgroups of 256, ceil(count / 256) of them; a grid split into
// x × y continues the index row-major.
struct Params {
  count: u32,
}

const SQRT_2_OVER_PI: f32 = 0.7978845608;
const GELU_COEFF: f32 = 0.044715;

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

fn element(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
  return gid.x + gid.y * groups.x * 256u;
}

@compute @workgroup_size(256)
fn silu(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let i = element(gid, groups);
  if (i < params.count) {
    let x = input[i];
    output[i] = x / (1.0 + exp(-x));
  }
}

@compute @workgroup_size(256)
fn gelu(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let i = element(gid, groups);
  if (i < params.count) {
    let x = input[i];
    output[i] = 0.5 * x * (1.0 + tanh(SQRT_2_OVER_PI * (x + GELU_COEFF * x * x * x)));
  }
}
