// reduction-serial / -workgroup: the wrapping u32 sum of each segment of 256 values.
//   serial:         one thread a segment loops over its 256 values (workgroups of 64; the
//                   threads of a subgroup read 1 KiB apart).
//   workgroup_tree: one workgroup of 256 a segment; each thread loads one value into
//                   workgroup memory, then an 8-level tree halves the active threads with a
//                   barrier a level.
// Shape of the timed problem: 64 independent copies of the 256 segments x 256 values of
// CEILINGS.md (16,384 segments, 4,194,304 u32, 16 MiB), so a dispatch is not mostly launch
// overhead. The metric counts values summed: segments x 256 a dispatch.
const kLength = 256u;

struct Params {
  segments: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

var<workgroup> partial: array<u32, 256>;

@compute @workgroup_size(64)
fn serial(@builtin(global_invocation_id) gid: vec3<u32>) {
  let s = gid.x;
  if (s >= params.segments) {
    return;
  }
  let base = s * kLength;
  var sum = 0u;
  for (var k = 0u; k < kLength; k++) {
    sum += data[base + k];
  }
  sums[s] = sum;
}

@compute @workgroup_size(256)
fn workgroup_tree(@builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  let s = wid.x;
  partial[li] = data[s * kLength + li];
  workgroupBarrier();
  for (var width = kLength / 2u; width > 0u; width >>= 1u) {
    if (li < width) {
      partial[li] += partial[li + width];
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    sums[s] = partial[0];
  }
}
