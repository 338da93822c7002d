#include "dawn_compute.h"

#include <cstring>
#include <stdexcept>
#include <utility>

namespace example {
namespace {

WGPUStringView View(const std::string& text) { return {text.data(), text.size()}; }

std::string Text(WGPUStringView view) {
  if (view.data == nullptr) return {};
  return view.length == WGPU_STRLEN ? std::string(view.data) : std::string(view.data, view.length);
}

constexpr uint64_t kWaitNs = uint64_t{60} * 1000 * 1000 * 1000;  // a wait longer is a hang

}  // namespace

Buffer::Buffer(Buffer&& other) noexcept
    : buffer_(std::exchange(other.buffer_, nullptr)), size_(other.size_) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  std::swap(buffer_, other.buffer_);
  std::swap(size_, other.size_);
  return *this;
}

Buffer::~Buffer() {
  if (buffer_) wgpuBufferRelease(buffer_);
}

DawnCompute::DawnCompute() {
  WGPUInstanceDescriptor instance_descriptor{};
  instance_descriptor.capabilities.timedWaitAnyEnable = 1;
  instance_descriptor.capabilities.timedWaitAnyMaxCount = 1;
  instance_ = wgpuCreateInstance(&instance_descriptor);
  if (!instance_) throw std::runtime_error("Dawn could not create an instance");

  // Always Vulkan: Dawn's default could be its Null backend, which runs nothing.
  WGPURequestAdapterOptions options{};
  options.featureLevel = WGPUFeatureLevel_Core;
  options.powerPreference = WGPUPowerPreference_HighPerformance;
  options.backendType = WGPUBackendType_Vulkan;
  WGPURequestAdapterCallbackInfo adapter_callback{};
  adapter_callback.mode = WGPUCallbackMode_WaitAnyOnly;
  adapter_callback.callback = [](WGPURequestAdapterStatus status, WGPUAdapter adapter,
                                 WGPUStringView message, void* self, void*) {
    if (status == WGPURequestAdapterStatus_Success) {
      static_cast<DawnCompute*>(self)->adapter_ = adapter;
    } else {
      static_cast<DawnCompute*>(self)->RecordError("no Vulkan adapter: " + Text(message));
    }
  };
  adapter_callback.userdata1 = this;
  Wait(wgpuInstanceRequestAdapter(instance_, &options, adapter_callback), "requesting an adapter");
  if (!adapter_) throw std::runtime_error("Dawn found no Vulkan adapter");

  WGPUAdapterInfo info{};
  wgpuAdapterGetInfo(adapter_, &info);
  info_ = {.vendor = Text(info.vendor),
           .architecture = Text(info.architecture),
           .device = Text(info.device),
           .description = Text(info.description),
           .vendor_id = info.vendorID,
           .device_id = info.deviceID,
           .subgroup_min_size = info.subgroupMinSize,
           .subgroup_max_size = info.subgroupMaxSize};
  wgpuAdapterInfoFreeMembers(info);

  std::vector<WGPUFeatureName> features;
  info_.has_subgroups = wgpuAdapterHasFeature(adapter_, WGPUFeatureName_Subgroups) != 0;
  if (info_.has_subgroups) features.push_back(WGPUFeatureName_Subgroups);
  WGPULimits limits{};  // the adapter's, so that a profile's larger workgroups fit
  wgpuAdapterGetLimits(adapter_, &limits);
  limits.nextInChain = nullptr;
  info_.max_invocations = limits.maxComputeInvocationsPerWorkgroup;
  info_.max_workgroup_bytes = limits.maxComputeWorkgroupStorageSize;
  WGPUDeviceDescriptor descriptor{};
  descriptor.requiredFeatureCount = features.size();
  descriptor.requiredFeatures = features.data();
  descriptor.requiredLimits = &limits;
  descriptor.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  descriptor.deviceLostCallbackInfo.callback = [](const WGPUDevice*, WGPUDeviceLostReason reason,
                                                  WGPUStringView message, void* self, void*) {
    if (reason == WGPUDeviceLostReason_Destroyed) return;
    static_cast<DawnCompute*>(self)->RecordError("the device was lost: " + Text(message));
  };
  descriptor.deviceLostCallbackInfo.userdata1 = this;
  descriptor.uncapturedErrorCallbackInfo.callback = [](const WGPUDevice*, WGPUErrorType,
                                                       WGPUStringView message, void* self, void*) {
    static_cast<DawnCompute*>(self)->RecordError(Text(message));
  };
  descriptor.uncapturedErrorCallbackInfo.userdata1 = this;
  WGPURequestDeviceCallbackInfo device_callback{};
  device_callback.mode = WGPUCallbackMode_WaitAnyOnly;
  device_callback.callback = [](WGPURequestDeviceStatus status, WGPUDevice device,
                                WGPUStringView message, void* self, void*) {
    if (status == WGPURequestDeviceStatus_Success) {
      static_cast<DawnCompute*>(self)->device_ = device;
    } else {
      static_cast<DawnCompute*>(self)->RecordError("no device: " + Text(message));
    }
  };
  device_callback.userdata1 = this;
  Wait(wgpuAdapterRequestDevice(adapter_, &descriptor, device_callback), "creating the device");
  if (!device_) throw std::runtime_error("Dawn could not create a device");
  queue_ = wgpuDeviceGetQueue(device_);
}

DawnCompute::~DawnCompute() {
  for (WGPUComputePipeline pipeline : pipelines_) wgpuComputePipelineRelease(pipeline);
  if (queue_) wgpuQueueRelease(queue_);
  if (device_) {
    wgpuDeviceDestroy(device_);
    wgpuDeviceRelease(device_);
  }
  if (instance_) wgpuInstanceProcessEvents(instance_);
  if (adapter_) wgpuAdapterRelease(adapter_);
  if (instance_) wgpuInstanceRelease(instance_);
}

void DawnCompute::RecordError(std::string message) {
  if (error_.empty()) error_ = message.empty() ? "unspecified WebGPU error" : std::move(message);
}

void DawnCompute::ThrowIfFailed(const char* what) {
  if (error_.empty()) return;
  throw std::runtime_error(std::string(what) + ": " + std::exchange(error_, {}));
}

void DawnCompute::Wait(WGPUFuture future, const char* what) {
  WGPUFutureWaitInfo wait{future, 0};
  const WGPUWaitStatus status = wgpuInstanceWaitAny(instance_, 1, &wait, kWaitNs);
  if (status != WGPUWaitStatus_Success) {
    throw std::runtime_error(std::string(what) + ": the wait failed or took over 60 s");
  }
  ThrowIfFailed(what);
}

Buffer DawnCompute::Storage(const void* bytes, uint64_t size) {
  const uint64_t padded = (size + 3) / 4 * 4;
  WGPUBufferDescriptor descriptor{};
  descriptor.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  descriptor.size = padded;
  Buffer buffer(wgpuDeviceCreateBuffer(device_, &descriptor), padded);
  if (bytes != nullptr) {
    std::vector<uint8_t> data(padded, 0);
    std::memcpy(data.data(), bytes, size);
    wgpuQueueWriteBuffer(queue_, buffer.get(), 0, data.data(), padded);
  }
  ThrowIfFailed("creating a storage buffer");
  return buffer;
}

Buffer DawnCompute::Uniform(const void* bytes, uint64_t size) {
  WGPUBufferDescriptor descriptor{};
  descriptor.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
  descriptor.size = (size + 15) / 16 * 16;
  Buffer buffer(wgpuDeviceCreateBuffer(device_, &descriptor), descriptor.size);
  std::vector<uint8_t> data(descriptor.size, 0);
  std::memcpy(data.data(), bytes, size);
  wgpuQueueWriteBuffer(queue_, buffer.get(), 0, data.data(), data.size());
  ThrowIfFailed("creating a uniform buffer");
  return buffer;
}

WGPUComputePipeline DawnCompute::Compile(const std::string& wgsl,
                                         const std::map<std::string, double>& constants) {
  WGPUShaderSourceWGSL source{};
  source.chain.sType = WGPUSType_ShaderSourceWGSL;
  source.code = View(wgsl);
  WGPUShaderModuleDescriptor module_descriptor{};
  module_descriptor.nextInChain = &source.chain;
  WGPUShaderModule module = wgpuDeviceCreateShaderModule(device_, &module_descriptor);
  std::vector<WGPUConstantEntry> entries;
  for (const auto& [name, value] : constants) {
    WGPUConstantEntry entry{};
    entry.key = View(name);
    entry.value = value;
    entries.push_back(entry);
  }
  const std::string entry_point = "main";
  WGPUComputePipelineDescriptor descriptor{};
  descriptor.compute.module = module;
  descriptor.compute.entryPoint = View(entry_point);
  descriptor.compute.constantCount = entries.size();
  descriptor.compute.constants = entries.data();
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(device_, &descriptor);
  wgpuShaderModuleRelease(module);
  pipelines_.push_back(pipeline);
  ThrowIfFailed("compiling a kernel");
  return pipeline;
}

void DawnCompute::Run(const std::vector<Dispatch>& dispatches) {
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device_, nullptr);
  WGPUComputePassDescriptor pass_descriptor{};
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(encoder, &pass_descriptor);
  std::vector<WGPUBindGroup> groups;
  for (const Dispatch& dispatch : dispatches) {
    std::vector<WGPUBindGroupEntry> entries;
    for (const Buffer* buffer : dispatch.bindings) {
      WGPUBindGroupEntry entry{};
      entry.binding = static_cast<uint32_t>(entries.size());
      entry.buffer = buffer->get();
      entry.size = buffer->size();
      entries.push_back(entry);
    }
    WGPUBindGroupLayout layout = wgpuComputePipelineGetBindGroupLayout(dispatch.pipeline, 0);
    WGPUBindGroupDescriptor group_descriptor{};
    group_descriptor.layout = layout;
    group_descriptor.entryCount = entries.size();
    group_descriptor.entries = entries.data();
    groups.push_back(wgpuDeviceCreateBindGroup(device_, &group_descriptor));
    wgpuBindGroupLayoutRelease(layout);
    wgpuComputePassEncoderSetPipeline(pass, dispatch.pipeline);
    wgpuComputePassEncoderSetBindGroup(pass, 0, groups.back(), 0, nullptr);
    wgpuComputePassEncoderDispatchWorkgroups(pass, dispatch.groups_x, dispatch.groups_y, 1);
  }
  wgpuComputePassEncoderEnd(pass);
  wgpuComputePassEncoderRelease(pass);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
  wgpuCommandEncoderRelease(encoder);
  wgpuQueueSubmit(queue_, 1, &commands);
  wgpuCommandBufferRelease(commands);
  for (WGPUBindGroup group : groups) wgpuBindGroupRelease(group);
  WGPUQueueWorkDoneCallbackInfo done{};
  done.mode = WGPUCallbackMode_WaitAnyOnly;
  done.callback = [](WGPUQueueWorkDoneStatus, void*, void*) {};
  Wait(wgpuQueueOnSubmittedWorkDone(queue_, done), "running the kernels");
}

std::vector<uint8_t> DawnCompute::Read(const Buffer& buffer, uint64_t size) {
  const uint64_t padded = (size + 3) / 4 * 4;
  WGPUBufferDescriptor descriptor{};
  descriptor.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  descriptor.size = padded;
  Buffer staging(wgpuDeviceCreateBuffer(device_, &descriptor), padded);
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device_, nullptr);
  wgpuCommandEncoderCopyBufferToBuffer(encoder, buffer.get(), 0, staging.get(), 0, padded);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
  wgpuCommandEncoderRelease(encoder);
  wgpuQueueSubmit(queue_, 1, &commands);
  wgpuCommandBufferRelease(commands);
  bool mapped = false;
  WGPUBufferMapCallbackInfo map{};
  map.mode = WGPUCallbackMode_WaitAnyOnly;
  map.callback = [](WGPUMapAsyncStatus status, WGPUStringView, void* out, void*) {
    *static_cast<bool*>(out) = status == WGPUMapAsyncStatus_Success;
  };
  map.userdata1 = &mapped;
  Wait(wgpuBufferMapAsync(staging.get(), WGPUMapMode_Read, 0, padded, map), "reading back");
  if (!mapped) throw std::runtime_error("reading back: the buffer could not be mapped");
  const void* data = wgpuBufferGetConstMappedRange(staging.get(), 0, padded);
  if (data == nullptr) throw std::runtime_error("reading back: no mapped range");
  std::vector<uint8_t> out(size);
  std::memcpy(out.data(), data, size);
  wgpuBufferUnmap(staging.get());
  return out;
}

}  // namespace example
