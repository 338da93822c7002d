// The 2-bit corpus scan (seed 004's tail; docs/KERNELS.md "2-bit corpus scan"): vector v is D
// codes of 2 bits (4 a byte, the first code in the high bits: D / 16 u32 words, bytes little
// endian) and norms[v]; for each of the 8 queries q,
//   scores[v * 8 + q] = norms[v] * Σ_j lut[(q * D + j) * 4 + code_j(v)].
// Invocation t of workgroup g scores vectors g * WG * VPT + i * WG + t, i < VPT (each pass of
// the workgroup on consecutive vectors). LUT_SHARED = 1: the workgroup first copies the whole
// table (8 * D * 4 f32, LUT_FLOATS) into workgroup memory; 0: it reads the table from storage
// (LUT_FLOATS is then 4, unused).
// Dispatch: ceil(vectors / (WG * VPT)) workgroups (a grid split into x × y continues row-major).
struct Params {
  vectors: u32,
}

override WG: u32 = 256u;
override VPT: u32 = 1u;
override D: u32 = 768u;
override LUT_SHARED: u32 = 0u;
override LUT_FLOATS: u32 = 4u;

const kQueries = 8u;

@group(0) @binding(0) var<storage, read> codes: array<u32>;
@group(0) @binding(1) var<storage, read> norms: array<f32>;
@group(0) @binding(2) var<storage, read> lut: array<f32>;
@group(0) @binding(3) var<storage, read_write> scores: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

var<workgroup> lut_shared: array<f32, LUT_FLOATS>;

fn table(index: u32) -> f32 {
  if (LUT_SHARED == 1u) {
    return lut_shared[index];
  }
  return lut[index];
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  if (LUT_SHARED == 1u) {
    for (var i = lid; i < kQueries * D * 4u; i += WG) {
      lut_shared[i] = lut[i];
    }
    workgroupBarrier();
  }
  let first = (wid.x + wid.y * grid.x) * WG * VPT + lid;
  let words = D / 16u;
  for (var i = 0u; i < VPT; i++) {
    let v = first + i * WG;
    if (v >= params.vectors) {
      break;
    }
    var sums = array<f32, kQueries>();  // zeroed for each vector
    for (var w = 0u; w < words; w++) {
      let word = codes[v * words + w];
      for (var b = 0u; b < 4u; b++) {
        let code_byte = (word >> (8u * b)) & 0xffu;
        for (var k = 0u; k < 4u; k++) {
          let j = w * 16u + b * 4u + k;
          let entry = j * 4u + ((code_byte >> (6u - 2u * k)) & 3u);
          for (var q = 0u; q < kQueries; q++) {
            sums[q] += table(q * D * 4u + entry);
          }
        }
      }
    }
    let norm = norms[v];
    for (var q = 0u; q < kQueries; q++) {
      scores[v * kQueries + q] = norm * sums[q];
    }
  }
}
