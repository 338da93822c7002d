// The context's resources: buffers (create, write, read back), compute pipelines, bind groups,
// textures and samplers. Every creation runs inside error scopes (Context::State::Scoped).
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "base/error.h"
#include "gpu/context.h"
#include "gpu/context_state.h"

namespace refract::gpu {

uint64_t Buffer::size() const { return impl_ ? impl_->size : 0; }

BufferHandle Context::State::MakeBuffer(uint64_t size, WGPUBufferUsage usage,
                                        std::string_view label) {
  WGPUBufferDescriptor descriptor{};
  descriptor.label = View(label);
  descriptor.usage = usage;
  descriptor.size = size;
  return BufferHandle::Adopt(wgpuDeviceCreateBuffer(device.get(), &descriptor));
}

void Context::State::ReadMapped(WGPUBuffer buffer, uint64_t size, void* out,
                                std::string_view what) {
  WGPUMapAsyncStatus map_status = WGPUMapAsyncStatus_Error;
  std::string message;
  WGPUBufferMapCallbackInfo info{};
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.callback = [](WGPUMapAsyncStatus status, WGPUStringView text, void* userdata1,
                     void* userdata2) {
    *static_cast<WGPUMapAsyncStatus*>(userdata1) = status;
    *static_cast<std::string*>(userdata2) = ToString(text);
  };
  info.userdata1 = &map_status;
  info.userdata2 = &message;
  Wait(wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, static_cast<size_t>(size), info), what);
  if (map_status != WGPUMapAsyncStatus_Success) {
    throw GpuError(std::string(what) + ": mapping the read-back buffer failed: " + message);
  }
  const void* data = wgpuBufferGetConstMappedRange(buffer, 0, static_cast<size_t>(size));
  if (data == nullptr) {
    wgpuBufferUnmap(buffer);
    throw GpuError(std::string(what) + ": the read-back buffer has no mapped range");
  }
  std::memcpy(out, data, static_cast<size_t>(size));
  wgpuBufferUnmap(buffer);
}

Buffer Context::CreateBuffer(uint64_t size, uint32_t usage, std::string_view label) {
  REFRACT_THROW_IF(size == 0, GpuError, "a buffer needs a size > 0");
  WGPUBufferUsage wgpu_usage = WGPUBufferUsage_None;
  if (usage & kUsageMapRead) wgpu_usage |= WGPUBufferUsage_MapRead;
  if (usage & kUsageCopySrc) wgpu_usage |= WGPUBufferUsage_CopySrc;
  if (usage & kUsageCopyDst) wgpu_usage |= WGPUBufferUsage_CopyDst;
  if (usage & kUsageUniform) wgpu_usage |= WGPUBufferUsage_Uniform;
  if (usage & kUsageStorage) wgpu_usage |= WGPUBufferUsage_Storage;
  if (usage & kUsageIndirect) wgpu_usage |= WGPUBufferUsage_Indirect;
  // WebGPU needs sizes in multiples of 4 for copies and writes.
  uint64_t padded = (size + 3) & ~uint64_t{3};
  Buffer buffer;
  buffer.impl_ = std::make_shared<Buffer::Impl>();
  buffer.impl_->size = size;
  buffer.impl_->buffer = state_->Scoped("creating buffer '" + std::string(label) + "'", [&] {
    return state_->MakeBuffer(padded, wgpu_usage, label);
  });
  return buffer;
}

void Context::WriteBuffer(const Buffer& buffer, uint64_t offset, std::span<const std::byte> bytes) {
  REFRACT_THROW_IF(!buffer, GpuError, "writing to an empty buffer handle");
  REFRACT_THROW_IF(offset + bytes.size() > buffer.size(), GpuError,
                   "write of " + std::to_string(bytes.size()) + " bytes at " +
                       std::to_string(offset) + " overruns a buffer of " +
                       std::to_string(buffer.size()));
  if (bytes.empty()) return;
  // The queue writes whole 4-byte words: pad the tail with zeros.
  std::vector<std::byte> padded;
  std::span<const std::byte> data = bytes;
  if (bytes.size() % 4 != 0) {
    padded.assign(bytes.begin(), bytes.end());
    padded.resize((bytes.size() + 3) & ~size_t{3}, std::byte{0});
    data = padded;
  }
  state_->Scoped("writing a buffer", [&] {
    wgpuQueueWriteBuffer(state_->queue.get(), buffer.impl_->buffer.get(), offset, data.data(),
                         data.size());
  });
}

std::vector<std::byte> Context::ReadBuffer(const Buffer& buffer, uint64_t offset, uint64_t size) {
  REFRACT_THROW_IF(!buffer, GpuError, "reading from an empty buffer handle");
  REFRACT_THROW_IF(offset + size > buffer.size(), GpuError, "read overruns the buffer");
  REFRACT_THROW_IF(offset % 4 != 0, GpuError, "read offsets must be multiples of 4");
  std::vector<std::byte> out(size);
  if (size == 0) return out;
  State& s = *state_;
  uint64_t padded = (size + 3) & ~uint64_t{3};
  s.Scoped("reading a buffer back", [&] {
    BufferHandle staging =
        s.MakeBuffer(padded, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "read-back");
    CommandEncoderHandle encoder =
        CommandEncoderHandle::Adopt(wgpuDeviceCreateCommandEncoder(s.device.get(), nullptr));
    wgpuCommandEncoderCopyBufferToBuffer(encoder.get(), buffer.impl_->buffer.get(), offset,
                                         staging.get(), 0, padded);
    CommandBufferHandle commands =
        CommandBufferHandle::Adopt(wgpuCommandEncoderFinish(encoder.get(), nullptr));
    s.SubmitAndWait(commands.get(), "reading a buffer back");
    std::vector<std::byte> whole(padded);
    s.ReadMapped(staging.get(), padded, whole.data(), "reading a buffer back");
    std::memcpy(out.data(), whole.data(), size);
  });
  return out;
}

ComputePipeline Context::CreateComputePipeline(const PipelineSpec& spec) {
  State& s = *state_;
  std::string what = "compiling '" + (spec.label.empty() ? spec.entry_point : spec.label) + "'";
  ComputePipeline pipeline;
  pipeline.impl_ = std::make_shared<ComputePipeline::Impl>();
  pipeline.impl_->label = spec.label;
  pipeline.impl_->pipeline = s.Scoped(what, [&] {
    WGPUShaderSourceWGSL source{};
    source.chain.sType = WGPUSType_ShaderSourceWGSL;
    source.code = View(spec.wgsl);
    WGPUShaderModuleDescriptor module_descriptor{};
    module_descriptor.nextInChain = &source.chain;
    module_descriptor.label = View(spec.label);
    ShaderModuleHandle module =
        ShaderModuleHandle::Adopt(wgpuDeviceCreateShaderModule(s.device.get(), &module_descriptor));

    std::vector<WGPUConstantEntry> constants;
    for (const auto& [name, value] : spec.constants) {
      WGPUConstantEntry entry{};
      entry.key = View(name);
      entry.value = value;
      constants.push_back(entry);
    }
    WGPUComputePipelineDescriptor descriptor{};
    descriptor.label = View(spec.label);
    descriptor.layout = nullptr;  // layout: auto
    descriptor.compute.module = module.get();
    descriptor.compute.entryPoint = View(spec.entry_point);
    descriptor.compute.constantCount = constants.size();
    descriptor.compute.constants = constants.data();
    return ComputePipelineHandle::Adopt(
        wgpuDeviceCreateComputePipeline(s.device.get(), &descriptor));
  });
  return pipeline;
}

BindGroup Context::CreateBindGroup(const ComputePipeline& pipeline, uint32_t group_index,
                                   const std::vector<BindingEntry>& entries) {
  REFRACT_THROW_IF(!pipeline, GpuError, "creating a bind group for an empty pipeline handle");
  State& s = *state_;
  std::string what =
      "binding group " + std::to_string(group_index) + " of '" + pipeline.impl_->label + "'";
  BindGroup group;
  group.impl_ = std::make_shared<BindGroup::Impl>();
  group.impl_->bind_group = s.Scoped(what, [&] {
    BindGroupLayoutHandle layout = BindGroupLayoutHandle::Adopt(
        wgpuComputePipelineGetBindGroupLayout(pipeline.impl_->pipeline.get(), group_index));
    std::vector<WGPUBindGroupEntry> wgpu_entries;
    for (const BindingEntry& entry : entries) {
      WGPUBindGroupEntry e{};
      e.binding = entry.binding;
      if (const auto* b = std::get_if<BufferBinding>(&entry.resource)) {
        REFRACT_THROW_IF(!b->buffer, GpuError, what + ": binding of an empty buffer handle");
        e.buffer = b->buffer.impl_->buffer.get();
        e.offset = b->offset;
        e.size = b->size == 0 ? WGPU_WHOLE_SIZE : b->size;
      } else if (const auto* t = std::get_if<Texture>(&entry.resource)) {
        REFRACT_THROW_IF(!*t, GpuError, what + ": binding of an empty texture handle");
        e.textureView = t->impl_->view.get();
      } else if (const auto* sampler = std::get_if<Sampler>(&entry.resource)) {
        REFRACT_THROW_IF(!*sampler, GpuError, what + ": binding of an empty sampler handle");
        e.sampler = sampler->impl_->sampler.get();
      }
      wgpu_entries.push_back(e);
    }
    WGPUBindGroupDescriptor descriptor{};
    descriptor.layout = layout.get();
    descriptor.entryCount = wgpu_entries.size();
    descriptor.entries = wgpu_entries.data();
    return BindGroupHandle::Adopt(wgpuDeviceCreateBindGroup(s.device.get(), &descriptor));
  });
  return group;
}

Texture Context::CreateTexture2D(uint32_t width, uint32_t height, TextureFormat format,
                                 std::span<const std::byte> texels, std::string_view label) {
  State& s = *state_;
  uint32_t bytes_per_texel = format == TextureFormat::kRgba32Float ? 16 : 4;
  REFRACT_THROW_IF(texels.size() != uint64_t{width} * height * bytes_per_texel, GpuError,
                   "texel data does not match the texture's size");
  Texture texture;
  texture.impl_ = std::make_shared<Texture::Impl>();
  s.Scoped("creating texture '" + std::string(label) + "'", [&] {
    WGPUTextureDescriptor descriptor{};
    descriptor.label = View(label);
    descriptor.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
    descriptor.dimension = WGPUTextureDimension_2D;
    descriptor.size = WGPUExtent3D{width, height, 1};
    descriptor.format = format == TextureFormat::kRgba32Float ? WGPUTextureFormat_RGBA32Float
                                                              : WGPUTextureFormat_RGBA8Unorm;
    descriptor.mipLevelCount = 1;
    descriptor.sampleCount = 1;
    texture.impl_->texture =
        TextureHandle::Adopt(wgpuDeviceCreateTexture(s.device.get(), &descriptor));
    texture.impl_->view =
        TextureViewHandle::Adopt(wgpuTextureCreateView(texture.impl_->texture.get(), nullptr));
    WGPUTexelCopyTextureInfo destination{};
    destination.texture = texture.impl_->texture.get();
    destination.aspect = WGPUTextureAspect_All;
    WGPUTexelCopyBufferLayout layout{};
    layout.bytesPerRow = width * bytes_per_texel;
    layout.rowsPerImage = height;
    WGPUExtent3D extent{width, height, 1};
    wgpuQueueWriteTexture(s.queue.get(), &destination, texels.data(), texels.size(), &layout,
                          &extent);
  });
  return texture;
}

Sampler Context::CreateLinearSampler() {
  State& s = *state_;
  Sampler sampler;
  sampler.impl_ = std::make_shared<Sampler::Impl>();
  sampler.impl_->sampler = s.Scoped("creating a sampler", [&] {
    WGPUSamplerDescriptor descriptor{};
    descriptor.addressModeU = WGPUAddressMode_ClampToEdge;
    descriptor.addressModeV = WGPUAddressMode_ClampToEdge;
    descriptor.addressModeW = WGPUAddressMode_ClampToEdge;
    descriptor.magFilter = WGPUFilterMode_Linear;
    descriptor.minFilter = WGPUFilterMode_Linear;
    descriptor.mipmapFilter = WGPUMipmapFilterMode_Nearest;
    descriptor.lodMinClamp = 0.0f;
    descriptor.lodMaxClamp = 32.0f;
    descriptor.maxAnisotropy = 1;
    return SamplerHandle::Adopt(wgpuDeviceCreateSampler(s.device.get(), &descriptor));
  });
  return sampler;
}

}  // namespace refract::gpu
