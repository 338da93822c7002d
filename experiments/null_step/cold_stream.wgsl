// A dependent dispatch that only reads: each of the G workgroups sums (u32, wrapping) its W
// words of `data`, read cold, and writes the sum. It stands for what a decode-step dispatch
// that reads the same bytes in the same grid pays for its reads alone: every GEMV reads its
// weights, attention its cache. `sums` is written by every dispatch, so Dawn puts its barrier
// between two of them, as it does between the step's. Checked against cold_stream_naive.wgsl
// before any time is taken.

override W: u32 = 4096;     // u32 words a workgroup reads: a multiple of 4 (of 256 interleaved)
override LAYOUT: u32 = 0;   // 0: a workgroup's words one slice; 1: 1 KB chunks, G apart
override WG: u32 = 256;     // invocations a workgroup
override UNROLL: u32 = 4;   // 16-byte loads an invocation issues together a trip

const CHUNK = 64u;          // vec4s of an interleaved chunk (1 KB)

@group(0) @binding(0) var<storage, read> data: array<vec4<u32>>;   // G · W words
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;   // G

var<workgroup> partial: array<u32, WG>;

// The index in `data` of vec4 j of workgroup w's words (of G).
fn At(j: u32, w: u32, groups: u32) -> u32 {
  if (LAYOUT == 0u) { return w * (W / 4u) + j; }
  return ((j / CHUNK) * groups + w) * CHUNK + j % CHUNK;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) id: vec3u, @builtin(num_workgroups) grid: vec3u,
        @builtin(local_invocation_index) lane: u32) {
  let vecs = W / 4u;
  var sum = vec4<u32>(0u);
  var j = lane;
  // Whole trips: UNROLL loads, each WG vec4s apart, before any is summed.
  for (; j + (UNROLL - 1u) * WG < vecs; j += UNROLL * WG) {
    for (var u = 0u; u < UNROLL; u++) { sum += data[At(j + u * WG, id.x, grid.x)]; }
  }
  for (; j < vecs; j += WG) { sum += data[At(j, id.x, grid.x)]; }
  partial[lane] = sum.x + sum.y + sum.z + sum.w;
  workgroupBarrier();
  for (var half = WG / 2u; half > 0u; half /= 2u) {
    if (lane < half) { partial[lane] += partial[lane + half]; }
    workgroupBarrier();
  }
  if (lane == 0u) { sums[id.x] = partial[0]; }
}
