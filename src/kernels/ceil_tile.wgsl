// tile-direct / -shared / -shared-padded: a 3x3 box filter (sum of the 9 neighbours times
// 1/9, clamp-to-edge borders) over a width x height f32 image. Workgroups of 16 x 16 threads,
// each thread computes 2 horizontally adjacent outputs, so a workgroup covers a 32 x 16 output
// tile and needs a 34 x 18 input tile.
//   direct:      every thread loads its 4 x 3 inputs straight from global memory.
//   shared_tile: the workgroup stages the 34 x 18 tile in workgroup memory with row stride
//                `row_stride`, then each thread reads its 4 x 3 inputs from there. A subgroup
//                of 32 threads spans two tile rows and reads every other word of each: with
//                the unpadded even stride 34 both rows land on the same 16 banks (2-way
//                conflicts); the padded odd stride 35 puts the second row on the other 16.
// Shape of the timed problem: 2048 x 2048 pixels (16 MiB in, 16 MiB out), 64 x 128
// workgroups. The metric counts output pixels: width x height a dispatch.
override row_stride: u32 = 34u;

const kTileW = 32u;  // outputs a workgroup covers in x
const kTileH = 16u;  // and in y
const kHaloW = 34u;  // input tile
const kHaloH = 18u;
const kNinth = 1.0 / 9.0;

struct Params {
  width: u32,
  height: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;

var<workgroup> tile: array<f32, 630>;  // kHaloH rows of up to 35 words (2520 bytes)

fn load(x: i32, y: i32) -> f32 {
  let cx = u32(clamp(x, 0, i32(params.width) - 1));
  let cy = u32(clamp(y, 0, i32(params.height) - 1));
  return src[cy * params.width + cx];
}

fn store(x: u32, y: u32, s0: f32, s1: f32, s2: f32, s3: f32) {
  if (y >= params.height) {
    return;
  }
  if (x < params.width) {
    dst[y * params.width + x] = (s0 + s1 + s2) * kNinth;
  }
  if (x + 1u < params.width) {
    dst[y * params.width + x + 1u] = (s1 + s2 + s3) * kNinth;
  }
}

@compute @workgroup_size(16, 16)
fn direct(@builtin(workgroup_id) wid: vec3<u32>,
          @builtin(local_invocation_id) lid: vec3<u32>) {
  let ox = wid.x * kTileW + 2u * lid.x;  // first of the thread's two outputs
  let oy = wid.y * kTileH + lid.y;
  // Column sums of the 4 input columns ox-1 .. ox+2 over rows oy-1 .. oy+1.
  var c = vec4<f32>(0.0);
  for (var dy = -1; dy <= 1; dy++) {
    let y = i32(oy) + dy;
    c += vec4<f32>(load(i32(ox) - 1, y), load(i32(ox), y), load(i32(ox) + 1, y),
                   load(i32(ox) + 2, y));
  }
  store(ox, oy, c.x, c.y, c.z, c.w);
}

@compute @workgroup_size(16, 16)
fn shared_tile(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(local_invocation_id) lid: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let x0 = i32(wid.x * kTileW) - 1;
  let y0 = i32(wid.y * kTileH) - 1;
  for (var k = li; k < kHaloW * kHaloH; k += 256u) {
    let r = k / kHaloW;
    let col = k % kHaloW;
    tile[r * row_stride + col] = load(x0 + i32(col), y0 + i32(r));
  }
  workgroupBarrier();
  var c = vec4<f32>(0.0);
  for (var dy = 0u; dy < 3u; dy++) {
    let base = (lid.y + dy) * row_stride + 2u * lid.x;
    c += vec4<f32>(tile[base], tile[base + 1u], tile[base + 2u], tile[base + 3u]);
  }
  store(wid.x * kTileW + 2u * lid.x, wid.y * kTileH + lid.y, c.x, c.y, c.z, c.w);
}
