// refract's own declarations of the part of the WebGPU C API (`webgpu.h`) that it calls, for
// exactly one Dawn build: libwebgpu_wrapper.so of the npm package bun-webgpu-linux-x64@0.1.7
// (Dawn of about April 2025). That library ships no header, and headers of other Dawn versions
// do not match it: enum values were renumbered and structs changed shape later. Every
// Dawn-version-specific fact lives here and nowhere else.
//
// Identifiers are the C API's own (they must link, and field order is the ABI); everything
// else -- layout, grouping, comments -- is refract's. Each struct carries a static_assert on its
// x86-64 Linux size, and on the offset of any field that follows padding, so an ABI slip fails
// the build instead of a benchmark.
//
// Source of the facts: the public webgpu.h of kommander/bun-webgpu (commit b7dc1dc, Dawn of
// April 2025), corrected where the library itself disagrees -- it was built from a later Dawn
// (chromium/7130). Checked against the library: every enum value below (through Dawn's own
// value-to-name tables), and the layouts of WGPULimits (152 bytes copied), the chained
// WGPUCompatibilityModeLimits, WGPUBindGroupLayoutEntry (bindingArraySize) and
// WGPUPipelineLayoutDescriptor (immediateSize), plus a full compute run on lavapipe.
//
// Default member initializers give every struct the value the C API documents as its default
// ("undefined" limits, mipLevelCount 1, null strings, ...), so `WGPUXxx x{};` and designated
// initializers start from a valid descriptor. One deliberate difference: the four binding
// layouts inside WGPUBindGroupLayoutEntry default to "binding not used", so an entry only
// declares the binding kind that the caller sets.
#pragma once

#include <cstddef>
#include <cstdint>

// ---------------------------------------------------------------------------------------------
// Scalars, sentinels and opaque objects
// ---------------------------------------------------------------------------------------------

typedef uint64_t WGPUFlags;
/// 0 is false, anything else true (a 32-bit integer in the ABI).
typedef uint32_t WGPUBool;

/// WGPUStringView::length meaning "NUL-terminated".
inline constexpr size_t WGPU_STRLEN = SIZE_MAX;
/// A buffer size/extent meaning "to the end of the buffer".
inline constexpr uint64_t WGPU_WHOLE_SIZE = UINT64_MAX;
/// A map size meaning "to the end of the buffer" (GetMappedRange/MapAsync take size_t).
inline constexpr size_t WGPU_WHOLE_MAP_SIZE = SIZE_MAX;
/// Limit values meaning "no requirement" in WGPULimits used as required limits.
inline constexpr uint32_t WGPU_LIMIT_U32_UNDEFINED = UINT32_MAX;
inline constexpr uint64_t WGPU_LIMIT_U64_UNDEFINED = UINT64_MAX;
/// Query index meaning "do not write" in WGPUPassTimestampWrites.
inline constexpr uint32_t WGPU_QUERY_SET_INDEX_UNDEFINED = UINT32_MAX;
/// Texture copy stride, view mip count and view layer count meaning "derive it".
inline constexpr uint32_t WGPU_COPY_STRIDE_UNDEFINED = UINT32_MAX;
inline constexpr uint32_t WGPU_MIP_LEVEL_COUNT_UNDEFINED = UINT32_MAX;
inline constexpr uint32_t WGPU_ARRAY_LAYER_COUNT_UNDEFINED = UINT32_MAX;

typedef struct WGPUInstanceImpl* WGPUInstance;
typedef struct WGPUAdapterImpl* WGPUAdapter;
typedef struct WGPUDeviceImpl* WGPUDevice;
typedef struct WGPUQueueImpl* WGPUQueue;
typedef struct WGPUBufferImpl* WGPUBuffer;
typedef struct WGPUShaderModuleImpl* WGPUShaderModule;
typedef struct WGPUComputePipelineImpl* WGPUComputePipeline;
typedef struct WGPUBindGroupImpl* WGPUBindGroup;
typedef struct WGPUBindGroupLayoutImpl* WGPUBindGroupLayout;
typedef struct WGPUPipelineLayoutImpl* WGPUPipelineLayout;
typedef struct WGPUCommandEncoderImpl* WGPUCommandEncoder;
typedef struct WGPUCommandBufferImpl* WGPUCommandBuffer;
typedef struct WGPUComputePassEncoderImpl* WGPUComputePassEncoder;
typedef struct WGPUQuerySetImpl* WGPUQuerySet;
typedef struct WGPUTextureImpl* WGPUTexture;
typedef struct WGPUTextureViewImpl* WGPUTextureView;
typedef struct WGPUSamplerImpl* WGPUSampler;
/// Only named by WGPURequestAdapterOptions::compatibleSurface; refract never creates one.
typedef struct WGPUSurfaceImpl* WGPUSurface;

// ---------------------------------------------------------------------------------------------
// Enumerations. All are 32 bits wide in the ABI; values are this Dawn build's.
// ---------------------------------------------------------------------------------------------

enum WGPUStatus : uint32_t {
  WGPUStatus_Success = 0x1,
  WGPUStatus_Error = 0x2,
};

/// Which chained struct a WGPUChainedStruct heads (only those refract declares).
enum WGPUSType : uint32_t {
  WGPUSType_ShaderSourceWGSL = 0x2,
  WGPUSType_CompatibilityModeLimits = 0x00020000,
  WGPUSType_DawnTogglesDescriptor = 0x0005000A,
  WGPUSType_AdapterPropertiesSubgroupMatrixConfigs = 0x0005003B,
};

/// When a callback of an asynchronous call may run.
enum WGPUCallbackMode : uint32_t {
  WGPUCallbackMode_WaitAnyOnly = 0x1,         ///< only inside wgpuInstanceWaitAny
  WGPUCallbackMode_AllowProcessEvents = 0x2,  ///< also inside wgpuInstanceProcessEvents
  WGPUCallbackMode_AllowSpontaneous = 0x3,    ///< on any thread, at any time
};

enum WGPUWaitStatus : uint32_t {
  WGPUWaitStatus_Success = 0x1,
  WGPUWaitStatus_TimedOut = 0x2,
  WGPUWaitStatus_Error = 0x3,
};

enum WGPUWGSLLanguageFeatureName : uint32_t {
  WGPUWGSLLanguageFeatureName_ReadonlyAndReadwriteStorageTextures = 0x1,
  WGPUWGSLLanguageFeatureName_Packed4x8IntegerDotProduct = 0x2,
  WGPUWGSLLanguageFeatureName_UnrestrictedPointerParameters = 0x3,
  WGPUWGSLLanguageFeatureName_PointerCompositeAccess = 0x4,
  WGPUWGSLLanguageFeatureName_SizedBindingArray = 0x5,
  WGPUWGSLLanguageFeatureName_TexelBuffers = 0x6,
  WGPUWGSLLanguageFeatureName_ChromiumTestingUnimplemented = 0x00050000,
  WGPUWGSLLanguageFeatureName_ChromiumTestingUnsafeExperimental = 0x00050001,
  WGPUWGSLLanguageFeatureName_ChromiumTestingExperimental = 0x00050002,
  WGPUWGSLLanguageFeatureName_ChromiumTestingShippedWithKillswitch = 0x00050003,
  WGPUWGSLLanguageFeatureName_ChromiumTestingShipped = 0x00050004,
};

enum WGPURequestAdapterStatus : uint32_t {
  WGPURequestAdapterStatus_Success = 0x1,
  WGPURequestAdapterStatus_CallbackCancelled = 0x2,
  WGPURequestAdapterStatus_Unavailable = 0x3,
  WGPURequestAdapterStatus_Error = 0x4,
};

enum WGPUFeatureLevel : uint32_t {
  WGPUFeatureLevel_Undefined = 0x0,
  WGPUFeatureLevel_Compatibility = 0x1,
  WGPUFeatureLevel_Core = 0x2,
};

enum WGPUPowerPreference : uint32_t {
  WGPUPowerPreference_Undefined = 0x0,
  WGPUPowerPreference_LowPower = 0x1,
  WGPUPowerPreference_HighPerformance = 0x2,
};

enum WGPUBackendType : uint32_t {
  WGPUBackendType_Undefined = 0x0,
  WGPUBackendType_Null = 0x1,  ///< Dawn's do-nothing backend: never measure on it
  WGPUBackendType_WebGPU = 0x2,
  WGPUBackendType_D3D11 = 0x3,
  WGPUBackendType_D3D12 = 0x4,
  WGPUBackendType_Metal = 0x5,
  WGPUBackendType_Vulkan = 0x6,
  WGPUBackendType_OpenGL = 0x7,
  WGPUBackendType_OpenGLES = 0x8,
};

enum WGPUAdapterType : uint32_t {
  WGPUAdapterType_DiscreteGPU = 0x1,
  WGPUAdapterType_IntegratedGPU = 0x2,
  WGPUAdapterType_CPU = 0x3,
  WGPUAdapterType_Unknown = 0x4,
};

/// Every feature this build knows. Standard features are numbered from 0x1, Dawn's own from
/// 0x50000 (later Dawn releases renumbered the standard ones). Read from the library itself:
/// the Dawn-specific values differ from the April 2025 webgpu.h (SubgroupsF16 and
/// ChromiumExperimentalImmediateData are gone, so later values moved down by one).
enum WGPUFeatureName : uint32_t {
  // Standard WebGPU features.
  WGPUFeatureName_DepthClipControl = 0x1,
  WGPUFeatureName_Depth32FloatStencil8 = 0x2,
  WGPUFeatureName_TimestampQuery = 0x3,
  WGPUFeatureName_TextureCompressionBC = 0x4,
  WGPUFeatureName_TextureCompressionBCSliced3D = 0x5,
  WGPUFeatureName_TextureCompressionETC2 = 0x6,
  WGPUFeatureName_TextureCompressionASTC = 0x7,
  WGPUFeatureName_TextureCompressionASTCSliced3D = 0x8,
  WGPUFeatureName_IndirectFirstInstance = 0x9,
  WGPUFeatureName_ShaderF16 = 0xA,
  WGPUFeatureName_RG11B10UfloatRenderable = 0xB,
  WGPUFeatureName_BGRA8UnormStorage = 0xC,
  WGPUFeatureName_Float32Filterable = 0xD,
  WGPUFeatureName_Float32Blendable = 0xE,
  WGPUFeatureName_ClipDistances = 0xF,
  WGPUFeatureName_DualSourceBlending = 0x10,
  WGPUFeatureName_Subgroups = 0x11,
  WGPUFeatureName_CoreFeaturesAndLimits = 0x12,
  // Dawn and Chromium extensions (0x50005 is unassigned in this build).
  WGPUFeatureName_DawnInternalUsages = 0x00050000,
  WGPUFeatureName_DawnMultiPlanarFormats = 0x00050001,
  WGPUFeatureName_DawnNative = 0x00050002,
  WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses = 0x00050003,
  WGPUFeatureName_ImplicitDeviceSynchronization = 0x00050004,
  WGPUFeatureName_TransientAttachments = 0x00050006,
  WGPUFeatureName_MSAARenderToSingleSampled = 0x00050007,
  WGPUFeatureName_D3D11MultithreadProtected = 0x00050008,
  WGPUFeatureName_ANGLETextureSharing = 0x00050009,
  WGPUFeatureName_PixelLocalStorageCoherent = 0x0005000A,
  WGPUFeatureName_PixelLocalStorageNonCoherent = 0x0005000B,
  WGPUFeatureName_Unorm16TextureFormats = 0x0005000C,
  WGPUFeatureName_Snorm16TextureFormats = 0x0005000D,
  WGPUFeatureName_MultiPlanarFormatExtendedUsages = 0x0005000E,
  WGPUFeatureName_MultiPlanarFormatP010 = 0x0005000F,
  WGPUFeatureName_HostMappedPointer = 0x00050010,
  WGPUFeatureName_MultiPlanarRenderTargets = 0x00050011,
  WGPUFeatureName_MultiPlanarFormatNv12a = 0x00050012,
  WGPUFeatureName_FramebufferFetch = 0x00050013,
  WGPUFeatureName_BufferMapExtendedUsages = 0x00050014,
  WGPUFeatureName_AdapterPropertiesMemoryHeaps = 0x00050015,
  WGPUFeatureName_AdapterPropertiesD3D = 0x00050016,
  WGPUFeatureName_AdapterPropertiesVk = 0x00050017,
  WGPUFeatureName_R8UnormStorage = 0x00050018,
  WGPUFeatureName_DawnFormatCapabilities = 0x00050019,
  WGPUFeatureName_DawnDrmFormatCapabilities = 0x0005001A,
  WGPUFeatureName_Norm16TextureFormats = 0x0005001B,
  WGPUFeatureName_MultiPlanarFormatNv16 = 0x0005001C,
  WGPUFeatureName_MultiPlanarFormatNv24 = 0x0005001D,
  WGPUFeatureName_MultiPlanarFormatP210 = 0x0005001E,
  WGPUFeatureName_MultiPlanarFormatP410 = 0x0005001F,
  WGPUFeatureName_SharedTextureMemoryVkDedicatedAllocation = 0x00050020,
  WGPUFeatureName_SharedTextureMemoryAHardwareBuffer = 0x00050021,
  WGPUFeatureName_SharedTextureMemoryDmaBuf = 0x00050022,
  WGPUFeatureName_SharedTextureMemoryOpaqueFD = 0x00050023,
  WGPUFeatureName_SharedTextureMemoryZirconHandle = 0x00050024,
  WGPUFeatureName_SharedTextureMemoryDXGISharedHandle = 0x00050025,
  WGPUFeatureName_SharedTextureMemoryD3D11Texture2D = 0x00050026,
  WGPUFeatureName_SharedTextureMemoryIOSurface = 0x00050027,
  WGPUFeatureName_SharedTextureMemoryEGLImage = 0x00050028,
  WGPUFeatureName_SharedFenceVkSemaphoreOpaqueFD = 0x00050029,
  WGPUFeatureName_SharedFenceSyncFD = 0x0005002A,
  WGPUFeatureName_SharedFenceVkSemaphoreZirconHandle = 0x0005002B,
  WGPUFeatureName_SharedFenceDXGISharedHandle = 0x0005002C,
  WGPUFeatureName_SharedFenceMTLSharedEvent = 0x0005002D,
  WGPUFeatureName_SharedBufferMemoryD3D12Resource = 0x0005002E,
  WGPUFeatureName_StaticSamplers = 0x0005002F,
  WGPUFeatureName_YCbCrVulkanSamplers = 0x00050030,
  WGPUFeatureName_ShaderModuleCompilationOptions = 0x00050031,
  WGPUFeatureName_DawnLoadResolveTexture = 0x00050032,
  WGPUFeatureName_DawnPartialLoadResolveTexture = 0x00050033,
  WGPUFeatureName_MultiDrawIndirect = 0x00050034,
  WGPUFeatureName_DawnTexelCopyBufferRowAlignment = 0x00050035,
  WGPUFeatureName_FlexibleTextureViews = 0x00050036,
  WGPUFeatureName_ChromiumExperimentalSubgroupMatrix = 0x00050037,
  WGPUFeatureName_SharedFenceEGLSync = 0x00050038,
  WGPUFeatureName_DawnDeviceAllocatorControl = 0x00050039,
  WGPUFeatureName_TextureFormatsTier1 = 0x0005003A,
};

enum WGPUSubgroupMatrixComponentType : uint32_t {
  WGPUSubgroupMatrixComponentType_F32 = 0x1,
  WGPUSubgroupMatrixComponentType_F16 = 0x2,
  WGPUSubgroupMatrixComponentType_U32 = 0x3,
  WGPUSubgroupMatrixComponentType_I32 = 0x4,
};

enum WGPURequestDeviceStatus : uint32_t {
  WGPURequestDeviceStatus_Success = 0x1,
  WGPURequestDeviceStatus_CallbackCancelled = 0x2,
  WGPURequestDeviceStatus_Error = 0x3,
};

enum WGPUDeviceLostReason : uint32_t {
  WGPUDeviceLostReason_Unknown = 0x1,
  WGPUDeviceLostReason_Destroyed = 0x2,
  WGPUDeviceLostReason_CallbackCancelled = 0x3,
  WGPUDeviceLostReason_FailedCreation = 0x4,
};

enum WGPUErrorType : uint32_t {
  WGPUErrorType_NoError = 0x1,
  WGPUErrorType_Validation = 0x2,
  WGPUErrorType_OutOfMemory = 0x3,
  WGPUErrorType_Internal = 0x4,
  WGPUErrorType_Unknown = 0x5,
};

enum WGPUErrorFilter : uint32_t {
  WGPUErrorFilter_Validation = 0x1,
  WGPUErrorFilter_OutOfMemory = 0x2,
  WGPUErrorFilter_Internal = 0x3,
};

enum WGPUPopErrorScopeStatus : uint32_t {
  WGPUPopErrorScopeStatus_Success = 0x1,  ///< the scope was popped; see the error type
  WGPUPopErrorScopeStatus_CallbackCancelled = 0x2,
  WGPUPopErrorScopeStatus_Error = 0x3,  ///< nothing to pop (the stack was empty)
};

enum WGPUQueueWorkDoneStatus : uint32_t {
  WGPUQueueWorkDoneStatus_Success = 0x1,
  WGPUQueueWorkDoneStatus_CallbackCancelled = 0x2,
  WGPUQueueWorkDoneStatus_Error = 0x3,
};

enum WGPUMapAsyncStatus : uint32_t {
  WGPUMapAsyncStatus_Success = 0x1,
  WGPUMapAsyncStatus_CallbackCancelled = 0x2,
  WGPUMapAsyncStatus_Error = 0x3,
  WGPUMapAsyncStatus_Aborted = 0x4,
};

enum WGPUCompilationInfoRequestStatus : uint32_t {
  WGPUCompilationInfoRequestStatus_Success = 0x1,
  WGPUCompilationInfoRequestStatus_CallbackCancelled = 0x2,
};

enum WGPUCompilationMessageType : uint32_t {
  WGPUCompilationMessageType_Error = 0x1,
  WGPUCompilationMessageType_Warning = 0x2,
  WGPUCompilationMessageType_Info = 0x3,
};

enum WGPUBufferBindingType : uint32_t {
  WGPUBufferBindingType_BindingNotUsed = 0x0,
  WGPUBufferBindingType_Undefined = 0x1,  ///< means Uniform
  WGPUBufferBindingType_Uniform = 0x2,
  WGPUBufferBindingType_Storage = 0x3,
  WGPUBufferBindingType_ReadOnlyStorage = 0x4,
};

enum WGPUSamplerBindingType : uint32_t {
  WGPUSamplerBindingType_BindingNotUsed = 0x0,
  WGPUSamplerBindingType_Undefined = 0x1,  ///< means Filtering
  WGPUSamplerBindingType_Filtering = 0x2,
  WGPUSamplerBindingType_NonFiltering = 0x3,
  WGPUSamplerBindingType_Comparison = 0x4,
};

enum WGPUTextureSampleType : uint32_t {
  WGPUTextureSampleType_BindingNotUsed = 0x0,
  WGPUTextureSampleType_Undefined = 0x1,  ///< means Float
  WGPUTextureSampleType_Float = 0x2,
  WGPUTextureSampleType_UnfilterableFloat = 0x3,
  WGPUTextureSampleType_Depth = 0x4,
  WGPUTextureSampleType_Sint = 0x5,
  WGPUTextureSampleType_Uint = 0x6,
};

enum WGPUStorageTextureAccess : uint32_t {
  WGPUStorageTextureAccess_BindingNotUsed = 0x0,
  WGPUStorageTextureAccess_Undefined = 0x1,  ///< means WriteOnly
  WGPUStorageTextureAccess_WriteOnly = 0x2,
  WGPUStorageTextureAccess_ReadOnly = 0x3,
  WGPUStorageTextureAccess_ReadWrite = 0x4,
};

enum WGPUQueryType : uint32_t {
  WGPUQueryType_Occlusion = 0x1,
  WGPUQueryType_Timestamp = 0x2,
};

enum WGPUTextureDimension : uint32_t {
  WGPUTextureDimension_Undefined = 0x0,
  WGPUTextureDimension_1D = 0x1,
  WGPUTextureDimension_2D = 0x2,
  WGPUTextureDimension_3D = 0x3,
};

enum WGPUTextureViewDimension : uint32_t {
  WGPUTextureViewDimension_Undefined = 0x0,
  WGPUTextureViewDimension_1D = 0x1,
  WGPUTextureViewDimension_2D = 0x2,
  WGPUTextureViewDimension_2DArray = 0x3,
  WGPUTextureViewDimension_Cube = 0x4,
  WGPUTextureViewDimension_CubeArray = 0x5,
  WGPUTextureViewDimension_3D = 0x6,
};

enum WGPUTextureAspect : uint32_t {
  WGPUTextureAspect_Undefined = 0x0,
  WGPUTextureAspect_All = 0x1,
  WGPUTextureAspect_StencilOnly = 0x2,
  WGPUTextureAspect_DepthOnly = 0x3,
  WGPUTextureAspect_Plane0Only = 0x00050000,
  WGPUTextureAspect_Plane1Only = 0x00050001,
  WGPUTextureAspect_Plane2Only = 0x00050002,
};

/// The uncompressed formats (0x00-0x2B) of this build; compressed and multi-planar formats are
/// left out because refract never creates them.
enum WGPUTextureFormat : uint32_t {
  WGPUTextureFormat_Undefined = 0x00,
  WGPUTextureFormat_R8Unorm = 0x01,
  WGPUTextureFormat_R8Snorm = 0x02,
  WGPUTextureFormat_R8Uint = 0x03,
  WGPUTextureFormat_R8Sint = 0x04,
  WGPUTextureFormat_R16Uint = 0x05,
  WGPUTextureFormat_R16Sint = 0x06,
  WGPUTextureFormat_R16Float = 0x07,
  WGPUTextureFormat_RG8Unorm = 0x08,
  WGPUTextureFormat_RG8Snorm = 0x09,
  WGPUTextureFormat_RG8Uint = 0x0A,
  WGPUTextureFormat_RG8Sint = 0x0B,
  WGPUTextureFormat_R32Float = 0x0C,
  WGPUTextureFormat_R32Uint = 0x0D,
  WGPUTextureFormat_R32Sint = 0x0E,
  WGPUTextureFormat_RG16Uint = 0x0F,
  WGPUTextureFormat_RG16Sint = 0x10,
  WGPUTextureFormat_RG16Float = 0x11,
  WGPUTextureFormat_RGBA8Unorm = 0x12,
  WGPUTextureFormat_RGBA8UnormSrgb = 0x13,
  WGPUTextureFormat_RGBA8Snorm = 0x14,
  WGPUTextureFormat_RGBA8Uint = 0x15,
  WGPUTextureFormat_RGBA8Sint = 0x16,
  WGPUTextureFormat_BGRA8Unorm = 0x17,
  WGPUTextureFormat_BGRA8UnormSrgb = 0x18,
  WGPUTextureFormat_RGB10A2Uint = 0x19,
  WGPUTextureFormat_RGB10A2Unorm = 0x1A,
  WGPUTextureFormat_RG11B10Ufloat = 0x1B,
  WGPUTextureFormat_RGB9E5Ufloat = 0x1C,
  WGPUTextureFormat_RG32Float = 0x1D,
  WGPUTextureFormat_RG32Uint = 0x1E,
  WGPUTextureFormat_RG32Sint = 0x1F,
  WGPUTextureFormat_RGBA16Uint = 0x20,
  WGPUTextureFormat_RGBA16Sint = 0x21,
  WGPUTextureFormat_RGBA16Float = 0x22,
  WGPUTextureFormat_RGBA32Float = 0x23,
  WGPUTextureFormat_RGBA32Uint = 0x24,
  WGPUTextureFormat_RGBA32Sint = 0x25,
  WGPUTextureFormat_Stencil8 = 0x26,
  WGPUTextureFormat_Depth16Unorm = 0x27,
  WGPUTextureFormat_Depth24Plus = 0x28,
  WGPUTextureFormat_Depth24PlusStencil8 = 0x29,
  WGPUTextureFormat_Depth32Float = 0x2A,
  WGPUTextureFormat_Depth32FloatStencil8 = 0x2B,
};

enum WGPUAddressMode : uint32_t {
  WGPUAddressMode_Undefined = 0x0,
  WGPUAddressMode_ClampToEdge = 0x1,
  WGPUAddressMode_Repeat = 0x2,
  WGPUAddressMode_MirrorRepeat = 0x3,
};

enum WGPUFilterMode : uint32_t {
  WGPUFilterMode_Undefined = 0x0,
  WGPUFilterMode_Nearest = 0x1,
  WGPUFilterMode_Linear = 0x2,
};

enum WGPUMipmapFilterMode : uint32_t {
  WGPUMipmapFilterMode_Undefined = 0x0,
  WGPUMipmapFilterMode_Nearest = 0x1,
  WGPUMipmapFilterMode_Linear = 0x2,
};

enum WGPUCompareFunction : uint32_t {
  WGPUCompareFunction_Undefined = 0x0,
  WGPUCompareFunction_Never = 0x1,
  WGPUCompareFunction_Less = 0x2,
  WGPUCompareFunction_Equal = 0x3,
  WGPUCompareFunction_LessEqual = 0x4,
  WGPUCompareFunction_Greater = 0x5,
  WGPUCompareFunction_NotEqual = 0x6,
  WGPUCompareFunction_GreaterEqual = 0x7,
  WGPUCompareFunction_Always = 0x8,
};

// ---------------------------------------------------------------------------------------------
// Bit flags (64-bit WGPUFlags in this build)
// ---------------------------------------------------------------------------------------------

typedef WGPUFlags WGPUBufferUsage;
inline constexpr WGPUBufferUsage WGPUBufferUsage_None = 0x0;
inline constexpr WGPUBufferUsage WGPUBufferUsage_MapRead = 0x1;
inline constexpr WGPUBufferUsage WGPUBufferUsage_MapWrite = 0x2;
inline constexpr WGPUBufferUsage WGPUBufferUsage_CopySrc = 0x4;
inline constexpr WGPUBufferUsage WGPUBufferUsage_CopyDst = 0x8;
inline constexpr WGPUBufferUsage WGPUBufferUsage_Index = 0x10;
inline constexpr WGPUBufferUsage WGPUBufferUsage_Vertex = 0x20;
inline constexpr WGPUBufferUsage WGPUBufferUsage_Uniform = 0x40;
inline constexpr WGPUBufferUsage WGPUBufferUsage_Storage = 0x80;
inline constexpr WGPUBufferUsage WGPUBufferUsage_Indirect = 0x100;
inline constexpr WGPUBufferUsage WGPUBufferUsage_QueryResolve = 0x200;

typedef WGPUFlags WGPUMapMode;
inline constexpr WGPUMapMode WGPUMapMode_None = 0x0;
inline constexpr WGPUMapMode WGPUMapMode_Read = 0x1;
inline constexpr WGPUMapMode WGPUMapMode_Write = 0x2;

typedef WGPUFlags WGPUShaderStage;
inline constexpr WGPUShaderStage WGPUShaderStage_None = 0x0;
inline constexpr WGPUShaderStage WGPUShaderStage_Vertex = 0x1;
inline constexpr WGPUShaderStage WGPUShaderStage_Fragment = 0x2;
inline constexpr WGPUShaderStage WGPUShaderStage_Compute = 0x4;

typedef WGPUFlags WGPUTextureUsage;
inline constexpr WGPUTextureUsage WGPUTextureUsage_None = 0x0;
inline constexpr WGPUTextureUsage WGPUTextureUsage_CopySrc = 0x1;
inline constexpr WGPUTextureUsage WGPUTextureUsage_CopyDst = 0x2;
inline constexpr WGPUTextureUsage WGPUTextureUsage_TextureBinding = 0x4;
inline constexpr WGPUTextureUsage WGPUTextureUsage_StorageBinding = 0x8;
inline constexpr WGPUTextureUsage WGPUTextureUsage_RenderAttachment = 0x10;
inline constexpr WGPUTextureUsage WGPUTextureUsage_TransientAttachment = 0x20;
inline constexpr WGPUTextureUsage WGPUTextureUsage_StorageAttachment = 0x40;

// ---------------------------------------------------------------------------------------------
// Strings, chains, futures
// ---------------------------------------------------------------------------------------------

/// A string that need not be NUL-terminated. {nullptr, WGPU_STRLEN} is the null string (the
/// default: "no label", "the only entry point"); {ptr, WGPU_STRLEN} is NUL-terminated.
/// Strings handed to callbacks live only for the duration of the call.
struct WGPUStringView {
  const char* data = nullptr;
  size_t length = WGPU_STRLEN;
};
static_assert(sizeof(WGPUStringView) == 16);

/// Header of an extension struct hung on a `nextInChain`. This build uses the same (non-const)
/// type for input and output chains; it has no WGPUChainedStructOut.
struct WGPUChainedStruct {
  WGPUChainedStruct* next = nullptr;
  WGPUSType sType{};
};
static_assert(sizeof(WGPUChainedStruct) == 16);

/// Handle of one pending asynchronous operation, for wgpuInstanceWaitAny.
struct WGPUFuture {
  uint64_t id = 0;
};
static_assert(sizeof(WGPUFuture) == 8);

/// One entry of wgpuInstanceWaitAny's in/out array: `completed` is set when its callback ran.
struct WGPUFutureWaitInfo {
  WGPUFuture future;
  WGPUBool completed = 0;
};
static_assert(sizeof(WGPUFutureWaitInfo) == 16);
static_assert(offsetof(WGPUFutureWaitInfo, completed) == 8);

// ---------------------------------------------------------------------------------------------
// Instance
// ---------------------------------------------------------------------------------------------

/// Requested (at creation) or reported (by wgpuGetInstanceCapabilities) instance abilities.
/// wgpuInstanceWaitAny with a non-zero timeout needs timedWaitAnyEnable = 1 at creation.
struct WGPUInstanceCapabilities {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUBool timedWaitAnyEnable = 0;
  size_t timedWaitAnyMaxCount = 0;
};
static_assert(sizeof(WGPUInstanceCapabilities) == 24);
static_assert(offsetof(WGPUInstanceCapabilities, timedWaitAnyMaxCount) == 16);

/// Accepts a chained WGPUDawnTogglesDescriptor (e.g. "allow_unsafe_apis").
struct WGPUInstanceDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUInstanceCapabilities capabilities;
};
static_assert(sizeof(WGPUInstanceDescriptor) == 32);
static_assert(offsetof(WGPUInstanceDescriptor, capabilities) == 8);

/// Filled by wgpuInstanceGetWGSLLanguageFeatures; release with
/// wgpuSupportedWGSLLanguageFeaturesFreeMembers.
struct WGPUSupportedWGSLLanguageFeatures {
  size_t featureCount = 0;
  const WGPUWGSLLanguageFeatureName* features = nullptr;
};
static_assert(sizeof(WGPUSupportedWGSLLanguageFeatures) == 16);

/// Dawn toggles by name; chain into WGPUInstanceDescriptor, WGPURequestAdapterOptions or
/// WGPUDeviceDescriptor. The name arrays must outlive the call they are passed to.
struct WGPUDawnTogglesDescriptor {
  WGPUChainedStruct chain{nullptr, WGPUSType_DawnTogglesDescriptor};
  size_t enabledToggleCount = 0;
  const char* const* enabledToggles = nullptr;
  size_t disabledToggleCount = 0;
  const char* const* disabledToggles = nullptr;
};
static_assert(sizeof(WGPUDawnTogglesDescriptor) == 48);
static_assert(offsetof(WGPUDawnTogglesDescriptor, enabledToggleCount) == 16);

// ---------------------------------------------------------------------------------------------
// Adapter
// ---------------------------------------------------------------------------------------------

/// With the defaults Dawn may hand out its Null backend: set backendType explicitly.
struct WGPURequestAdapterOptions {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUFeatureLevel featureLevel = WGPUFeatureLevel_Undefined;
  WGPUPowerPreference powerPreference = WGPUPowerPreference_Undefined;
  WGPUBool forceFallbackAdapter = 0;
  WGPUBackendType backendType = WGPUBackendType_Undefined;
  WGPUSurface compatibleSurface = nullptr;
};
static_assert(sizeof(WGPURequestAdapterOptions) == 32);
static_assert(offsetof(WGPURequestAdapterOptions, compatibleSurface) == 24);

/// Filled by wgpuAdapterGetInfo / wgpuDeviceGetAdapterInfo; release with
/// wgpuAdapterInfoFreeMembers. Subgroup sizes are reported here directly in this build.
struct WGPUAdapterInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView vendor;
  WGPUStringView architecture;
  WGPUStringView device;
  WGPUStringView description;
  WGPUBackendType backendType = WGPUBackendType_Undefined;
  WGPUAdapterType adapterType{};
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint32_t subgroupMinSize = 0;
  uint32_t subgroupMaxSize = 0;
};
static_assert(sizeof(WGPUAdapterInfo) == 96);
static_assert(offsetof(WGPUAdapterInfo, backendType) == 72);
static_assert(offsetof(WGPUAdapterInfo, subgroupMaxSize) == 92);

/// Adapter/device limits, or required limits at device creation (where "undefined" values
/// mean "WebGPU's default"). 32 limits in this build, in this order: the library copies 152
/// bytes. The four compatibility-mode stage limits live in the chained
/// WGPUCompatibilityModeLimits instead, and maxImmediateSize ends the struct (the April 2025
/// webgpu.h differs on both counts).
struct WGPULimits {
  WGPUChainedStruct* nextInChain = nullptr;
  uint32_t maxTextureDimension1D = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxTextureDimension2D = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxTextureDimension3D = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxTextureArrayLayers = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxBindGroups = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxBindGroupsPlusVertexBuffers = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxBindingsPerBindGroup = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxDynamicUniformBuffersPerPipelineLayout = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxDynamicStorageBuffersPerPipelineLayout = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxSampledTexturesPerShaderStage = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxSamplersPerShaderStage = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxStorageBuffersPerShaderStage = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxStorageTexturesPerShaderStage = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxUniformBuffersPerShaderStage = WGPU_LIMIT_U32_UNDEFINED;
  uint64_t maxUniformBufferBindingSize = WGPU_LIMIT_U64_UNDEFINED;
  uint64_t maxStorageBufferBindingSize = WGPU_LIMIT_U64_UNDEFINED;
  uint32_t minUniformBufferOffsetAlignment = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t minStorageBufferOffsetAlignment = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxVertexBuffers = WGPU_LIMIT_U32_UNDEFINED;
  uint64_t maxBufferSize = WGPU_LIMIT_U64_UNDEFINED;
  uint32_t maxVertexAttributes = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxVertexBufferArrayStride = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxInterStageShaderVariables = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxColorAttachments = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxColorAttachmentBytesPerSample = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxComputeWorkgroupStorageSize = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxComputeInvocationsPerWorkgroup = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxComputeWorkgroupSizeX = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxComputeWorkgroupSizeY = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxComputeWorkgroupSizeZ = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxComputeWorkgroupsPerDimension = WGPU_LIMIT_U32_UNDEFINED;
  /// Bytes of immediate data ("push constants"); 0 unless Dawn's allow_unsafe_apis is on.
  uint32_t maxImmediateSize = WGPU_LIMIT_U32_UNDEFINED;
};
static_assert(sizeof(WGPULimits) == 152);
static_assert(offsetof(WGPULimits, maxUniformBufferBindingSize) == 64);
static_assert(offsetof(WGPULimits, maxStorageBufferBindingSize) == 72);
static_assert(offsetof(WGPULimits, maxVertexBuffers) == 88);
static_assert(offsetof(WGPULimits, maxBufferSize) == 96);
static_assert(offsetof(WGPULimits, maxComputeWorkgroupStorageSize) == 124);
static_assert(offsetof(WGPULimits, maxComputeWorkgroupsPerDimension) == 144);
static_assert(offsetof(WGPULimits, maxImmediateSize) == 148);

/// Chain into WGPULimits to read or require the stage limits of compatibility mode.
struct WGPUCompatibilityModeLimits {
  WGPUChainedStruct chain{nullptr, WGPUSType_CompatibilityModeLimits};
  uint32_t maxStorageBuffersInVertexStage = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxStorageTexturesInVertexStage = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxStorageBuffersInFragmentStage = WGPU_LIMIT_U32_UNDEFINED;
  uint32_t maxStorageTexturesInFragmentStage = WGPU_LIMIT_U32_UNDEFINED;
};
static_assert(sizeof(WGPUCompatibilityModeLimits) == 32);

/// Filled by wgpuAdapterGetFeatures / wgpuDeviceGetFeatures; release with
/// wgpuSupportedFeaturesFreeMembers.
struct WGPUSupportedFeatures {
  size_t featureCount = 0;
  const WGPUFeatureName* features = nullptr;
};
static_assert(sizeof(WGPUSupportedFeatures) == 16);

/// One subgroup-matrix shape the adapter supports: an M x K times K x N product of
/// `componentType` accumulating into `resultComponentType`.
struct WGPUSubgroupMatrixConfig {
  WGPUSubgroupMatrixComponentType componentType{};
  WGPUSubgroupMatrixComponentType resultComponentType{};
  uint32_t M = 0;
  uint32_t N = 0;
  uint32_t K = 0;
};
static_assert(sizeof(WGPUSubgroupMatrixConfig) == 20);

/// Chain into WGPUAdapterInfo before wgpuAdapterGetInfo (adapter must have
/// chromium-experimental-subgroup-matrix); release with
/// wgpuAdapterPropertiesSubgroupMatrixConfigsFreeMembers.
struct WGPUAdapterPropertiesSubgroupMatrixConfigs {
  WGPUChainedStruct chain{nullptr, WGPUSType_AdapterPropertiesSubgroupMatrixConfigs};
  size_t configCount = 0;
  const WGPUSubgroupMatrixConfig* configs = nullptr;
};
static_assert(sizeof(WGPUAdapterPropertiesSubgroupMatrixConfigs) == 32);
static_assert(offsetof(WGPUAdapterPropertiesSubgroupMatrixConfigs, configCount) == 16);

// ---------------------------------------------------------------------------------------------
// Callbacks. Every asynchronous call takes a ...CallbackInfo by value and returns a WGPUFuture;
// userdata1/userdata2 are passed back untouched.
// ---------------------------------------------------------------------------------------------

struct WGPUCompilationInfo;

typedef void (*WGPURequestAdapterCallback)(WGPURequestAdapterStatus status, WGPUAdapter adapter,
                                           WGPUStringView message, void* userdata1,
                                           void* userdata2);
typedef void (*WGPURequestDeviceCallback)(WGPURequestDeviceStatus status, WGPUDevice device,
                                          WGPUStringView message, void* userdata1, void* userdata2);
/// `device` points at the lost device's handle.
typedef void (*WGPUDeviceLostCallback)(const WGPUDevice* device, WGPUDeviceLostReason reason,
                                       WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUUncapturedErrorCallback)(const WGPUDevice* device, WGPUErrorType type,
                                            WGPUStringView message, void* userdata1,
                                            void* userdata2);
typedef void (*WGPUPopErrorScopeCallback)(WGPUPopErrorScopeStatus status, WGPUErrorType type,
                                          WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUQueueWorkDoneCallback)(WGPUQueueWorkDoneStatus status, void* userdata1,
                                          void* userdata2);
typedef void (*WGPUBufferMapCallback)(WGPUMapAsyncStatus status, WGPUStringView message,
                                      void* userdata1, void* userdata2);
typedef void (*WGPUCompilationInfoCallback)(WGPUCompilationInfoRequestStatus status,
                                            const WGPUCompilationInfo* compilationInfo,
                                            void* userdata1, void* userdata2);

struct WGPURequestAdapterCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUCallbackMode mode{};
  WGPURequestAdapterCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPURequestAdapterCallbackInfo) == 40);
static_assert(offsetof(WGPURequestAdapterCallbackInfo, callback) == 16);

struct WGPURequestDeviceCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUCallbackMode mode{};
  WGPURequestDeviceCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPURequestDeviceCallbackInfo) == 40);
static_assert(offsetof(WGPURequestDeviceCallbackInfo, callback) == 16);

struct WGPUDeviceLostCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUCallbackMode mode{};
  WGPUDeviceLostCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPUDeviceLostCallbackInfo) == 40);
static_assert(offsetof(WGPUDeviceLostCallbackInfo, callback) == 16);

/// Unlike the others this one has no `mode`: uncaptured errors are reported spontaneously.
struct WGPUUncapturedErrorCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUUncapturedErrorCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPUUncapturedErrorCallbackInfo) == 32);
static_assert(offsetof(WGPUUncapturedErrorCallbackInfo, callback) == 8);

struct WGPUPopErrorScopeCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUCallbackMode mode{};
  WGPUPopErrorScopeCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPUPopErrorScopeCallbackInfo) == 40);
static_assert(offsetof(WGPUPopErrorScopeCallbackInfo, callback) == 16);

struct WGPUQueueWorkDoneCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUCallbackMode mode{};
  WGPUQueueWorkDoneCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPUQueueWorkDoneCallbackInfo) == 40);
static_assert(offsetof(WGPUQueueWorkDoneCallbackInfo, callback) == 16);

struct WGPUBufferMapCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUCallbackMode mode{};
  WGPUBufferMapCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPUBufferMapCallbackInfo) == 40);
static_assert(offsetof(WGPUBufferMapCallbackInfo, callback) == 16);

struct WGPUCompilationInfoCallbackInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUCallbackMode mode{};
  WGPUCompilationInfoCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
static_assert(sizeof(WGPUCompilationInfoCallbackInfo) == 40);
static_assert(offsetof(WGPUCompilationInfoCallbackInfo, callback) == 16);

// ---------------------------------------------------------------------------------------------
// Device and queue
// ---------------------------------------------------------------------------------------------

struct WGPUQueueDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
};
static_assert(sizeof(WGPUQueueDescriptor) == 24);

/// requiredFeatures / requiredLimits must outlive wgpuAdapterRequestDevice. Accepts a chained
/// WGPUDawnTogglesDescriptor (e.g. disabling "timestamp_quantization").
struct WGPUDeviceDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  size_t requiredFeatureCount = 0;
  const WGPUFeatureName* requiredFeatures = nullptr;
  const WGPULimits* requiredLimits = nullptr;
  WGPUQueueDescriptor defaultQueue;
  WGPUDeviceLostCallbackInfo deviceLostCallbackInfo;
  WGPUUncapturedErrorCallbackInfo uncapturedErrorCallbackInfo;
};
static_assert(sizeof(WGPUDeviceDescriptor) == 144);
static_assert(offsetof(WGPUDeviceDescriptor, requiredFeatureCount) == 24);
static_assert(offsetof(WGPUDeviceDescriptor, defaultQueue) == 48);
static_assert(offsetof(WGPUDeviceDescriptor, deviceLostCallbackInfo) == 72);
static_assert(offsetof(WGPUDeviceDescriptor, uncapturedErrorCallbackInfo) == 112);

struct WGPUOrigin3D {
  uint32_t x = 0;
  uint32_t y = 0;
  uint32_t z = 0;
};
static_assert(sizeof(WGPUOrigin3D) == 12);

struct WGPUExtent3D {
  uint32_t width = 0;
  uint32_t height = 1;
  uint32_t depthOrArrayLayers = 1;
};
static_assert(sizeof(WGPUExtent3D) == 12);

/// Where in a texture a copy starts.
struct WGPUTexelCopyTextureInfo {
  WGPUTexture texture = nullptr;
  uint32_t mipLevel = 0;
  WGPUOrigin3D origin;
  WGPUTextureAspect aspect = WGPUTextureAspect_Undefined;
};
static_assert(sizeof(WGPUTexelCopyTextureInfo) == 32);
static_assert(offsetof(WGPUTexelCopyTextureInfo, origin) == 12);
static_assert(offsetof(WGPUTexelCopyTextureInfo, aspect) == 24);

/// Layout of linear texel data (source of wgpuQueueWriteTexture).
struct WGPUTexelCopyBufferLayout {
  uint64_t offset = 0;
  uint32_t bytesPerRow = WGPU_COPY_STRIDE_UNDEFINED;
  uint32_t rowsPerImage = WGPU_COPY_STRIDE_UNDEFINED;
};
static_assert(sizeof(WGPUTexelCopyBufferLayout) == 16);

// ---------------------------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------------------------

struct WGPUBufferDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  WGPUBufferUsage usage = WGPUBufferUsage_None;
  uint64_t size = 0;
  WGPUBool mappedAtCreation = 0;
};
static_assert(sizeof(WGPUBufferDescriptor) == 48);
static_assert(offsetof(WGPUBufferDescriptor, usage) == 24);
static_assert(offsetof(WGPUBufferDescriptor, mappedAtCreation) == 40);

// ---------------------------------------------------------------------------------------------
// Shaders and pipelines
// ---------------------------------------------------------------------------------------------

/// Chain a WGPUShaderSourceWGSL into nextInChain to give the code.
struct WGPUShaderModuleDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
};
static_assert(sizeof(WGPUShaderModuleDescriptor) == 24);

struct WGPUShaderSourceWGSL {
  WGPUChainedStruct chain{nullptr, WGPUSType_ShaderSourceWGSL};
  WGPUStringView code;
};
static_assert(sizeof(WGPUShaderSourceWGSL) == 32);

/// One diagnostic. lineNum/linePos are 1-based; offset/length are in UTF-8 code units.
struct WGPUCompilationMessage {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView message;
  WGPUCompilationMessageType type{};
  uint64_t lineNum = 0;
  uint64_t linePos = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
};
static_assert(sizeof(WGPUCompilationMessage) == 64);
static_assert(offsetof(WGPUCompilationMessage, type) == 24);
static_assert(offsetof(WGPUCompilationMessage, lineNum) == 32);

/// Valid only during the WGPUCompilationInfoCallback it is passed to.
struct WGPUCompilationInfo {
  WGPUChainedStruct* nextInChain = nullptr;
  size_t messageCount = 0;
  const WGPUCompilationMessage* messages = nullptr;
};
static_assert(sizeof(WGPUCompilationInfo) == 24);

/// A pipeline-overridable constant's value, by name or numeric id.
struct WGPUConstantEntry {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView key;
  double value = 0.0;
};
static_assert(sizeof(WGPUConstantEntry) == 32);

/// The compute stage of a pipeline (this build's name for the programmable stage). A null
/// entryPoint selects the module's only compute entry point.
struct WGPUComputeState {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUShaderModule module = nullptr;
  WGPUStringView entryPoint;
  size_t constantCount = 0;
  const WGPUConstantEntry* constants = nullptr;
};
static_assert(sizeof(WGPUComputeState) == 48);
static_assert(offsetof(WGPUComputeState, entryPoint) == 16);

/// A null layout means "auto": bindings the shader does not statically use are dropped.
struct WGPUComputePipelineDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  WGPUPipelineLayout layout = nullptr;
  WGPUComputeState compute;
};
static_assert(sizeof(WGPUComputePipelineDescriptor) == 80);
static_assert(offsetof(WGPUComputePipelineDescriptor, compute) == 32);

/// Exactly one of buffer / sampler / textureView is set.
struct WGPUBindGroupEntry {
  WGPUChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  WGPUBuffer buffer = nullptr;
  uint64_t offset = 0;
  uint64_t size = WGPU_WHOLE_SIZE;
  WGPUSampler sampler = nullptr;
  WGPUTextureView textureView = nullptr;
};
static_assert(sizeof(WGPUBindGroupEntry) == 56);
static_assert(offsetof(WGPUBindGroupEntry, buffer) == 16);

struct WGPUBindGroupDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  WGPUBindGroupLayout layout = nullptr;
  size_t entryCount = 0;
  const WGPUBindGroupEntry* entries = nullptr;
};
static_assert(sizeof(WGPUBindGroupDescriptor) == 48);

/// Defaults to BindingNotUsed (see the note at the top of this file).
struct WGPUBufferBindingLayout {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUBufferBindingType type = WGPUBufferBindingType_BindingNotUsed;
  WGPUBool hasDynamicOffset = 0;
  uint64_t minBindingSize = 0;
};
static_assert(sizeof(WGPUBufferBindingLayout) == 24);
static_assert(offsetof(WGPUBufferBindingLayout, minBindingSize) == 16);

/// Defaults to BindingNotUsed (see the note at the top of this file).
struct WGPUSamplerBindingLayout {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUSamplerBindingType type = WGPUSamplerBindingType_BindingNotUsed;
};
static_assert(sizeof(WGPUSamplerBindingLayout) == 16);

/// Defaults to BindingNotUsed (see the note at the top of this file).
struct WGPUTextureBindingLayout {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUTextureSampleType sampleType = WGPUTextureSampleType_BindingNotUsed;
  WGPUTextureViewDimension viewDimension = WGPUTextureViewDimension_Undefined;
  WGPUBool multisampled = 0;
};
static_assert(sizeof(WGPUTextureBindingLayout) == 24);

/// Defaults to BindingNotUsed (see the note at the top of this file).
struct WGPUStorageTextureBindingLayout {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStorageTextureAccess access = WGPUStorageTextureAccess_BindingNotUsed;
  WGPUTextureFormat format = WGPUTextureFormat_Undefined;
  WGPUTextureViewDimension viewDimension = WGPUTextureViewDimension_Undefined;
};
static_assert(sizeof(WGPUStorageTextureBindingLayout) == 24);

/// Set exactly one of buffer / sampler / texture / storageTexture to a used binding type.
/// This build has bindingArraySize (0 = not an array) between visibility and buffer; the
/// April 2025 webgpu.h does not, and a layout without it fails validation at run time.
struct WGPUBindGroupLayoutEntry {
  WGPUChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  WGPUShaderStage visibility = WGPUShaderStage_None;
  uint32_t bindingArraySize = 0;
  WGPUBufferBindingLayout buffer;
  WGPUSamplerBindingLayout sampler;
  WGPUTextureBindingLayout texture;
  WGPUStorageTextureBindingLayout storageTexture;
};
static_assert(sizeof(WGPUBindGroupLayoutEntry) == 120);
static_assert(offsetof(WGPUBindGroupLayoutEntry, visibility) == 16);
static_assert(offsetof(WGPUBindGroupLayoutEntry, bindingArraySize) == 24);
static_assert(offsetof(WGPUBindGroupLayoutEntry, buffer) == 32);
static_assert(offsetof(WGPUBindGroupLayoutEntry, sampler) == 56);
static_assert(offsetof(WGPUBindGroupLayoutEntry, texture) == 72);
static_assert(offsetof(WGPUBindGroupLayoutEntry, storageTexture) == 96);

struct WGPUBindGroupLayoutDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  size_t entryCount = 0;
  const WGPUBindGroupLayoutEntry* entries = nullptr;
};
static_assert(sizeof(WGPUBindGroupLayoutDescriptor) == 40);

/// immediateSize: bytes of immediate data the pipelines use (at most maxImmediateSize);
/// leave it 0. (The April 2025 webgpu.h calls it immediateDataRangeByteSize.)
struct WGPUPipelineLayoutDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  size_t bindGroupLayoutCount = 0;
  const WGPUBindGroupLayout* bindGroupLayouts = nullptr;
  uint32_t immediateSize = 0;
};
static_assert(sizeof(WGPUPipelineLayoutDescriptor) == 48);
static_assert(offsetof(WGPUPipelineLayoutDescriptor, immediateSize) == 40);

// ---------------------------------------------------------------------------------------------
// Commands and queries
// ---------------------------------------------------------------------------------------------

struct WGPUCommandEncoderDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
};
static_assert(sizeof(WGPUCommandEncoderDescriptor) == 24);

struct WGPUCommandBufferDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
};
static_assert(sizeof(WGPUCommandBufferDescriptor) == 24);

/// Timestamps a pass writes at its start and end (this build's name, shared by compute and
/// render passes). WGPU_QUERY_SET_INDEX_UNDEFINED skips that write.
struct WGPUPassTimestampWrites {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUQuerySet querySet = nullptr;
  uint32_t beginningOfPassWriteIndex = WGPU_QUERY_SET_INDEX_UNDEFINED;
  uint32_t endOfPassWriteIndex = WGPU_QUERY_SET_INDEX_UNDEFINED;
};
static_assert(sizeof(WGPUPassTimestampWrites) == 24);

struct WGPUComputePassDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  const WGPUPassTimestampWrites* timestampWrites = nullptr;
};
static_assert(sizeof(WGPUComputePassDescriptor) == 32);

struct WGPUQuerySetDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  WGPUQueryType type{};
  uint32_t count = 0;
};
static_assert(sizeof(WGPUQuerySetDescriptor) == 32);
static_assert(offsetof(WGPUQuerySetDescriptor, type) == 24);

// ---------------------------------------------------------------------------------------------
// Textures and samplers
// ---------------------------------------------------------------------------------------------

struct WGPUTextureDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  WGPUTextureUsage usage = WGPUTextureUsage_None;
  WGPUTextureDimension dimension = WGPUTextureDimension_Undefined;  ///< Undefined means 2D
  WGPUExtent3D size;
  WGPUTextureFormat format = WGPUTextureFormat_Undefined;
  uint32_t mipLevelCount = 1;
  uint32_t sampleCount = 1;
  size_t viewFormatCount = 0;
  const WGPUTextureFormat* viewFormats = nullptr;
};
static_assert(sizeof(WGPUTextureDescriptor) == 80);
static_assert(offsetof(WGPUTextureDescriptor, dimension) == 32);
static_assert(offsetof(WGPUTextureDescriptor, size) == 36);
static_assert(offsetof(WGPUTextureDescriptor, format) == 48);
static_assert(offsetof(WGPUTextureDescriptor, viewFormatCount) == 64);

struct WGPUTextureViewDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  WGPUTextureFormat format = WGPUTextureFormat_Undefined;
  WGPUTextureViewDimension dimension = WGPUTextureViewDimension_Undefined;
  uint32_t baseMipLevel = 0;
  uint32_t mipLevelCount = WGPU_MIP_LEVEL_COUNT_UNDEFINED;
  uint32_t baseArrayLayer = 0;
  uint32_t arrayLayerCount = WGPU_ARRAY_LAYER_COUNT_UNDEFINED;
  WGPUTextureAspect aspect = WGPUTextureAspect_Undefined;
  WGPUTextureUsage usage = WGPUTextureUsage_None;
};
static_assert(sizeof(WGPUTextureViewDescriptor) == 64);
static_assert(offsetof(WGPUTextureViewDescriptor, aspect) == 48);
static_assert(offsetof(WGPUTextureViewDescriptor, usage) == 56);

struct WGPUSamplerDescriptor {
  WGPUChainedStruct* nextInChain = nullptr;
  WGPUStringView label;
  WGPUAddressMode addressModeU = WGPUAddressMode_Undefined;
  WGPUAddressMode addressModeV = WGPUAddressMode_Undefined;
  WGPUAddressMode addressModeW = WGPUAddressMode_Undefined;
  WGPUFilterMode magFilter = WGPUFilterMode_Undefined;
  WGPUFilterMode minFilter = WGPUFilterMode_Undefined;
  WGPUMipmapFilterMode mipmapFilter = WGPUMipmapFilterMode_Undefined;
  float lodMinClamp = 0.0f;
  float lodMaxClamp = 32.0f;
  WGPUCompareFunction compare = WGPUCompareFunction_Undefined;
  uint16_t maxAnisotropy = 1;
};
static_assert(sizeof(WGPUSamplerDescriptor) == 64);
static_assert(offsetof(WGPUSamplerDescriptor, lodMinClamp) == 48);
static_assert(offsetof(WGPUSamplerDescriptor, maxAnisotropy) == 60);

// ---------------------------------------------------------------------------------------------
// Functions exported by libwebgpu_wrapper.so. Objects returned by Create/Get calls carry one
// reference that the caller owns and must Release. Descriptor pointers need only live for the
// duration of the call unless stated otherwise.
// ---------------------------------------------------------------------------------------------

extern "C" {

// Instance.
/// Null descriptor: defaults. Returns null on failure.
WGPUInstance wgpuCreateInstance(const WGPUInstanceDescriptor* descriptor);
WGPUStatus wgpuGetInstanceCapabilities(WGPUInstanceCapabilities* capabilities);
WGPUFuture wgpuInstanceRequestAdapter(WGPUInstance instance,
                                      const WGPURequestAdapterOptions* options,
                                      WGPURequestAdapterCallbackInfo callbackInfo);
/// Waits until one of `futures` completes or `timeoutNS` passes; marks completed entries.
WGPUWaitStatus wgpuInstanceWaitAny(WGPUInstance instance, size_t futureCount,
                                   WGPUFutureWaitInfo* futures, uint64_t timeoutNS);
/// Runs ready AllowProcessEvents callbacks on the calling thread.
void wgpuInstanceProcessEvents(WGPUInstance instance);
WGPUBool wgpuInstanceHasWGSLLanguageFeature(WGPUInstance instance,
                                            WGPUWGSLLanguageFeatureName feature);
WGPUStatus wgpuInstanceGetWGSLLanguageFeatures(WGPUInstance instance,
                                               WGPUSupportedWGSLLanguageFeatures* features);
void wgpuSupportedWGSLLanguageFeaturesFreeMembers(WGPUSupportedWGSLLanguageFeatures value);
void wgpuInstanceAddRef(WGPUInstance instance);
void wgpuInstanceRelease(WGPUInstance instance);

// Adapter.
WGPUStatus wgpuAdapterGetInfo(WGPUAdapter adapter, WGPUAdapterInfo* info);
void wgpuAdapterInfoFreeMembers(WGPUAdapterInfo value);
void wgpuAdapterPropertiesSubgroupMatrixConfigsFreeMembers(
    WGPUAdapterPropertiesSubgroupMatrixConfigs value);
WGPUStatus wgpuAdapterGetLimits(WGPUAdapter adapter, WGPULimits* limits);
void wgpuAdapterGetFeatures(WGPUAdapter adapter, WGPUSupportedFeatures* features);
void wgpuSupportedFeaturesFreeMembers(WGPUSupportedFeatures value);
WGPUBool wgpuAdapterHasFeature(WGPUAdapter adapter, WGPUFeatureName feature);
WGPUFuture wgpuAdapterRequestDevice(WGPUAdapter adapter, const WGPUDeviceDescriptor* options,
                                    WGPURequestDeviceCallbackInfo callbackInfo);
void wgpuAdapterAddRef(WGPUAdapter adapter);
void wgpuAdapterRelease(WGPUAdapter adapter);

// Device.
WGPUStatus wgpuDeviceGetLimits(WGPUDevice device, WGPULimits* limits);
void wgpuDeviceGetFeatures(WGPUDevice device, WGPUSupportedFeatures* features);
WGPUBool wgpuDeviceHasFeature(WGPUDevice device, WGPUFeatureName feature);
WGPUStatus wgpuDeviceGetAdapterInfo(WGPUDevice device, WGPUAdapterInfo* adapterInfo);
WGPUQueue wgpuDeviceGetQueue(WGPUDevice device);
void wgpuDevicePushErrorScope(WGPUDevice device, WGPUErrorFilter filter);
WGPUFuture wgpuDevicePopErrorScope(WGPUDevice device, WGPUPopErrorScopeCallbackInfo callbackInfo);
WGPUBuffer wgpuDeviceCreateBuffer(WGPUDevice device, const WGPUBufferDescriptor* descriptor);
WGPUShaderModule wgpuDeviceCreateShaderModule(WGPUDevice device,
                                              const WGPUShaderModuleDescriptor* descriptor);
WGPUComputePipeline wgpuDeviceCreateComputePipeline(
    WGPUDevice device, const WGPUComputePipelineDescriptor* descriptor);
WGPUBindGroup wgpuDeviceCreateBindGroup(WGPUDevice device,
                                        const WGPUBindGroupDescriptor* descriptor);
WGPUBindGroupLayout wgpuDeviceCreateBindGroupLayout(
    WGPUDevice device, const WGPUBindGroupLayoutDescriptor* descriptor);
WGPUPipelineLayout wgpuDeviceCreatePipelineLayout(WGPUDevice device,
                                                  const WGPUPipelineLayoutDescriptor* descriptor);
WGPUCommandEncoder wgpuDeviceCreateCommandEncoder(WGPUDevice device,
                                                  const WGPUCommandEncoderDescriptor* descriptor);
WGPUQuerySet wgpuDeviceCreateQuerySet(WGPUDevice device, const WGPUQuerySetDescriptor* descriptor);
WGPUTexture wgpuDeviceCreateTexture(WGPUDevice device, const WGPUTextureDescriptor* descriptor);
WGPUSampler wgpuDeviceCreateSampler(WGPUDevice device, const WGPUSamplerDescriptor* descriptor);
/// Dawn extension: lets the device make progress (callbacks, resource recycling).
void wgpuDeviceTick(WGPUDevice device);
void wgpuDeviceDestroy(WGPUDevice device);
/// Dawn extension: loses the device as a driver failure would, through the device-lost callback
/// with `reason` and `message` (refract's tests inject a loss with it).
void wgpuDeviceForceLoss(WGPUDevice device, WGPUDeviceLostReason reason, WGPUStringView message);
void wgpuDeviceAddRef(WGPUDevice device);
void wgpuDeviceRelease(WGPUDevice device);

// Queue.
void wgpuQueueSubmit(WGPUQueue queue, size_t commandCount, const WGPUCommandBuffer* commands);
void wgpuQueueWriteBuffer(WGPUQueue queue, WGPUBuffer buffer, uint64_t bufferOffset,
                          const void* data, size_t size);
void wgpuQueueWriteTexture(WGPUQueue queue, const WGPUTexelCopyTextureInfo* destination,
                           const void* data, size_t dataSize,
                           const WGPUTexelCopyBufferLayout* dataLayout,
                           const WGPUExtent3D* writeSize);
WGPUFuture wgpuQueueOnSubmittedWorkDone(WGPUQueue queue,
                                        WGPUQueueWorkDoneCallbackInfo callbackInfo);
void wgpuQueueAddRef(WGPUQueue queue);
void wgpuQueueRelease(WGPUQueue queue);

// Buffer.
/// `size` may be WGPU_WHOLE_MAP_SIZE.
WGPUFuture wgpuBufferMapAsync(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size,
                              WGPUBufferMapCallbackInfo callbackInfo);
/// Null when the range is not mapped.
const void* wgpuBufferGetConstMappedRange(WGPUBuffer buffer, size_t offset, size_t size);
void* wgpuBufferGetMappedRange(WGPUBuffer buffer, size_t offset, size_t size);
void wgpuBufferUnmap(WGPUBuffer buffer);
uint64_t wgpuBufferGetSize(WGPUBuffer buffer);
void wgpuBufferDestroy(WGPUBuffer buffer);
void wgpuBufferAddRef(WGPUBuffer buffer);
void wgpuBufferRelease(WGPUBuffer buffer);

// Shader module.
WGPUFuture wgpuShaderModuleGetCompilationInfo(WGPUShaderModule shaderModule,
                                              WGPUCompilationInfoCallbackInfo callbackInfo);
void wgpuShaderModuleAddRef(WGPUShaderModule shaderModule);
void wgpuShaderModuleRelease(WGPUShaderModule shaderModule);

// Pipelines, layouts, bind groups.
WGPUBindGroupLayout wgpuComputePipelineGetBindGroupLayout(WGPUComputePipeline computePipeline,
                                                          uint32_t groupIndex);
void wgpuComputePipelineAddRef(WGPUComputePipeline computePipeline);
void wgpuComputePipelineRelease(WGPUComputePipeline computePipeline);
void wgpuBindGroupAddRef(WGPUBindGroup bindGroup);
void wgpuBindGroupRelease(WGPUBindGroup bindGroup);
void wgpuBindGroupLayoutAddRef(WGPUBindGroupLayout bindGroupLayout);
void wgpuBindGroupLayoutRelease(WGPUBindGroupLayout bindGroupLayout);
void wgpuPipelineLayoutAddRef(WGPUPipelineLayout pipelineLayout);
void wgpuPipelineLayoutRelease(WGPUPipelineLayout pipelineLayout);

// Command encoder and command buffer.
WGPUComputePassEncoder wgpuCommandEncoderBeginComputePass(
    WGPUCommandEncoder commandEncoder, const WGPUComputePassDescriptor* descriptor);
void wgpuCommandEncoderCopyBufferToBuffer(WGPUCommandEncoder commandEncoder, WGPUBuffer source,
                                          uint64_t sourceOffset, WGPUBuffer destination,
                                          uint64_t destinationOffset, uint64_t size);
/// Writes `queryCount` 64-bit results to `destination` at a 256-byte aligned offset.
void wgpuCommandEncoderResolveQuerySet(WGPUCommandEncoder commandEncoder, WGPUQuerySet querySet,
                                       uint32_t firstQuery, uint32_t queryCount,
                                       WGPUBuffer destination, uint64_t destinationOffset);
/// Dawn extension (not in standard WebGPU); validation errors go to the error scope.
void wgpuCommandEncoderWriteTimestamp(WGPUCommandEncoder commandEncoder, WGPUQuerySet querySet,
                                      uint32_t queryIndex);
WGPUCommandBuffer wgpuCommandEncoderFinish(WGPUCommandEncoder commandEncoder,
                                           const WGPUCommandBufferDescriptor* descriptor);
void wgpuCommandEncoderAddRef(WGPUCommandEncoder commandEncoder);
void wgpuCommandEncoderRelease(WGPUCommandEncoder commandEncoder);
void wgpuCommandBufferAddRef(WGPUCommandBuffer commandBuffer);
void wgpuCommandBufferRelease(WGPUCommandBuffer commandBuffer);

// Compute pass encoder.
void wgpuComputePassEncoderSetPipeline(WGPUComputePassEncoder computePassEncoder,
                                       WGPUComputePipeline pipeline);
void wgpuComputePassEncoderSetBindGroup(WGPUComputePassEncoder computePassEncoder,
                                        uint32_t groupIndex, WGPUBindGroup group,
                                        size_t dynamicOffsetCount, const uint32_t* dynamicOffsets);
void wgpuComputePassEncoderDispatchWorkgroups(WGPUComputePassEncoder computePassEncoder,
                                              uint32_t workgroupCountX, uint32_t workgroupCountY,
                                              uint32_t workgroupCountZ);
/// Needs chromium-experimental-timestamp-query-inside-passes.
void wgpuComputePassEncoderWriteTimestamp(WGPUComputePassEncoder computePassEncoder,
                                          WGPUQuerySet querySet, uint32_t queryIndex);
void wgpuComputePassEncoderEnd(WGPUComputePassEncoder computePassEncoder);
void wgpuComputePassEncoderAddRef(WGPUComputePassEncoder computePassEncoder);
void wgpuComputePassEncoderRelease(WGPUComputePassEncoder computePassEncoder);

// Query set.
void wgpuQuerySetDestroy(WGPUQuerySet querySet);
void wgpuQuerySetAddRef(WGPUQuerySet querySet);
void wgpuQuerySetRelease(WGPUQuerySet querySet);

// Texture, texture view, sampler.
WGPUTextureView wgpuTextureCreateView(WGPUTexture texture,
                                      const WGPUTextureViewDescriptor* descriptor);
void wgpuTextureDestroy(WGPUTexture texture);
void wgpuTextureAddRef(WGPUTexture texture);
void wgpuTextureRelease(WGPUTexture texture);
void wgpuTextureViewAddRef(WGPUTextureView textureView);
void wgpuTextureViewRelease(WGPUTextureView textureView);
void wgpuSamplerAddRef(WGPUSampler sampler);
void wgpuSamplerRelease(WGPUSampler sampler);

}  // extern "C"
