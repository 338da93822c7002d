#include "suites/ceilings/texture_rows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>

#include "base/error.h"
#include "kernels/embedded_kernels.h"
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

/// Thread t's sample k, as both kernels compute it: left texel and filter weight.
struct SamplePosition {
  uint32_t x0;
  float weight;
};
SamplePosition PositionOf(uint32_t t, uint32_t k) {
  uint32_t x0 = std::min((t * 7u + k * 61u) & (kInterpTextureWidth - 1), kInterpTextureWidth - 2);
  float weight = static_cast<float>(((t * 5u + k * 3u) & 15u) * 2u + 1u) * (1.0f / 32.0f);
  return {x0, weight};
}

gpu::Buffer MakeIterationsParams(gpu::Context& context, uint32_t iterations) {
  return MakeCountParams(context, iterations);  // Params { iterations, pad × 3 }
}

std::vector<std::byte> TexelBytes() {
  std::vector<float> texels(size_t{kInterpTextureWidth} * 4);
  for (uint32_t i = 0; i < kInterpTextureWidth; ++i) FillValue(i, &texels[size_t{i} * 4]);
  std::vector<std::byte> bytes(texels.size() * sizeof(float));
  std::memcpy(bytes.data(), texels.data(), bytes.size());
  return bytes;
}

}  // namespace

TextureInterpRow::TextureInterpRow(Interpolation interpolation) : interpolation_(interpolation) {
  if (interpolation_ == Interpolation::kBuiltin) {
    info_ = {"texture-interp-builtin", "bandwidth", "B/s",
             std::string(gpu::FeatureName(gpu::Feature::kFloat32Filterable)),
             "linear filtering by the sampler (textureSampleLevel) of a 4096×1 rgba32float "
             "texture; bytes = threads × samples × 32"};
  } else {
    info_ = {"texture-interp-manual", "bandwidth", "B/s", "",
             "the same interpolation by hand: two textureLoad + mix on a 4096×1 rgba32float "
             "texture; bytes = threads × samples × 32"};
  }
}

TextureInterpRow::~TextureInterpRow() = default;

std::optional<std::string> TextureInterpRow::MissingRequirement(const gpu::Context& context) const {
  if (interpolation_ == Interpolation::kBuiltin &&
      !context.HasFeature(gpu::Feature::kFloat32Filterable)) {
    return "needs " + std::string(gpu::FeatureName(gpu::Feature::kFloat32Filterable)) +
           ", which this device lacks";
  }
  return std::nullopt;
}

uint64_t TextureInterpRow::Rows() const { return kBandwidthThreads; }

uint64_t TextureInterpRow::BufferBytes() const { return kInterpTextureWidth * kTexelBytes; }

std::vector<gpu::BindingEntry> TextureInterpRow::Bindings(const gpu::Buffer& params,
                                                          const gpu::Buffer& out) const {
  std::vector<gpu::BindingEntry> entries = {
      {0, gpu::BufferBinding{params}}, {1, texture_}, {3, gpu::BufferBinding{out}}};
  if (interpolation_ == Interpolation::kBuiltin) entries.push_back({2, sampler_});
  return entries;
}

void TextureInterpRow::Prepare(gpu::Context& context) {
  context_ = &context;
  const char* kernel = interpolation_ == Interpolation::kBuiltin ? "ceil_texture_interp_builtin"
                                                                 : "ceil_texture_interp_manual";
  pipeline_ = context.CreateComputePipeline(
      {.wgsl = kernels::KernelSource(kernel), .label = info_.id, .constants = {}});
  std::vector<std::byte> texels = TexelBytes();
  texture_ = context.CreateTexture2D(kInterpTextureWidth, 1, gpu::TextureFormat::kRgba32Float,
                                     texels, info_.id + " texture");
  if (interpolation_ == Interpolation::kBuiltin) sampler_ = context.CreateLinearSampler();
  params_ = MakeIterationsParams(context, iterations_);
  gpu::Buffer out =
      context.CreateBuffer(uint64_t{kBandwidthThreads} * 4, gpu::kUsageStorage, info_.id);
  dispatch_ = {pipeline_,
               {context.CreateBindGroup(pipeline_, 0, Bindings(params_, out))},
               kBandwidthWorkgroups};
}

void TextureInterpRow::Verify(gpu::Context& context) { VerifyWithModelOffset(context, 0); }

void TextureInterpRow::VerifyWithModelOffset(gpu::Context& context, int32_t texel_offset) {
  REFRACT_THROW_IF(!pipeline_, Error, info_.id + ": Verify before Prepare");
  constexpr uint32_t kThreads = kVerifyWorkgroups * kBandwidthWorkgroupSize;
  gpu::Buffer out = context.CreateBuffer(uint64_t{kThreads} * 4,
                                         gpu::kUsageStorage | gpu::kUsageCopySrc, "verify out");
  context.RunPass(
      {pipeline_,
       {context.CreateBindGroup(pipeline_, 0,
                                Bindings(MakeIterationsParams(context, kVerifyIterations), out))},
       kVerifyWorkgroups},
      1, false);
  std::vector<float> gpu_sums = ReadFloats(context, out);
  InterpModelOutput model = InterpModel(kThreads, kVerifyIterations, texel_offset);
  const double weight_tolerance =
      interpolation_ == Interpolation::kBuiltin ? kWeightTolerance : 0.0;
  MismatchLog log(info_.id);
  for (uint32_t t = 0; t < kThreads; ++t) {
    double cpu = model.sums[t];
    double allowed = kRelTolerance * std::fabs(cpu) + weight_tolerance * model.spread[t];
    // NaN on either side never passes.
    if (!(std::fabs(gpu_sums[t] - cpu) <= allowed)) log.Note(t, gpu_sums[t], cpu);
  }
  log.ThrowIfAny(kThreads, std::to_string(kVerifyIterations) + " samples a thread");
}

void TextureInterpRow::Release() {
  dispatch_ = {};
  pipeline_ = {};
  texture_ = {};
  sampler_ = {};
  params_ = {};
}

void TextureInterpRow::SetWork(uint64_t work) {
  REFRACT_THROW_IF(work < MinWork() || work > MaxWork(), Error,
                   info_.id + ": iterations " + std::to_string(work) + " out of range");
  iterations_ = static_cast<uint32_t>(work);
  if (context_ && params_) WriteCountParams(*context_, params_, iterations_);
}

double TextureInterpRow::WorkPerDispatch() const {
  return static_cast<double>(kBandwidthThreads) * iterations_ * kBytesPerSample;
}

InterpModelOutput InterpModel(uint32_t threads, uint32_t iterations, int32_t texel_offset) {
  auto texel = [&](int64_t x, float out[4]) {
    FillValue(static_cast<uint32_t>(std::clamp<int64_t>(x, 0, kInterpTextureWidth - 1)), out);
  };
  InterpModelOutput model;
  model.sums.resize(threads);
  model.spread.resize(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    float sum[4] = {0, 0, 0, 0};
    double spread = 0;
    for (uint32_t k = 0; k < iterations; ++k) {
      SamplePosition p = PositionOf(t, k);
      float a[4], b[4];
      texel(int64_t{p.x0} + texel_offset, a);
      texel(int64_t{p.x0} + 1 + texel_offset, b);
      for (int c = 0; c < 4; ++c) {
        // WGSL mix: a × (1 − w) + b × w; exact here (16-bit texels, 5-bit weights).
        sum[c] += a[c] * (1.0f - p.weight) + b[c] * p.weight;
        spread += std::fabs(static_cast<double>(b[c]) - a[c]);
      }
    }
    model.sums[t] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
    model.spread[t] = spread;
  }
  return model;
}

std::vector<std::unique_ptr<CeilingRow>> MakeTextureRows(const CatalogOptions& options) {
  static_cast<void>(options);  // the texture is fixed: 4096 texels
  std::vector<std::unique_ptr<CeilingRow>> rows;
  rows.push_back(std::make_unique<TextureInterpRow>(Interpolation::kBuiltin));
  rows.push_back(std::make_unique<TextureInterpRow>(Interpolation::kManual));
  return rows;
}

}  // namespace refract::suites::ceilings
