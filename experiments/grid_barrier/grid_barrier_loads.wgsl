// grid_barrier.wgsl's chain with memory work in every step, as a GEMV has: step p's value also
// adds the sum (u32, wrapping) of workgroup w's slice of `weights` for that step, 16 KB read
// cold from DRAM as four 16-byte loads an invocation issued together, then summed across the
// workgroup by a tree in workgroup memory. The slices do not depend on the chain, so with
// PREFETCH = 1 or 2 a workgroup loads step p + 1's slice after it arrives at the barrier and
// before it waits there: the DRAM round trip runs under the barrier, what no dispatch boundary
// allows (a dispatch's loads start after the barrier before it). PREFETCH = 0 loads after the
// barrier. Outside WebGPU's guarantees, as grid_barrier.wgsl says; checked against
// grid_barrier_loads_naive.wgsl before any time is taken.

override PHASES: u32 = 8;   // dependent steps a dispatch
const WG = 256u;            // invocations a workgroup
const SLICE = 1024u;        // vec4s of a workgroup's slice a step: 4 an invocation
override PREFETCH: u32 = 1; // 0: the next step's slice loaded after the barrier; 1, 2: under it

@group(0) @binding(0) var<storage, read> seeds: array<u32>;             // G
@group(0) @binding(1) var<storage, read_write> chain: array<atomic<u32>>;  // 2G
@group(0) @binding(2) var<storage, read_write> arrivals: atomic<u32>;
@group(0) @binding(3) var<storage, read_write> result: array<u32>;      // G
@group(0) @binding(4) var<storage, read> weights: array<vec4<u32>>;     // [PHASES, G, SLICE]

var<workgroup> partial: array<u32, WG>;

fn Mix(previous: u32, workgroup: u32, step: u32) -> u32 {
  return (previous ^ (step * 0x9E3779B9u)) * 2654435761u + workgroup;
}

// This lane's part of workgroup w's slice of step `step` (1-based): four loads, then their sum.
fn LaneSum(step: u32, w: u32, groups: u32, lane: u32) -> u32 {
  let base = ((step - 1u) * groups + w) * SLICE + lane;
  let a = weights[base];
  let b = weights[base + WG];
  let c = weights[base + 2u * WG];
  let d = weights[base + 3u * WG];
  let sum = a + b + c + d;
  return sum.x + sum.y + sum.z + sum.w;
}

// The workgroup's total of `partial` (every lane's sum, stored before a workgroup barrier), in
// every lane; `partial` free again on return.
fn WorkgroupTotal(lane: u32) -> u32 {
  workgroupBarrier();
  for (var half = WG / 2u; half > 0u; half /= 2u) {
    if (lane < half) { partial[lane] += partial[lane + half]; }
    workgroupBarrier();
  }
  let total = partial[0];
  workgroupBarrier();
  return total;
}

fn Arrive(groups: u32) -> u32 {
  let arrival = atomicAdd(&arrivals, 1u);
  return (arrival / groups + 1u) * groups;
}

fn Wait(all_arrived: u32) {
  loop {
    if (atomicLoad(&arrivals) >= all_arrived) { break; }
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) id: vec3u, @builtin(local_invocation_index) lane: u32) {
  let groups = arrayLength(&seeds);
  let w = id.x;
  let neighbour = (w + 1u) % groups;
  partial[lane] = LaneSum(1u, w, groups, lane);
  for (var step = 1u; step <= PHASES; step++) {
    let total = WorkgroupTotal(lane);
    if (lane == 0u) {
      var previous: u32;
      if (step == 1u) {
        previous = seeds[neighbour];
      } else {
        previous = atomicLoad(&chain[((step - 1u) % 2u) * groups + neighbour]);
      }
      let value = Mix(previous + total, w, step);
      if (step == PHASES) {
        result[w] = value;
      } else {
        atomicStore(&chain[(step % 2u) * groups + w], value);
      }
    }
    if (step < PHASES) {
      // The grid barrier; the next slice loaded after it (0), or between arriving and waiting,
      // its sum held in a register (1; the compiler may still schedule the loads after the
      // spin) or stored to workgroup memory before the spin (2).
      storageBarrier();
      var all_arrived = 0u;
      var held = 0u;
      if (lane == 0u) { all_arrived = Arrive(groups); }
      if (PREFETCH == 1u) { held = LaneSum(step + 1u, w, groups, lane); }
      if (PREFETCH == 2u) { partial[lane] = LaneSum(step + 1u, w, groups, lane); }
      if (lane == 0u) { Wait(all_arrived); }
      workgroupBarrier();
      if (PREFETCH == 0u) { partial[lane] = LaneSum(step + 1u, w, groups, lane); }
      if (PREFETCH == 1u) { partial[lane] = held; }
    }
  }
}
