// cold_stream.wgsl's sums, one invocation a workgroup's W words in order.

override W: u32 = 4096;
override LAYOUT: u32 = 0;

const CHUNK = 256u;  // words of an interleaved chunk

@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;

@compute @workgroup_size(1)
fn naive(@builtin(workgroup_id) id: vec3u, @builtin(num_workgroups) grid: vec3u) {
  var sum = 0u;
  for (var i = 0u; i < W; i++) {
    if (LAYOUT == 0u) {
      sum += data[id.x * W + i];
    } else {
      sum += data[((i / CHUNK) * grid.x + id.x) * CHUNK + i % CHUNK];
    }
  }
  sums[id.x] = sum;
}
