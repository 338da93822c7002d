// The sum of a split-K GEMM's slices (llm_gemm_core_part.wgsl): C[i] = Σ_z P[z · count + i]
// over `slices` partial products of `count` vec4 each (M rows of N4 vec4). One invocation a vec4;
// dispatch ceil(count / 64) workgroups (continuing in y past the limit).
struct Params {
  count: u32,   // vec4 of C
  slices: u32,
}

@group(0) @binding(0) var<storage, read> partials: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> C: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let i = gid.x + gid.y * groups.x * 64u;
  if (i >= params.count) {
    return;
  }
  var sum = vec4<f32>(0.0);
  for (var z = 0u; z < params.slices; z++) {
    sum += partials[z * params.count + i];
  }
  C[i] = sum;
}
