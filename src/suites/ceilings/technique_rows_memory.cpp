// The memory-layout families of the technique rows: workgroup size, particle layout, stencil
// tiling (see technique_rows.h).
#include <algorithm>
#include <cmath>

#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "suites/ceilings/technique_rows.h"

namespace refract::suites::ceilings {
namespace {

using gpu::Download;
using gpu::Uniform;
using gpu::Upload;

// ---- workgroup-* ----
constexpr uint32_t kScaleAddVec4s = 1u << 20;     // timed problem: 16 MiB in, 16 MiB out
constexpr uint32_t kScaleAddVerifyVec4s = 10007;  // not a multiple of any workgroup size
constexpr float kScaleA = 1.5f;
constexpr float kScaleB = 0.25f;

struct ScaleAddParams {
  uint32_t count;
  float a;
  float b;
  uint32_t padding;
};

// ---- layout-* ----
constexpr uint32_t kParticles = 65536;
constexpr uint32_t kLayoutWorkgroup = 256;
constexpr float kDt = 1.0f / 64.0f;

struct LayoutParams {
  uint32_t count;
  float dt;
  uint32_t padding[2];
};

// ---- tile-* ----
constexpr uint32_t kImageSide = 2048;
constexpr uint32_t kVerifyWidth = 100;  // 3 full tiles and a partial one across,
constexpr uint32_t kVerifyHeight = 70;  // 4 full and a partial one down
constexpr uint32_t kTileW = 32;         // outputs a workgroup covers (ceil_tile.wgsl)
constexpr uint32_t kTileH = 16;
// The sum is exact and × (1/9) rounds once: 1e-6 relative, and 1e-6 absolute near 0.
constexpr Tolerance kTileTolerance{.absolute = 1e-6, .relative = 1e-6};

struct TileParams {
  uint32_t width;
  uint32_t height;
  uint32_t padding[2];
};

gpu::Dispatch TileDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                           uint32_t width, uint32_t height, const gpu::Buffer& src,
                           const gpu::Buffer& dst) {
  return gpu::DispatchBuilder(context, pipeline)
      .Buffer(0, Uniform(context, TileParams{width, height, {0, 0}}))
      .Buffer(1, src)
      .Buffer(2, dst)
      .Groups(gpu::GroupsFor(width, kTileW), gpu::GroupsFor(height, kTileH))
      .Build();
}

/// y = x · a + b over `vec4s` vec4 of `x`, one thread a vec4 in workgroups of `workgroup_size`.
gpu::Dispatch ScaleAddDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                               uint32_t workgroup_size, const gpu::Buffer& params,
                               const gpu::Buffer& x, const gpu::Buffer& y, uint32_t vec4s) {
  return gpu::DispatchBuilder(context, pipeline)
      .Buffer(0, params)
      .Buffer(1, x)
      .Buffer(2, y)
      .Groups(gpu::GroupsFor(vec4s, workgroup_size))
      .Build();
}

/// One step of the kParticles particles in `data`.
gpu::Dispatch LayoutDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                             const gpu::Buffer& params, const gpu::Buffer& data) {
  return gpu::DispatchBuilder(context, pipeline)
      .Buffer(0, params)
      .Buffer(1, data)
      .Groups(kParticles / kLayoutWorkgroup)
      .Build();
}

bench::BenchmarkInfo WorkgroupInfo(uint32_t size) {
  return {"workgroup-" + std::to_string(size), "algorithm", "elem/s", "",
          "y = x*a + b over 1,048,576 vec4, one thread a vec4, @workgroup_size(" +
              std::to_string(size) + "); elem/s = 4,194,304 f32 elements / time"};
}

bench::BenchmarkInfo LayoutInfo(reference::ParticleLayout layout) {
  const char* names[] = {"aos", "soa", "aosoa"};
  const char* shapes[] = {"array of structs", "struct of arrays",
                          "array of structs of arrays (blocks of 32)"};
  auto index = static_cast<size_t>(layout);
  return {std::string("layout-") + names[index], "algorithm", "particle/s", "",
          std::string("p += v*dt for 65,536 particles x 8 f32 fields, ") + shapes[index] +
              "; particle/s = 65,536 / time"};
}

bench::BenchmarkInfo TileInfo(TileVariant variant) {
  switch (variant) {
    case TileVariant::kDirect:
      return {"tile-direct", "algorithm", "px/s", "",
              "3x3 box filter of a 2048x2048 f32 image, direct global loads; "
              "px/s = 4,194,304 output pixels / time"};
    case TileVariant::kShared:
      return {"tile-shared", "algorithm", "px/s", "",
              "3x3 box filter of a 2048x2048 f32 image, 34x18 tile staged in workgroup memory "
              "(row stride 34); px/s = 4,194,304 output pixels / time"};
    case TileVariant::kSharedPadded:
      return {"tile-shared-padded", "algorithm", "px/s", "",
              "3x3 box filter of a 2048x2048 f32 image, workgroup tile padded to row stride 35 "
              "(no bank conflicts); px/s = 4,194,304 output pixels / time"};
  }
  return {};
}

}  // namespace

// ---- WorkgroupSizeRow ----

WorkgroupSizeRow::WorkgroupSizeRow(uint32_t workgroup_size)
    : TechniqueRow(WorkgroupInfo(workgroup_size), 4.0 * kScaleAddVec4s, kScaleAddVec4s, 4),
      workgroup_size_(workgroup_size) {}

void WorkgroupSizeRow::Prepare(gpu::Context& context) {
  pipeline_ = CompileKernel(context, "ceil_workgroup", "main", info_.id,
                            {{"wg", static_cast<double>(workgroup_size_)}});
  std::vector<float> x = reference::ScaleAddInput(size_t{kScaleAddVec4s} * 4);
  gpu::Buffer input = Upload(context, std::span<const float>(x), gpu::kUsageStorage, "x");
  gpu::Buffer output = context.CreateBuffer(input.size(), gpu::kUsageStorage, "y");
  gpu::Buffer params = Uniform(context, ScaleAddParams{kScaleAddVec4s, kScaleA, kScaleB, 0});
  SetBufferBytes(input.size());
  dispatches_ = {
      ScaleAddDispatch(context, pipeline_, workgroup_size_, params, input, output, kScaleAddVec4s)};
}

VerificationRecord WorkgroupSizeRow::Verify(gpu::Context& context) {
  RequirePrepared(pipeline_);
  std::vector<float> x = reference::ScaleAddInput(size_t{kScaleAddVerifyVec4s} * 4);
  gpu::Buffer input = Upload(context, std::span<const float>(x), gpu::kUsageStorage, "verify x");
  gpu::Buffer output =
      context.CreateBuffer(input.size(), gpu::kUsageStorage | gpu::kUsageCopySrc, "verify y");
  gpu::Buffer params = Uniform(context, ScaleAddParams{kScaleAddVerifyVec4s, kScaleA, kScaleB, 0});
  context.RunPass(ScaleAddDispatch(context, pipeline_, workgroup_size_, params, input, output,
                                   kScaleAddVerifyVec4s),
                  1, false);
  std::vector<float> gpu = Download<float>(context, output);
  std::vector<float> cpu = reference::ScaleAddModel(x, kScaleA, kScaleB);
  return reference::Compare(info_.id, gpu, cpu, Tolerance{},
                            IndexNamer("element"));  // exact: see reference::ScaleAddInput
}

// ---- LayoutRow ----

LayoutRow::LayoutRow(reference::ParticleLayout layout)
    : TechniqueRow(LayoutInfo(layout), kParticles, kParticles, reference::kParticleFields),
      layout_(layout) {}

void LayoutRow::Prepare(gpu::Context& context) {
  pipeline_ = CompileKernel(context, "ceil_layout", "main", info_.id,
                            {{"particle_layout", static_cast<double>(static_cast<int>(layout_))}});
  std::vector<float> particles = reference::MakeParticles(layout_, kParticles);
  gpu::Buffer data =
      Upload(context, std::span<const float>(particles), gpu::kUsageStorage, "particles");
  gpu::Buffer params = Uniform(context, LayoutParams{kParticles, kDt, {0, 0}});
  SetBufferBytes(data.size());
  dispatches_ = {LayoutDispatch(context, pipeline_, params, data)};
}

VerificationRecord LayoutRow::Verify(gpu::Context& context) {
  RequirePrepared(pipeline_);
  std::vector<float> expected = reference::MakeParticles(layout_, kParticles);
  gpu::Buffer data = Upload(context, std::span<const float>(expected),
                            gpu::kUsageStorage | gpu::kUsageCopySrc, "verify particles");
  gpu::Buffer params = Uniform(context, LayoutParams{kParticles, kDt, {0, 0}});
  context.RunPass(LayoutDispatch(context, pipeline_, params, data), 1, false);
  reference::AdvanceParticles(layout_, kParticles, kDt, expected);
  std::vector<float> gpu = Download<float>(context, data);
  return reference::Compare(info_.id, gpu, expected, Tolerance{},
                            IndexNamer("field word"));  // exact: see reference::AdvanceParticles
}

// ---- TileRow ----

TileRow::TileRow(TileVariant variant)
    : TechniqueRow(TileInfo(variant), double{kImageSide} * kImageSide, kImageSide, kImageSide),
      variant_(variant) {}

void TileRow::Prepare(gpu::Context& context) {
  if (variant_ == TileVariant::kDirect) {
    pipeline_ = CompileKernel(context, "ceil_tile", "direct", info_.id);
  } else {
    double stride = variant_ == TileVariant::kShared ? 34 : 35;
    pipeline_ =
        CompileKernel(context, "ceil_tile", "shared_tile", info_.id, {{"row_stride", stride}});
  }
  std::vector<float> image = reference::MakeImage(kImageSide, kImageSide);
  gpu::Buffer src = Upload(context, std::span<const float>(image), gpu::kUsageStorage, "image");
  gpu::Buffer dst = context.CreateBuffer(src.size(), gpu::kUsageStorage, "filtered");
  SetBufferBytes(src.size());
  dispatches_ = {TileDispatch(context, pipeline_, kImageSide, kImageSide, src, dst)};
}

VerificationRecord TileRow::Verify(gpu::Context& context) {
  RequirePrepared(pipeline_);
  std::vector<float> image = reference::MakeImage(kVerifyWidth, kVerifyHeight);
  gpu::Buffer src =
      Upload(context, std::span<const float>(image), gpu::kUsageStorage, "verify image");
  gpu::Buffer dst =
      context.CreateBuffer(src.size(), gpu::kUsageStorage | gpu::kUsageCopySrc, "verify out");
  context.RunPass(TileDispatch(context, pipeline_, kVerifyWidth, kVerifyHeight, src, dst), 1,
                  false);
  std::vector<float> gpu = Download<float>(context, dst);
  std::vector<float> cpu = reference::BoxStencil3x3(image, kVerifyWidth, kVerifyHeight);
  return reference::Compare(info_.id, gpu, cpu, kTileTolerance, IndexNamer("pixel"));
}

}  // namespace refract::suites::ceilings
