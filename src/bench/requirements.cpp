#include "bench/requirements.h"

namespace refract::bench {

std::optional<std::string> MissingRequirement(const gpu::Context& context,
                                              const Requirements& requirements) {
  for (gpu::Feature feature : requirements.features) {
    if (!context.HasFeature(feature)) {
      return "needs " + std::string(gpu::FeatureName(feature)) + ", which this device lacks";
    }
  }
  for (const std::string& feature : requirements.language_features) {
    if (!context.HasWgslLanguageFeature(feature)) {
      return "needs the WGSL language feature " + feature + ", which this device lacks";
    }
  }
  return std::nullopt;
}

std::string NeedsText(const Requirements& requirements) {
  std::string needs;
  for (gpu::Feature feature : requirements.features) {
    needs += (needs.empty() ? "" : ", ") + std::string(gpu::FeatureName(feature));
  }
  for (const std::string& feature : requirements.language_features) {
    needs += (needs.empty() ? "" : ", ") + feature;
  }
  return needs;
}

}  // namespace refract::bench
