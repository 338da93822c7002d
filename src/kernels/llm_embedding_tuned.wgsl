// embedding tuned: output[t, d] = table[ids[t], d] (table [vocab, hidden] f32, output
// [T, hidden]), with the seed's bindings and uniform, two entry points:
//   main_vec4   (hidden % 4 == 0): thread i copies vec4 i of the output, i.e. vec4
//               i % (hidden / 4) of row ids[i / (hidden / 4)]: one 16-byte load and store, rows
//               read contiguously by consecutive threads.
//   main_scalar (any hidden): thread i copies the 4 consecutive output elements 4i .. 4i + 3
//               (a group may span two tokens) with scalar loads and stores.
// The entry points bind the table and the output as vec4 or f32 arrays (same bindings, one
// view each). Dispatch: ceil(T · hidden / 4 / WG) workgroups of WG (a grid split into x × y
// continues row-major); threads past the output return.
struct Params {
  seq_len: u32,
  hidden_size: u32,
}

override WG: u32 = 256u;

@group(0) @binding(0) var<storage, read> ids: array<u32>;
@group(0) @binding(1) var<storage, read> table4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out4: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> table: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

fn thread_index(wid: vec3<u32>, groups: vec3<u32>, lid: u32) -> u32 {
  return (wid.x + wid.y * groups.x) * WG + lid;
}

@compute @workgroup_size(WG)
fn main_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let i = thread_index(wid, groups, lid);
  let row4 = params.hidden_size / 4u;
  if (i >= params.seq_len * row4) {
    return;
  }
  out4[i] = table4[ids[i / row4] * row4 + i % row4];
}

@compute @workgroup_size(WG)
fn main_scalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
  let first = thread_index(wid, groups, lid) * 4u;
  let total = params.seq_len * params.hidden_size;
  for (var e = first; e < min(first + 4u, total); e++) {
    out[e] = table[ids[e / params.hidden_size] * params.hidden_size + e % params.hidden_size];
  }
}
