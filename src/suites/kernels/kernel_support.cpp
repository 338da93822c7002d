#include "suites/kernels/kernel_support.h"

#include <algorithm>
#include <set>

#include "gpu/transfer.h"
#include "reference/random_data.h"

namespace refract::suites::kernels {

gpu::Buffer StorageWith(gpu::Context& context, std::span<const float> values,
                        std::string_view label) {
  return gpu::Upload(context, values, gpu::kUsageStorage | gpu::kUsageCopySrc, label);
}

gpu::Buffer StorageOf(gpu::Context& context, uint64_t floats, std::string_view label) {
  return context.CreateBuffer(std::max<uint64_t>(floats * 4, 16),
                              gpu::kUsageStorage | gpu::kUsageCopySrc | gpu::kUsageCopyDst, label);
}

const std::vector<TokenCase>& TokenCases() {
  static const std::vector<TokenCase> kCases = [] {
    std::vector<TokenCase> cases;
    for (const ModelConfig* model : {&Qwen25(), &EmbeddingGemma2()}) {
      for (uint32_t t : {1u, 50u, 128u, 2048u}) {
        for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
          cases.push_back({model, t, variant});
        }
      }
    }
    return cases;
  }();
  return kCases;
}

std::vector<uint32_t> SampleIndices(uint32_t count, uint32_t samples, uint64_t seed) {
  std::vector<uint32_t> indices;
  if (count <= samples) {
    for (uint32_t i = 0; i < count; ++i) indices.push_back(i);
    return indices;
  }
  std::set<uint32_t> chosen = {0, count - 1};
  reference::RandomStream stream(seed);
  while (chosen.size() < samples) chosen.insert(stream.NextBelow(count));
  return {chosen.begin(), chosen.end()};
}

VerificationRecord CompareRows(reference::Comparison& comparison, std::span<const float> gpu,
                               std::span<const float> cpu, std::span<const uint32_t> rows,
                               size_t width) {
  for (size_t p = 0; p < rows.size(); ++p) {
    for (size_t i = 0; i < width; ++i) {
      const size_t index = size_t{rows[p]} * width + i;
      comparison.Check(index, gpu[index], cpu[p * width + i]);
    }
  }
  return comparison.Finish();
}

}  // namespace refract::suites::kernels
