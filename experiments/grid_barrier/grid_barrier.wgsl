// A chain of PHASES dependent steps across a grid of G workgroups in ONE dispatch, the steps
// separated by a grid barrier (an atomic arrival counter every workgroup spins on), against the
// same chain as PHASES dispatches. Step p: workgroup w's value becomes Mix(its neighbour
// (w + 1) % G's value of step p - 1, w, p), so every step depends on another workgroup's last.
//
// Outside WebGPU's guarantees, measured as what the hardware allows, never shipped: WGSL promises
// no forward progress between workgroups (a grid larger than the GPU can hold at once deadlocks)
// and its atomics are relaxed (nothing orders the value's store before the arrival in the WGSL
// memory model). Values therefore pass through atomics only, and the output is checked against
// grid_barrier_naive.wgsl before any time is taken.

override PHASES: u32 = 8;  // dependent steps a dispatch; PHASES - 1 grid barriers
override WG: u32 = 64;     // invocations a workgroup; lane 0 does the step, all wait at barriers

@group(0) @binding(0) var<storage, read> seeds: array<u32>;             // G: step 0's values
@group(0) @binding(1) var<storage, read_write> chain: array<atomic<u32>>;  // 2G: steps' values, by parity
@group(0) @binding(2) var<storage, read_write> arrivals: atomic<u32>;  // grows by G a barrier, never reset
@group(0) @binding(3) var<storage, read_write> result: array<u32>;      // G: step PHASES's values

fn Mix(previous: u32, workgroup: u32, step: u32) -> u32 {
  return (previous ^ (step * 0x9E3779B9u)) * 2654435761u + workgroup;
}

// Every workgroup's lane 0 arrives, then spins until all G of this barrier have: the counter
// starts each dispatch at a multiple of G, so barrier b of any dispatch waits for the next one.
fn GridBarrier(groups: u32, lane: u32) {
  storageBarrier();
  if (lane == 0u) {
    let arrival = atomicAdd(&arrivals, 1u);
    let all_arrived = (arrival / groups + 1u) * groups;
    loop {
      if (atomicLoad(&arrivals) >= all_arrived) { break; }
    }
  }
  workgroupBarrier();
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) id: vec3u, @builtin(local_invocation_index) lane: u32) {
  let groups = arrayLength(&seeds);
  let w = id.x;
  let neighbour = (w + 1u) % groups;
  for (var step = 1u; step <= PHASES; step++) {
    if (lane == 0u) {
      var previous: u32;
      if (step == 1u) {
        previous = seeds[neighbour];
      } else {
        previous = atomicLoad(&chain[((step - 1u) % 2u) * groups + neighbour]);
      }
      let value = Mix(previous, w, step);
      if (step == PHASES) {
        result[w] = value;
      } else {
        atomicStore(&chain[(step % 2u) * groups + w], value);
      }
    }
    if (step < PHASES) {
      GridBarrier(groups, lane);
    }
  }
}
