// write-scatter-16kb / -4mb / -64mb: each vec4 i of the window (i < mask + 1) is stored once,
// as vec4(f32(i)), at (i * 2654435761 + 1013904223) & mask: a permutation of the window, since
// the multiplier is odd and the window a power of two. Grid-stride over i with 256-thread
// workgroups; the rows dispatch min(1024, window / 256) workgroups, so a 4 MiB window is one
// store a thread and a 64 MiB one 16. No reads. Bytes counted: window × 16.
override mask: u32;  // window size in vec4s − 1 (the window is a power of two, ≤ 2^24)

@group(0) @binding(0) var<storage, read_write> data: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  for (var i = gid.x; i <= mask; i += stride) {
    data[(i * 2654435761u + 1013904223u) & mask] = vec4<f32>(f32(i));
  }
}
