// The end-to-end tests' user kernel (tests/e2e/cli_tune_test.cpp): y = 2x + 1 over N values,
// ITEMS consecutive values an invocation, WG invocations a workgroup; `reference` is the plain
// one-value-an-invocation version. The tests plant bugs in a copy of it.
override WG: u32 = 64;
override ITEMS: u32 = 1;

struct Dims {
  n: u32,
  unused0: u32,
  unused1: u32,
  unused2: u32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) id: vec3u) {
  for (var i = 0u; i < ITEMS; i++) {
    let at = id.x * ITEMS + i;
    if (at < dims.n) {
      y[at] = 2.0 * x[at] + 1.0;
    }
  }
}

@compute @workgroup_size(64)
fn reference(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < dims.n) {
    y[id.x] = x[id.x] * 2.0 + 1.0;
  }
}
