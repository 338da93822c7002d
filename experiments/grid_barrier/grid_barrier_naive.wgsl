// grid_barrier.wgsl's chain, one invocation stepping all G values in order (G ≤ 256).

override PHASES: u32 = 8;

@group(0) @binding(0) var<storage, read> seeds: array<u32>;
@group(0) @binding(3) var<storage, read_write> result: array<u32>;

fn Mix(previous: u32, workgroup: u32, step: u32) -> u32 {
  return (previous ^ (step * 0x9E3779B9u)) * 2654435761u + workgroup;
}

@compute @workgroup_size(1)
fn naive() {
  let groups = arrayLength(&seeds);
  var values: array<u32, 256>;
  var next: array<u32, 256>;
  for (var w = 0u; w < groups; w++) { values[w] = seeds[w]; }
  for (var step = 1u; step <= PHASES; step++) {
    for (var w = 0u; w < groups; w++) { next[w] = Mix(values[(w + 1u) % groups], w, step); }
    values = next;
  }
  for (var w = 0u; w < groups; w++) { result[w] = values[w]; }
}
