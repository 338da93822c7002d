// Checks refract's WebGPU declarations against the Dawn library they are written for: every
// declared function is exported under its name (and is the very symbol the linker bound), and
// the name tables agree with the enums and structs.
#include "gpu/webgpu_api.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "gpu/webgpu_names.h"

namespace refract::gpu {
namespace {

struct DeclaredFunction {
  const char* name;
  void* address;  // the address the linker resolved for our declaration
};

#define REFRACT_FN(name) \
  DeclaredFunction { #name, reinterpret_cast < void*>(&name) }

// Every wgpu* function declared in webgpu_api.h.
const DeclaredFunction kDeclaredFunctions[] = {
    // Instance.
    REFRACT_FN(wgpuCreateInstance),
    REFRACT_FN(wgpuGetInstanceCapabilities),
    REFRACT_FN(wgpuInstanceRequestAdapter),
    REFRACT_FN(wgpuInstanceWaitAny),
    REFRACT_FN(wgpuInstanceProcessEvents),
    REFRACT_FN(wgpuInstanceHasWGSLLanguageFeature),
    REFRACT_FN(wgpuInstanceGetWGSLLanguageFeatures),
    REFRACT_FN(wgpuSupportedWGSLLanguageFeaturesFreeMembers),
    REFRACT_FN(wgpuInstanceAddRef),
    REFRACT_FN(wgpuInstanceRelease),
    // Adapter.
    REFRACT_FN(wgpuAdapterGetInfo),
    REFRACT_FN(wgpuAdapterInfoFreeMembers),
    REFRACT_FN(wgpuAdapterPropertiesSubgroupMatrixConfigsFreeMembers),
    REFRACT_FN(wgpuAdapterGetLimits),
    REFRACT_FN(wgpuAdapterGetFeatures),
    REFRACT_FN(wgpuSupportedFeaturesFreeMembers),
    REFRACT_FN(wgpuAdapterHasFeature),
    REFRACT_FN(wgpuAdapterRequestDevice),
    REFRACT_FN(wgpuAdapterAddRef),
    REFRACT_FN(wgpuAdapterRelease),
    // Device.
    REFRACT_FN(wgpuDeviceGetLimits),
    REFRACT_FN(wgpuDeviceGetFeatures),
    REFRACT_FN(wgpuDeviceHasFeature),
    REFRACT_FN(wgpuDeviceGetAdapterInfo),
    REFRACT_FN(wgpuDeviceGetQueue),
    REFRACT_FN(wgpuDevicePushErrorScope),
    REFRACT_FN(wgpuDevicePopErrorScope),
    REFRACT_FN(wgpuDeviceCreateBuffer),
    REFRACT_FN(wgpuDeviceCreateShaderModule),
    REFRACT_FN(wgpuDeviceCreateComputePipeline),
    REFRACT_FN(wgpuDeviceCreateBindGroup),
    REFRACT_FN(wgpuDeviceCreateBindGroupLayout),
    REFRACT_FN(wgpuDeviceCreatePipelineLayout),
    REFRACT_FN(wgpuDeviceCreateCommandEncoder),
    REFRACT_FN(wgpuDeviceCreateQuerySet),
    REFRACT_FN(wgpuDeviceCreateTexture),
    REFRACT_FN(wgpuDeviceCreateSampler),
    REFRACT_FN(wgpuDeviceTick),
    REFRACT_FN(wgpuDeviceDestroy),
    REFRACT_FN(wgpuDeviceForceLoss),
    REFRACT_FN(wgpuDeviceAddRef),
    REFRACT_FN(wgpuDeviceRelease),
    // Queue.
    REFRACT_FN(wgpuQueueSubmit),
    REFRACT_FN(wgpuQueueWriteBuffer),
    REFRACT_FN(wgpuQueueWriteTexture),
    REFRACT_FN(wgpuQueueOnSubmittedWorkDone),
    REFRACT_FN(wgpuQueueAddRef),
    REFRACT_FN(wgpuQueueRelease),
    // Buffer.
    REFRACT_FN(wgpuBufferMapAsync),
    REFRACT_FN(wgpuBufferGetConstMappedRange),
    REFRACT_FN(wgpuBufferGetMappedRange),
    REFRACT_FN(wgpuBufferUnmap),
    REFRACT_FN(wgpuBufferGetSize),
    REFRACT_FN(wgpuBufferDestroy),
    REFRACT_FN(wgpuBufferAddRef),
    REFRACT_FN(wgpuBufferRelease),
    // Shader module, pipelines, layouts, bind groups.
    REFRACT_FN(wgpuShaderModuleGetCompilationInfo),
    REFRACT_FN(wgpuShaderModuleAddRef),
    REFRACT_FN(wgpuShaderModuleRelease),
    REFRACT_FN(wgpuComputePipelineGetBindGroupLayout),
    REFRACT_FN(wgpuComputePipelineAddRef),
    REFRACT_FN(wgpuComputePipelineRelease),
    REFRACT_FN(wgpuBindGroupAddRef),
    REFRACT_FN(wgpuBindGroupRelease),
    REFRACT_FN(wgpuBindGroupLayoutAddRef),
    REFRACT_FN(wgpuBindGroupLayoutRelease),
    REFRACT_FN(wgpuPipelineLayoutAddRef),
    REFRACT_FN(wgpuPipelineLayoutRelease),
    // Commands.
    REFRACT_FN(wgpuCommandEncoderBeginComputePass),
    REFRACT_FN(wgpuCommandEncoderCopyBufferToBuffer),
    REFRACT_FN(wgpuCommandEncoderResolveQuerySet),
    REFRACT_FN(wgpuCommandEncoderWriteTimestamp),
    REFRACT_FN(wgpuCommandEncoderFinish),
    REFRACT_FN(wgpuCommandEncoderAddRef),
    REFRACT_FN(wgpuCommandEncoderRelease),
    REFRACT_FN(wgpuCommandBufferAddRef),
    REFRACT_FN(wgpuCommandBufferRelease),
    REFRACT_FN(wgpuComputePassEncoderSetPipeline),
    REFRACT_FN(wgpuComputePassEncoderSetBindGroup),
    REFRACT_FN(wgpuComputePassEncoderDispatchWorkgroups),
    REFRACT_FN(wgpuComputePassEncoderWriteTimestamp),
    REFRACT_FN(wgpuComputePassEncoderEnd),
    REFRACT_FN(wgpuComputePassEncoderAddRef),
    REFRACT_FN(wgpuComputePassEncoderRelease),
    // Query sets.
    REFRACT_FN(wgpuQuerySetDestroy),
    REFRACT_FN(wgpuQuerySetAddRef),
    REFRACT_FN(wgpuQuerySetRelease),
    // Textures and samplers.
    REFRACT_FN(wgpuTextureCreateView),
    REFRACT_FN(wgpuTextureDestroy),
    REFRACT_FN(wgpuTextureAddRef),
    REFRACT_FN(wgpuTextureRelease),
    REFRACT_FN(wgpuTextureViewAddRef),
    REFRACT_FN(wgpuTextureViewRelease),
    REFRACT_FN(wgpuSamplerAddRef),
    REFRACT_FN(wgpuSamplerRelease),
};

#undef REFRACT_FN

std::filesystem::path ExecutableDirectory() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path();
}

TEST(WebGpuApiTest, EveryDeclaredFunctionIsExportedByTheDawnBesideTheBinary) {
  const std::string library = (ExecutableDirectory() / "libwebgpu_wrapper.so").string();
  void* handle = dlopen(library.c_str(), RTLD_NOW);
  ASSERT_NE(handle, nullptr) << "dlopen(" << library << "): " << dlerror();

  std::set<std::string> names;
  for (const DeclaredFunction& function : kDeclaredFunctions) {
    EXPECT_TRUE(names.insert(function.name).second) << "listed twice: " << function.name;
    void* symbol = dlsym(handle, function.name);
    EXPECT_NE(symbol, nullptr) << function.name << " is not exported";
    EXPECT_EQ(symbol, function.address) << function.name << " bound to another definition";
  }
  EXPECT_EQ(names.size(), 95u);
  dlclose(handle);
}

TEST(WebGpuApiTest, FeatureNamesOfTheFeaturesRefractRequests) {
  EXPECT_STREQ(FeatureNameString(WGPUFeatureName_TimestampQuery), "timestamp-query");
  EXPECT_STREQ(FeatureNameString(WGPUFeatureName_ShaderF16), "shader-f16");
  EXPECT_STREQ(FeatureNameString(WGPUFeatureName_Subgroups), "subgroups");
  EXPECT_STREQ(FeatureNameString(WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses),
               "chromium-experimental-timestamp-query-inside-passes");
  EXPECT_STREQ(FeatureNameString(WGPUFeatureName_ChromiumExperimentalSubgroupMatrix),
               "chromium-experimental-subgroup-matrix");
  EXPECT_STREQ(FeatureNameString(WGPUFeatureName_TextureFormatsTier1), "texture-formats-tier1");
  EXPECT_STREQ(FeatureNameString(WGPUFeatureName_Float32Filterable), "float32-filterable");
  EXPECT_EQ(FeatureNameString(static_cast<WGPUFeatureName>(0x9999)), nullptr);
}

TEST(WebGpuApiTest, FeatureValuesAreThoseOfThisDawnBuild) {
  // Later Dawn releases renumbered these; a mismatch silently requests the wrong feature.
  EXPECT_EQ(WGPUFeatureName_TimestampQuery, 0x3u);
  EXPECT_EQ(WGPUFeatureName_ShaderF16, 0xAu);
  EXPECT_EQ(WGPUFeatureName_Subgroups, 0x11u);
  EXPECT_EQ(WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses, 0x50003u);
  // 0x50037 in this library (0x50038 in the April 2025 webgpu.h, which is SharedFenceEGLSync
  // here): the library's own table is checked below.
  EXPECT_EQ(WGPUFeatureName_ChromiumExperimentalSubgroupMatrix, 0x50037u);
  EXPECT_EQ(WGPUSType_DawnTogglesDescriptor, 0x5000Au);
  EXPECT_EQ(WGPUBackendType_Vulkan, 6u);
}

// Dawn's internal feature table, reached through symbols the library exports (C++ internals of
// this pinned build): FromAPI maps a WGPUFeatureName to an index, ToAPI maps it back, and the
// table's entries start with the feature's name.
TEST(WebGpuApiTest, FeatureValuesAndNamesMatchTheLibrarysOwnTable) {
  const std::string library = (ExecutableDirectory() / "libwebgpu_wrapper.so").string();
  void* handle = dlopen(library.c_str(), RTLD_NOW);
  ASSERT_NE(handle, nullptr) << dlerror();
  using FromApiFn = uint32_t (*)(uint32_t);
  using ToApiFn = uint32_t (*)(uint32_t);
  auto from_api =
      reinterpret_cast<FromApiFn>(dlsym(handle, "_ZN4dawn6native7FromAPIEN4wgpu11FeatureNameE"));
  auto to_api = reinterpret_cast<ToApiFn>(dlsym(handle, "_ZN4dawn6native5ToAPIENS0_7FeatureE"));
  auto table =
      static_cast<const char* const*>(dlsym(handle, "_ZN4dawn6native23kFeatureNameAndInfoListE"));
  ASSERT_NE(from_api, nullptr);
  ASSERT_NE(to_api, nullptr);
  ASSERT_NE(table, nullptr);
  constexpr size_t kPointersPerEntry = 4;  // {name, description, url, state}

  int known = 0;
  for (uint32_t base : {0x1u, 0x50000u}) {  // 0 is no feature (FromAPI's "unknown" maps to it)
    for (uint32_t value = base; value < base + 0x100; ++value) {
      const auto feature = static_cast<WGPUFeatureName>(value);
      const uint32_t index = from_api(value);
      const bool library_knows = index < 0x100 && to_api(index) == value;
      const char* ours = FeatureNameString(feature);
      ASSERT_EQ(library_knows, ours != nullptr) << "feature value 0x" << std::hex << value;
      if (!library_knows) continue;
      ++known;
      std::string theirs = table[index * kPointersPerEntry];
      // The library spells two standard features without WebGPU's hyphen.
      if (theirs == "float32filterable") theirs = "float32-filterable";
      if (theirs == "float32blendable") theirs = "float32-blendable";
      EXPECT_EQ(ours, theirs) << "feature value 0x" << std::hex << value;
    }
  }
  EXPECT_EQ(known, 18 + 58);
  dlclose(handle);
}

TEST(WebGpuApiTest, OtherNameTables) {
  EXPECT_STREQ(WgslLanguageFeatureString(WGPUWGSLLanguageFeatureName_Packed4x8IntegerDotProduct),
               "packed_4x8_integer_dot_product");
  EXPECT_STREQ(BackendTypeString(WGPUBackendType_Vulkan), "vulkan");
  EXPECT_STREQ(BackendTypeString(WGPUBackendType_Null), "null");
  EXPECT_STREQ(AdapterTypeString(WGPUAdapterType_DiscreteGPU), "discrete-gpu");
  EXPECT_STREQ(AdapterTypeString(WGPUAdapterType_CPU), "cpu");
  EXPECT_STREQ(SubgroupMatrixComponentTypeString(WGPUSubgroupMatrixComponentType_F16), "f16");
  EXPECT_EQ(BackendTypeString(static_cast<WGPUBackendType>(42)), nullptr);
}

TEST(WebGpuApiTest, LimitsAsListNamesEveryFieldOnce) {
  WGPULimits limits;
  limits.maxComputeWorkgroupStorageSize = 32768;
  limits.maxBufferSize = uint64_t{1} << 40;
  const auto list = LimitsAsList(limits);

  // 32 limits: 29 of 32 bits and 3 of 64 bits, after the chain pointer, plus one padding word.
  EXPECT_EQ(list.size(), 32u);
  EXPECT_EQ(sizeof(void*) + 29 * sizeof(uint32_t) + 3 * sizeof(uint64_t) + 4, sizeof(WGPULimits));
  std::set<std::string> names;
  for (const auto& [name, value] : list) {
    EXPECT_TRUE(names.insert(name).second) << "duplicate " << name;
  }
  EXPECT_EQ(list.front().first, "maxTextureDimension1D");
  EXPECT_EQ(list.back().first, "maxImmediateSize");
  const std::map<std::string, uint64_t> by_name(list.begin(), list.end());
  EXPECT_EQ(by_name.at("maxComputeWorkgroupStorageSize"), 32768u);
  EXPECT_EQ(by_name.at("maxBufferSize"), uint64_t{1} << 40);
  EXPECT_EQ(by_name.at("maxStorageBufferBindingSize"), WGPU_LIMIT_U64_UNDEFINED);
  EXPECT_EQ(by_name.at("maxBindGroups"), WGPU_LIMIT_U32_UNDEFINED);
}

}  // namespace
}  // namespace refract::gpu
