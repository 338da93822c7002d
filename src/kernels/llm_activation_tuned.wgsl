// SiLU, GELU and the fused SwiGLU combine silu(gate) · up, tuned (entry points `silu`, `gelu`,
// `silu_mul`): V elements (vec4 when the count is a multiple of 4, else f32: the composed
// element part), EPT of them a thread, at indices (workgroup · EPT + j) · WG + local so each
// of a warp's EPT loads is one contiguous run. GELU uses the same tanh approximation in its
// sigmoid form, 0.5 · (1 + tanh(u)) = 1 / (1 + exp(−2u)): one exp and no tanh, and no
// inf/inf for large |x|. silu_mul reads gate and up and writes the product: one pass instead of
// silu's write and mul's read of the intermediate.
struct Params {
  count: u32,  // f32 values
}

override WG: u32 = 256u;  // threads a workgroup
override EPT: u32 = 2u;   // elements of V a thread

const SQRT_2_OVER_PI: f32 = 0.7978845608;
const GELU_COEFF: f32 = 0.044715;

@group(0) @binding(0) var<storage, read> x: array<V>;         // silu_mul: gate
@group(0) @binding(1) var<storage, read_write> y: array<V>;
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read> up: array<V>;        // silu_mul

fn silu_of(v: V) -> V {
  return v / (V(1.0) + exp(-v));
}

fn gelu_of(v: V) -> V {
  let u = SQRT_2_OVER_PI * (v + GELU_COEFF * v * v * v);
  return v / (V(1.0) + exp(-2.0 * u));
}

// The index of this thread's element j, or a value ≥ the element count.
fn element(wid: vec3<u32>, groups: vec3<u32>, lid: u32, j: u32) -> u32 {
  return ((wid.x + wid.y * groups.x) * EPT + j) * WG + lid;
}

@compute @workgroup_size(WG)
fn silu(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  for (var j = 0u; j < EPT; j++) {
    let i = element(wid, groups, lid, j);
    if (i < params.count / kWidth) {
      y[i] = silu_of(x[i]);
    }
  }
}

@compute @workgroup_size(WG)
fn gelu(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  for (var j = 0u; j < EPT; j++) {
    let i = element(wid, groups, lid, j);
    if (i < params.count / kWidth) {
      y[i] = gelu_of(x[i]);
    }
  }
}

@compute @workgroup_size(WG)
fn silu_mul(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  for (var j = 0u; j < EPT; j++) {
    let i = element(wid, groups, lid, j);
    if (i < params.count / kWidth) {
      y[i] = silu_of(x[i]) * up[i];
    }
  }
}
