// Handle<> traits for every WebGPU object refract uses. Internal to src/gpu/.
#pragma once

#include "gpu/handle.h"
#include "gpu/webgpu_api.h"

namespace refract::gpu {

#define REFRACT_WEBGPU_HANDLE(Name)                                     \
  struct Name##Traits {                                                 \
    using Object = WGPU##Name;                                          \
    static void AddRef(Object object) { wgpu##Name##AddRef(object); }   \
    static void Release(Object object) { wgpu##Name##Release(object); } \
  };                                                                    \
  using Name##Handle = Handle<Name##Traits>

REFRACT_WEBGPU_HANDLE(Instance);
REFRACT_WEBGPU_HANDLE(Adapter);
REFRACT_WEBGPU_HANDLE(Device);
REFRACT_WEBGPU_HANDLE(Queue);
REFRACT_WEBGPU_HANDLE(Buffer);
REFRACT_WEBGPU_HANDLE(ShaderModule);
REFRACT_WEBGPU_HANDLE(ComputePipeline);
REFRACT_WEBGPU_HANDLE(BindGroup);
REFRACT_WEBGPU_HANDLE(BindGroupLayout);
REFRACT_WEBGPU_HANDLE(CommandEncoder);
REFRACT_WEBGPU_HANDLE(CommandBuffer);
REFRACT_WEBGPU_HANDLE(ComputePassEncoder);
REFRACT_WEBGPU_HANDLE(QuerySet);
REFRACT_WEBGPU_HANDLE(Texture);
REFRACT_WEBGPU_HANDLE(TextureView);
REFRACT_WEBGPU_HANDLE(Sampler);

#undef REFRACT_WEBGPU_HANDLE

}  // namespace refract::gpu
