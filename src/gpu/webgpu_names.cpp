#include "gpu/webgpu_names.h"

namespace refract::gpu {

const char* FeatureNameString(WGPUFeatureName feature) {
  switch (feature) {
    // Standard WebGPU features: the specification's names.
    case WGPUFeatureName_DepthClipControl:
      return "depth-clip-control";
    case WGPUFeatureName_Depth32FloatStencil8:
      return "depth32float-stencil8";
    case WGPUFeatureName_TimestampQuery:
      return "timestamp-query";
    case WGPUFeatureName_TextureCompressionBC:
      return "texture-compression-bc";
    case WGPUFeatureName_TextureCompressionBCSliced3D:
      return "texture-compression-bc-sliced-3d";
    case WGPUFeatureName_TextureCompressionETC2:
      return "texture-compression-etc2";
    case WGPUFeatureName_TextureCompressionASTC:
      return "texture-compression-astc";
    case WGPUFeatureName_TextureCompressionASTCSliced3D:
      return "texture-compression-astc-sliced-3d";
    case WGPUFeatureName_IndirectFirstInstance:
      return "indirect-first-instance";
    case WGPUFeatureName_ShaderF16:
      return "shader-f16";
    case WGPUFeatureName_RG11B10UfloatRenderable:
      return "rg11b10ufloat-renderable";
    case WGPUFeatureName_BGRA8UnormStorage:
      return "bgra8unorm-storage";
    case WGPUFeatureName_Float32Filterable:
      return "float32-filterable";
    case WGPUFeatureName_Float32Blendable:
      return "float32-blendable";
    case WGPUFeatureName_ClipDistances:
      return "clip-distances";
    case WGPUFeatureName_DualSourceBlending:
      return "dual-source-blending";
    case WGPUFeatureName_Subgroups:
      return "subgroups";
    case WGPUFeatureName_CoreFeaturesAndLimits:
      return "core-features-and-limits";
    // Dawn's extensions: the names this Dawn build itself uses (its kebab-casing keeps a
    // digit glued to the next word, e.g. "unorm16texture-formats"). The library spells the two
    // float32 features without their hyphen; refract uses WebGPU's spelling for those.
    case WGPUFeatureName_DawnInternalUsages:
      return "dawn-internal-usages";
    case WGPUFeatureName_DawnMultiPlanarFormats:
      return "dawn-multi-planar-formats";
    case WGPUFeatureName_DawnNative:
      return "dawn-native";
    case WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses:
      return "chromium-experimental-timestamp-query-inside-passes";
    case WGPUFeatureName_ImplicitDeviceSynchronization:
      return "implicit-device-synchronization";
    case WGPUFeatureName_TransientAttachments:
      return "transient-attachments";
    case WGPUFeatureName_MSAARenderToSingleSampled:
      return "msaa-render-to-single-sampled";
    case WGPUFeatureName_D3D11MultithreadProtected:
      return "d3d11multithread-protected";
    case WGPUFeatureName_ANGLETextureSharing:
      return "angle-texture-sharing";
    case WGPUFeatureName_PixelLocalStorageCoherent:
      return "pixel-local-storage-coherent";
    case WGPUFeatureName_PixelLocalStorageNonCoherent:
      return "pixel-local-storage-non-coherent";
    case WGPUFeatureName_Unorm16TextureFormats:
      return "unorm16texture-formats";
    case WGPUFeatureName_Snorm16TextureFormats:
      return "snorm16texture-formats";
    case WGPUFeatureName_MultiPlanarFormatExtendedUsages:
      return "multi-planar-format-extended-usages";
    case WGPUFeatureName_MultiPlanarFormatP010:
      return "multi-planar-format-p010";
    case WGPUFeatureName_HostMappedPointer:
      return "host-mapped-pointer";
    case WGPUFeatureName_MultiPlanarRenderTargets:
      return "multi-planar-render-targets";
    case WGPUFeatureName_MultiPlanarFormatNv12a:
      return "multi-planar-format-nv12a";
    case WGPUFeatureName_FramebufferFetch:
      return "framebuffer-fetch";
    case WGPUFeatureName_BufferMapExtendedUsages:
      return "buffer-map-extended-usages";
    case WGPUFeatureName_AdapterPropertiesMemoryHeaps:
      return "adapter-properties-memory-heaps";
    case WGPUFeatureName_AdapterPropertiesD3D:
      return "adapter-properties-d3d";
    case WGPUFeatureName_AdapterPropertiesVk:
      return "adapter-properties-vk";
    case WGPUFeatureName_R8UnormStorage:
      return "r8unorm-storage";
    case WGPUFeatureName_DawnFormatCapabilities:
      return "dawn-format-capabilities";
    case WGPUFeatureName_DawnDrmFormatCapabilities:
      return "dawn-drm-format-capabilities";
    case WGPUFeatureName_Norm16TextureFormats:
      return "norm16texture-formats";
    case WGPUFeatureName_MultiPlanarFormatNv16:
      return "multi-planar-format-nv16";
    case WGPUFeatureName_MultiPlanarFormatNv24:
      return "multi-planar-format-nv24";
    case WGPUFeatureName_MultiPlanarFormatP210:
      return "multi-planar-format-p210";
    case WGPUFeatureName_MultiPlanarFormatP410:
      return "multi-planar-format-p410";
    case WGPUFeatureName_SharedTextureMemoryVkDedicatedAllocation:
      return "shared-texture-memory-vk-dedicated-allocation";
    case WGPUFeatureName_SharedTextureMemoryAHardwareBuffer:
      return "shared-texture-memory-a-hardware-buffer";
    case WGPUFeatureName_SharedTextureMemoryDmaBuf:
      return "shared-texture-memory-dma-buf";
    case WGPUFeatureName_SharedTextureMemoryOpaqueFD:
      return "shared-texture-memory-opaque-fd";
    case WGPUFeatureName_SharedTextureMemoryZirconHandle:
      return "shared-texture-memory-zircon-handle";
    case WGPUFeatureName_SharedTextureMemoryDXGISharedHandle:
      return "shared-texture-memory-dxgi-shared-handle";
    case WGPUFeatureName_SharedTextureMemoryD3D11Texture2D:
      return "shared-texture-memory-d3d11texture-2d";
    case WGPUFeatureName_SharedTextureMemoryIOSurface:
      return "shared-texture-memory-io-surface";
    case WGPUFeatureName_SharedTextureMemoryEGLImage:
      return "shared-texture-memory-egl-image";
    case WGPUFeatureName_SharedFenceVkSemaphoreOpaqueFD:
      return "shared-fence-vk-semaphore-opaque-fd";
    case WGPUFeatureName_SharedFenceSyncFD:
      return "shared-fence-sync-fd";
    case WGPUFeatureName_SharedFenceVkSemaphoreZirconHandle:
      return "shared-fence-vk-semaphore-zircon-handle";
    case WGPUFeatureName_SharedFenceDXGISharedHandle:
      return "shared-fence-dxgi-shared-handle";
    case WGPUFeatureName_SharedFenceMTLSharedEvent:
      return "shared-fence-mtl-shared-event";
    case WGPUFeatureName_SharedBufferMemoryD3D12Resource:
      return "shared-buffer-memory-d3d12resource";
    case WGPUFeatureName_StaticSamplers:
      return "static-samplers";
    case WGPUFeatureName_YCbCrVulkanSamplers:
      return "y-cb-cr-vulkan-samplers";
    case WGPUFeatureName_ShaderModuleCompilationOptions:
      return "shader-module-compilation-options";
    case WGPUFeatureName_DawnLoadResolveTexture:
      return "dawn-load-resolve-texture";
    case WGPUFeatureName_DawnPartialLoadResolveTexture:
      return "dawn-partial-load-resolve-texture";
    case WGPUFeatureName_MultiDrawIndirect:
      return "multi-draw-indirect";
    case WGPUFeatureName_DawnTexelCopyBufferRowAlignment:
      return "dawn-texel-copy-buffer-row-alignment";
    case WGPUFeatureName_FlexibleTextureViews:
      return "flexible-texture-views";
    case WGPUFeatureName_ChromiumExperimentalSubgroupMatrix:
      return "chromium-experimental-subgroup-matrix";
    case WGPUFeatureName_SharedFenceEGLSync:
      return "shared-fence-egl-sync";
    case WGPUFeatureName_DawnDeviceAllocatorControl:
      return "dawn-device-allocator-control";
    case WGPUFeatureName_TextureFormatsTier1:
      return "texture-formats-tier1";
  }
  return nullptr;
}

const char* WgslLanguageFeatureString(WGPUWGSLLanguageFeatureName feature) {
  switch (feature) {
    case WGPUWGSLLanguageFeatureName_ReadonlyAndReadwriteStorageTextures:
      return "readonly_and_readwrite_storage_textures";
    case WGPUWGSLLanguageFeatureName_Packed4x8IntegerDotProduct:
      return "packed_4x8_integer_dot_product";
    case WGPUWGSLLanguageFeatureName_UnrestrictedPointerParameters:
      return "unrestricted_pointer_parameters";
    case WGPUWGSLLanguageFeatureName_PointerCompositeAccess:
      return "pointer_composite_access";
    case WGPUWGSLLanguageFeatureName_SizedBindingArray:
      return "sized_binding_array";
    case WGPUWGSLLanguageFeatureName_TexelBuffers:
      return "texel_buffers";
    case WGPUWGSLLanguageFeatureName_ChromiumTestingUnimplemented:
      return "chromium_testing_unimplemented";
    case WGPUWGSLLanguageFeatureName_ChromiumTestingUnsafeExperimental:
      return "chromium_testing_unsafe_experimental";
    case WGPUWGSLLanguageFeatureName_ChromiumTestingExperimental:
      return "chromium_testing_experimental";
    case WGPUWGSLLanguageFeatureName_ChromiumTestingShippedWithKillswitch:
      return "chromium_testing_shipped_with_killswitch";
    case WGPUWGSLLanguageFeatureName_ChromiumTestingShipped:
      return "chromium_testing_shipped";
  }
  return nullptr;
}

const char* BackendTypeString(WGPUBackendType type) {
  switch (type) {
    case WGPUBackendType_Undefined:
      return "undefined";
    case WGPUBackendType_Null:
      return "null";
    case WGPUBackendType_WebGPU:
      return "webgpu";
    case WGPUBackendType_D3D11:
      return "d3d11";
    case WGPUBackendType_D3D12:
      return "d3d12";
    case WGPUBackendType_Metal:
      return "metal";
    case WGPUBackendType_Vulkan:
      return "vulkan";
    case WGPUBackendType_OpenGL:
      return "opengl";
    case WGPUBackendType_OpenGLES:
      return "opengles";
  }
  return nullptr;
}

const char* AdapterTypeString(WGPUAdapterType type) {
  switch (type) {
    case WGPUAdapterType_DiscreteGPU:
      return "discrete-gpu";
    case WGPUAdapterType_IntegratedGPU:
      return "integrated-gpu";
    case WGPUAdapterType_CPU:
      return "cpu";
    case WGPUAdapterType_Unknown:
      return "unknown";
  }
  return nullptr;
}

const char* SubgroupMatrixComponentTypeString(WGPUSubgroupMatrixComponentType type) {
  switch (type) {
    case WGPUSubgroupMatrixComponentType_F32:
      return "f32";
    case WGPUSubgroupMatrixComponentType_F16:
      return "f16";
    case WGPUSubgroupMatrixComponentType_U32:
      return "u32";
    case WGPUSubgroupMatrixComponentType_I32:
      return "i32";
  }
  return nullptr;
}

std::vector<std::pair<std::string, uint64_t>> LimitsAsList(const WGPULimits& limits) {
  // One entry per field, in the struct's order; keep in step with WGPULimits in webgpu_api.h
  // (the unit test checks the count against the struct's size).
  return {
      {"maxTextureDimension1D", limits.maxTextureDimension1D},
      {"maxTextureDimension2D", limits.maxTextureDimension2D},
      {"maxTextureDimension3D", limits.maxTextureDimension3D},
      {"maxTextureArrayLayers", limits.maxTextureArrayLayers},
      {"maxBindGroups", limits.maxBindGroups},
      {"maxBindGroupsPlusVertexBuffers", limits.maxBindGroupsPlusVertexBuffers},
      {"maxBindingsPerBindGroup", limits.maxBindingsPerBindGroup},
      {"maxDynamicUniformBuffersPerPipelineLayout",
       limits.maxDynamicUniformBuffersPerPipelineLayout},
      {"maxDynamicStorageBuffersPerPipelineLayout",
       limits.maxDynamicStorageBuffersPerPipelineLayout},
      {"maxSampledTexturesPerShaderStage", limits.maxSampledTexturesPerShaderStage},
      {"maxSamplersPerShaderStage", limits.maxSamplersPerShaderStage},
      {"maxStorageBuffersPerShaderStage", limits.maxStorageBuffersPerShaderStage},
      {"maxStorageTexturesPerShaderStage", limits.maxStorageTexturesPerShaderStage},
      {"maxUniformBuffersPerShaderStage", limits.maxUniformBuffersPerShaderStage},
      {"maxUniformBufferBindingSize", limits.maxUniformBufferBindingSize},
      {"maxStorageBufferBindingSize", limits.maxStorageBufferBindingSize},
      {"minUniformBufferOffsetAlignment", limits.minUniformBufferOffsetAlignment},
      {"minStorageBufferOffsetAlignment", limits.minStorageBufferOffsetAlignment},
      {"maxVertexBuffers", limits.maxVertexBuffers},
      {"maxBufferSize", limits.maxBufferSize},
      {"maxVertexAttributes", limits.maxVertexAttributes},
      {"maxVertexBufferArrayStride", limits.maxVertexBufferArrayStride},
      {"maxInterStageShaderVariables", limits.maxInterStageShaderVariables},
      {"maxColorAttachments", limits.maxColorAttachments},
      {"maxColorAttachmentBytesPerSample", limits.maxColorAttachmentBytesPerSample},
      {"maxComputeWorkgroupStorageSize", limits.maxComputeWorkgroupStorageSize},
      {"maxComputeInvocationsPerWorkgroup", limits.maxComputeInvocationsPerWorkgroup},
      {"maxComputeWorkgroupSizeX", limits.maxComputeWorkgroupSizeX},
      {"maxComputeWorkgroupSizeY", limits.maxComputeWorkgroupSizeY},
      {"maxComputeWorkgroupSizeZ", limits.maxComputeWorkgroupSizeZ},
      {"maxComputeWorkgroupsPerDimension", limits.maxComputeWorkgroupsPerDimension},
      {"maxImmediateSize", limits.maxImmediateSize},
  };
}

}  // namespace refract::gpu
