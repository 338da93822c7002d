#include "suites/ceilings/texture_rows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "kernels/embedded_kernels.h"
#include "reference/compare.h"
#include "reference/texture_models.h"
#include "suites/ceilings/bandwidth_common.h"

namespace refract::suites::ceilings {
namespace {

constexpr uint64_t kTexelBytes = 16;  // one rgba32float texel [bytes]
constexpr uint64_t kBytesPerSample = 2 * kTexelBytes;
// Verify's problem: 16 workgroups, and an iteration count above the minimum that is odd (a
// kernel ignoring part of the loop bound disagrees).
constexpr uint32_t kVerifyWorkgroups = 16;
constexpr uint32_t kVerifyIterations = TextureInterpRow::kMinIterations + 3;
// The running sums round once past 24 bits and a compiler may fuse mix's products into them
// (lavapipe's manual row then differs in the last bit): 1e-6 relative, both rows.
constexpr double kRelTolerance = 1e-6;
// The builtin row only: a filter weight off by one step of 8-bit sub-texel precision.
constexpr double kWeightTolerance = 1.0 / 256;

using reference::kInterpTextureWidth;

std::vector<std::byte> TexelBytes() {
  std::vector<float> texels = reference::InterpTexels();
  std::vector<std::byte> bytes(texels.size() * sizeof(float));
  std::memcpy(bytes.data(), texels.data(), bytes.size());
  return bytes;
}

bench::BenchmarkInfo TextureInfo(Interpolation interpolation) {
  bench::BenchmarkInfo info;
  if (interpolation == Interpolation::kBuiltin) {
    info = {"texture-interp-builtin", "bandwidth", "B/s",
            std::string(gpu::FeatureName(gpu::Feature::kFloat32Filterable)),
            "linear filtering by the sampler (textureSampleLevel) of a 4096×1 rgba32float "
            "texture; bytes = threads × samples × 32"};
  } else {
    info = {"texture-interp-manual", "bandwidth", "B/s", "",
            "the same interpolation by hand: two textureLoad + mix on a 4096×1 rgba32float "
            "texture; bytes = threads × samples × 32"};
  }
  info.params = {{"threads", kBandwidthThreads},
                 {"texture_bytes", uint64_t{kInterpTextureWidth} * kTexelBytes}};
  return info;
}

}  // namespace

TextureInterpRow::TextureInterpRow(Interpolation interpolation)
    : LoopRow(TextureInfo(interpolation), kMinIterations, kMaxIterations),
      interpolation_(interpolation) {}

TextureInterpRow::~TextureInterpRow() = default;

std::optional<std::string> TextureInterpRow::MissingRequirement(const gpu::Context& context) const {
  if (interpolation_ == Interpolation::kBuiltin &&
      !context.HasFeature(gpu::Feature::kFloat32Filterable)) {
    return "needs " + std::string(gpu::FeatureName(gpu::Feature::kFloat32Filterable)) +
           ", which this device lacks";
  }
  return std::nullopt;
}

gpu::Dispatch TextureInterpRow::MakeDispatch(gpu::Context& context, const gpu::Buffer& params,
                                             const gpu::Buffer& out, uint32_t workgroups) const {
  gpu::DispatchBuilder builder(context, pipeline_);
  builder.Buffer(0, params).Texture(1, texture_).Buffer(3, out).Groups(workgroups);
  if (interpolation_ == Interpolation::kBuiltin) builder.Sampler(2, sampler_);
  return builder.Build();
}

void TextureInterpRow::Prepare(gpu::Context& context) {
  const char* kernel = interpolation_ == Interpolation::kBuiltin ? "ceil_texture_interp_builtin"
                                                                 : "ceil_texture_interp_manual";
  pipeline_ = context.CreateComputePipeline(
      {.wgsl = wgsl::KernelSource(kernel), .label = info().id, .constants = {}});
  std::vector<std::byte> texels = TexelBytes();
  texture_ = context.CreateTexture2D(kInterpTextureWidth, 1, gpu::TextureFormat::kRgba32Float,
                                     texels, info().id + " texture");
  if (interpolation_ == Interpolation::kBuiltin) sampler_ = context.CreateLinearSampler();
  gpu::Buffer out =
      context.CreateBuffer(uint64_t{kBandwidthThreads} * 4, gpu::kUsageStorage, info().id);
  gpu::Buffer params = gpu::Uniform(context, CountParams{iterations()});
  gpu::Dispatch dispatch = MakeDispatch(context, params, out, kBandwidthWorkgroups);
  SetPrepared(context, std::move(params), std::move(dispatch));
}

VerificationRecord TextureInterpRow::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!pipeline_, Error, info().id + ": Verify before Prepare");
  constexpr uint32_t kThreads = kVerifyWorkgroups * kBandwidthWorkgroupSize;
  gpu::Buffer out = context.CreateBuffer(uint64_t{kThreads} * 4,
                                         gpu::kUsageStorage | gpu::kUsageCopySrc, "verify out");
  gpu::Buffer params = gpu::Uniform(context, CountParams{kVerifyIterations});
  context.RunPass(MakeDispatch(context, params, out, kVerifyWorkgroups), 1, false);
  std::vector<float> gpu_sums = gpu::Download<float>(context, out);
  reference::InterpModelOutput model = reference::InterpModel(kThreads, kVerifyIterations);
  const double weight_tolerance =
      interpolation_ == Interpolation::kBuiltin ? kWeightTolerance : 0.0;
  reference::Comparison comparison(
      info().id + " (" + std::to_string(kVerifyIterations) + " samples a thread)",
      Tolerance{.relative = kRelTolerance}, [](size_t t) { return "thread " + std::to_string(t); });
  for (uint32_t t = 0; t < kThreads; ++t) {
    comparison.Check(t, gpu_sums[t], model.sums[t], weight_tolerance * model.spread[t]);
  }
  return comparison.Finish();
}

void TextureInterpRow::Release() {
  LoopRow::Release();
  pipeline_ = {};
  texture_ = {};
  sampler_ = {};
}

void TextureInterpRow::WriteParams(gpu::Context& context, const gpu::Buffer& params) const {
  gpu::WriteUniform(context, params, CountParams{iterations()});
}

double TextureInterpRow::WorkPerDispatch() const {
  return static_cast<double>(kBandwidthThreads) * iterations() * kBytesPerSample;
}

std::vector<std::unique_ptr<bench::Benchmark>> MakeTextureRows(const CatalogOptions& options) {
  static_cast<void>(options);  // the texture is fixed: 4096 texels
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(std::make_unique<TextureInterpRow>(Interpolation::kBuiltin));
  rows.push_back(std::make_unique<TextureInterpRow>(Interpolation::kManual));
  return rows;
}

}  // namespace refract::suites::ceilings
