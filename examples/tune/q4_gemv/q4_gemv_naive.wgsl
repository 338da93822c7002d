// The q4 GEMV's reference: one invocation an output, every weight dequantized on its own from
// the MatMulNBits bytes (byte i of a block: element 2i low nibble, 2i + 1 high nibble) and
// summed in K order, with the block's scale applied to each product.

struct Dims {
  n: u32,
  k: u32,
  unused0: u32,
  unused1: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;
@group(0) @binding(4) var<uniform> dims: Dims;

fn byte_at(index: u32) -> u32 {
  return (b[index / 4u] >> (8u * (index % 4u))) & 0xFFu;
}

@compute @workgroup_size(64)
fn naive(@builtin(global_invocation_id) id: vec3u) {
  let n = id.x;
  if (n >= dims.n) {
    return;
  }
  let blocks = dims.k / 32u;
  var sum = 0.0;
  for (var k = 0u; k < dims.k; k++) {
    let block = n * blocks + k / 32u;
    let byte = byte_at(block * 16u + (k % 32u) / 2u);
    let nibble = select(byte & 0xFu, byte >> 4u, k % 2u == 1u);
    sum += a[k] * ((f32(nibble) - 8.0) * scales[block]);
  }
  y[n] = sum;
}
