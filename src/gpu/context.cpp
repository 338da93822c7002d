#include "gpu/context.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "base/error.h"
#include "gpu/webgpu_api.h"
#include "gpu/webgpu_handles.h"
#include "gpu/webgpu_names.h"

namespace refract::gpu {

struct Buffer::Impl {
  BufferHandle buffer;
  uint64_t size = 0;
};
struct ComputePipeline::Impl {
  ComputePipelineHandle pipeline;
  std::string label;
};
struct BindGroup::Impl {
  BindGroupHandle bind_group;
};
struct Texture::Impl {
  TextureHandle texture;
  TextureViewHandle view;
};
struct Sampler::Impl {
  SamplerHandle sampler;
};

uint64_t Buffer::size() const { return impl_ ? impl_->size : 0; }

namespace {

WGPUStringView View(std::string_view text) { return WGPUStringView{text.data(), text.size()}; }

std::string ToString(WGPUStringView view) {
  if (view.data == nullptr) return {};
  if (view.length == WGPU_STRLEN) return std::string(view.data);
  return std::string(view.data, view.length);
}

using Clock = std::chrono::steady_clock;

double NanosecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

struct FeatureEntry {
  Feature feature;
  WGPUFeatureName name;
};
// The optional features refract enables whenever the adapter has them.
constexpr FeatureEntry kWantedFeatures[] = {
    {Feature::kTimestampQuery, WGPUFeatureName_TimestampQuery},
    {Feature::kShaderF16, WGPUFeatureName_ShaderF16},
    {Feature::kSubgroups, WGPUFeatureName_Subgroups},
    {Feature::kTimestampQueryInsidePasses,
     WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses},
    {Feature::kSubgroupMatrix, WGPUFeatureName_ChromiumExperimentalSubgroupMatrix},
    {Feature::kFloat32Filterable, WGPUFeatureName_Float32Filterable},
};

WGPUFeatureName ToWgpu(Feature feature) {
  for (const FeatureEntry& entry : kWantedFeatures) {
    if (entry.feature == feature) return entry.name;
  }
  throw Error("unknown feature");
}

}  // namespace

std::string_view FeatureName(Feature feature) {
  const char* name = FeatureNameString(ToWgpu(feature));
  return name ? name : "unknown";
}

/// Everything the context owns. Callbacks write `failure_` under `mutex_`; foreground calls
/// raise it.
struct Context::State {
  ContextOptions options;
  InstanceHandle instance;
  AdapterHandle adapter;
  DeviceHandle device;
  QueueHandle queue;
  DeviceDescription description;
  DeviceLimits limits;
  std::vector<Feature> features;
  std::vector<std::string> wgsl_language_features;

  // Timestamp resources: one query set per device, resolved then copied to a mappable buffer.
  QuerySetHandle query_set;
  BufferHandle resolve_buffer;
  BufferHandle readback_buffer;

  std::mutex mutex;
  std::string failure;  // first uncaptured error or device loss, raised by ThrowIfFailed
  bool device_lost = false;
  bool shutting_down = false;

  uint64_t TimeoutNs() const { return static_cast<uint64_t>(options.wait_timeout_s * 1e9); }

  /// Blocks until `future` completes; throws on timeout or a recorded failure.
  void Wait(WGPUFuture future, std::string_view what) {
    WGPUFutureWaitInfo info{future, 0};
    WGPUWaitStatus status = wgpuInstanceWaitAny(instance.get(), 1, &info, TimeoutNs());
    if (status == WGPUWaitStatus_TimedOut) {
      throw GpuError(std::string(what) + ": no answer from the GPU within " +
                     std::to_string(options.wait_timeout_s) + " s");
    }
    if (status != WGPUWaitStatus_Success) {
      throw GpuError(std::string(what) + ": waiting failed (status " +
                     std::to_string(static_cast<int>(status)) + ")");
    }
    ThrowIfFailed();
  }

  void ThrowIfFailed() {
    std::lock_guard lock(mutex);
    if (failure.empty()) return;
    std::string message = failure;
    if (device_lost) throw DeviceLostError(message);
    failure.clear();
    throw GpuError(message);
  }

  void RecordFailure(std::string message, bool lost) {
    std::lock_guard lock(mutex);
    if (shutting_down) return;
    if (lost) {
      device_lost = true;
      failure = std::move(message);
    } else if (failure.empty()) {
      failure = std::move(message);
    }
  }

  /// Runs `body` inside validation and out-of-memory error scopes; throws GpuError carrying
  /// Dawn's message, prefixed by `what`, when either scope caught an error.
  /// Pops the two error scopes Scoped pushed; returns the first error message, or "".
  std::string PopScopes(std::string_view what) {
    std::string message;
    for (int scope = 0; scope < 2; ++scope) {
      std::string caught;
      WGPUPopErrorScopeCallbackInfo info{};
      info.mode = WGPUCallbackMode_WaitAnyOnly;
      info.callback = [](WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView text,
                         void* userdata1, void*) {
        auto* out = static_cast<std::string*>(userdata1);
        if (status != WGPUPopErrorScopeStatus_Success) {
          *out = "the error scope could not be read";
        } else if (type != WGPUErrorType_NoError) {
          *out = ToString(text);
          if (out->empty()) *out = "unspecified WebGPU error";
        }
      };
      info.userdata1 = &caught;
      Wait(wgpuDevicePopErrorScope(device.get(), info), what);
      if (message.empty()) message = caught;
    }
    return message;
  }

  /// Runs `body` inside validation and out-of-memory error scopes; throws GpuError carrying
  /// Dawn's message, prefixed by `what`, when either scope caught an error.
  template <typename Body>
  auto Scoped(std::string_view what, Body&& body) {
    ThrowIfFailed();
    wgpuDevicePushErrorScope(device.get(), WGPUErrorFilter_OutOfMemory);
    wgpuDevicePushErrorScope(device.get(), WGPUErrorFilter_Validation);
    struct PopOnThrow {
      State* state;
      std::string_view what;
      bool armed = true;
      ~PopOnThrow() {
        if (!armed) return;
        try {
          state->PopScopes(what);
        } catch (...) {  // the body's own exception is the one to report
        }
      }
    } guard{this, what};
    auto raise_if_caught = [&] {
      guard.armed = false;
      std::string message = PopScopes(what);
      if (!message.empty()) throw GpuError(std::string(what) + ": " + message);
    };
    if constexpr (std::is_void_v<decltype(body())>) {
      body();
      raise_if_caught();
    } else {
      auto result = body();
      raise_if_caught();
      return result;
    }
  }

  BufferHandle MakeBuffer(uint64_t size, WGPUBufferUsage usage, std::string_view label) {
    WGPUBufferDescriptor descriptor{};
    descriptor.label = View(label);
    descriptor.usage = usage;
    descriptor.size = size;
    return BufferHandle::Adopt(wgpuDeviceCreateBuffer(device.get(), &descriptor));
  }

  void SubmitAndWait(WGPUCommandBuffer commands, std::string_view what) {
    wgpuQueueSubmit(queue.get(), 1, &commands);
    WaitForQueue(what);
  }

  void WaitForQueue(std::string_view what) {
    WGPUQueueWorkDoneCallbackInfo info{};
    info.mode = WGPUCallbackMode_WaitAnyOnly;
    info.callback = [](WGPUQueueWorkDoneStatus, void*, void*) {};
    Wait(wgpuQueueOnSubmittedWorkDone(queue.get(), info), what);
  }

  /// Maps a MapRead buffer, copies `size` bytes out, unmaps.
  void ReadMapped(WGPUBuffer buffer, uint64_t size, void* out, std::string_view what) {
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
};

namespace {

void CheckBackend(const WGPUAdapterInfo& info) {
  if (info.backendType == WGPUBackendType_Null) {
    throw EnvironmentError(
        "Dawn offered only its Null backend, which executes nothing; refract needs a Vulkan "
        "adapter (install a Vulkan driver: Mesa lavapipe or the GPU vendor's)");
  }
  if (info.backendType != WGPUBackendType_Vulkan) {
    const char* name = BackendTypeString(info.backendType);
    throw EnvironmentError(std::string("Dawn offered a ") + (name ? name : "unknown") +
                           " adapter; refract measures on Vulkan only");
  }
}

std::vector<std::string> FeatureNames(const WGPUSupportedFeatures& supported) {
  std::vector<std::string> names;
  for (size_t i = 0; i < supported.featureCount; ++i) {
    const char* name = FeatureNameString(supported.features[i]);
    names.push_back(name ? name : "unknown-0x" + [&] {
      char hex[16];
      std::snprintf(hex, sizeof(hex), "%x", static_cast<unsigned>(supported.features[i]));
      return std::string(hex);
    }());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::map<std::string, uint64_t> LimitsMap(const WGPULimits& limits) {
  std::map<std::string, uint64_t> map;
  for (const auto& [name, value] : LimitsAsList(limits)) map[name] = value;
  return map;
}

}  // namespace

Context::Context(const ContextOptions& options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = options;

  // Instance: timed WaitAny, and allow_unsafe_apis for the experimental features.
  const char* instance_toggles[] = {"allow_unsafe_apis"};
  WGPUDawnTogglesDescriptor instance_toggle_descriptor{};
  instance_toggle_descriptor.chain.sType = WGPUSType_DawnTogglesDescriptor;
  instance_toggle_descriptor.enabledToggleCount = 1;
  instance_toggle_descriptor.enabledToggles = instance_toggles;
  WGPUInstanceDescriptor instance_descriptor{};
  instance_descriptor.nextInChain = &instance_toggle_descriptor.chain;
  instance_descriptor.capabilities.timedWaitAnyEnable = 1;
  instance_descriptor.capabilities.timedWaitAnyMaxCount = 1;
  s.instance = InstanceHandle::Adopt(wgpuCreateInstance(&instance_descriptor));
  if (!s.instance) throw EnvironmentError("Dawn could not create a WebGPU instance");

  // Adapter: Vulkan only (Dawn's default would be its Null backend).
  WGPURequestAdapterOptions adapter_options{};
  adapter_options.featureLevel = WGPUFeatureLevel_Core;
  adapter_options.powerPreference = options.power_preference == PowerPreference::kLowPower
                                        ? WGPUPowerPreference_LowPower
                                        : WGPUPowerPreference_HighPerformance;
  adapter_options.backendType =
      options.request_null_backend ? WGPUBackendType_Null : WGPUBackendType_Vulkan;
  struct AdapterResult {
    WGPURequestAdapterStatus status = WGPURequestAdapterStatus_Error;
    WGPUAdapter adapter = nullptr;
    std::string message;
  } adapter_result;
  WGPURequestAdapterCallbackInfo adapter_callback{};
  adapter_callback.mode = WGPUCallbackMode_WaitAnyOnly;
  adapter_callback.callback = [](WGPURequestAdapterStatus status, WGPUAdapter adapter,
                                 WGPUStringView message, void* userdata1, void*) {
    auto* result = static_cast<AdapterResult*>(userdata1);
    result->status = status;
    result->adapter = adapter;
    result->message = ToString(message);
  };
  adapter_callback.userdata1 = &adapter_result;
  s.Wait(wgpuInstanceRequestAdapter(s.instance.get(), &adapter_options, adapter_callback),
         "requesting a Vulkan adapter");
  s.adapter = AdapterHandle::Adopt(adapter_result.adapter);
  if (adapter_result.status != WGPURequestAdapterStatus_Success || !s.adapter) {
    throw EnvironmentError(
        "no Vulkan adapter: " +
        (adapter_result.message.empty() ? std::string("Dawn found none") : adapter_result.message) +
        " (is a Vulkan driver installed? without a GPU, scripts/setup.sh installs Mesa lavapipe)");
  }

  WGPUAdapterInfo info{};
  wgpuAdapterGetInfo(s.adapter.get(), &info);
  try {
    CheckBackend(info);
  } catch (...) {
    wgpuAdapterInfoFreeMembers(info);
    throw;
  }
  DeviceDescription& d = s.description;
  d.vendor = ToString(info.vendor);
  d.architecture = ToString(info.architecture);
  d.device = ToString(info.device);
  d.description = ToString(info.description);
  d.backend = BackendTypeString(info.backendType);
  d.adapter_type =
      AdapterTypeString(info.adapterType) ? AdapterTypeString(info.adapterType) : "unknown";
  d.vendor_id = info.vendorID;
  d.device_id = info.deviceID;
  d.subgroup_min_size = info.subgroupMinSize;
  d.subgroup_max_size = info.subgroupMaxSize;
  d.dawn_package = REFRACT_DAWN_PACKAGE;
  wgpuAdapterInfoFreeMembers(info);

  WGPUSupportedFeatures adapter_features{};
  wgpuAdapterGetFeatures(s.adapter.get(), &adapter_features);
  d.adapter_features = FeatureNames(adapter_features);
  wgpuSupportedFeaturesFreeMembers(adapter_features);

  std::vector<WGPUFeatureName> required;
  for (const FeatureEntry& entry : kWantedFeatures) {
    if (wgpuAdapterHasFeature(s.adapter.get(), entry.name)) required.push_back(entry.name);
  }

  if (wgpuAdapterHasFeature(s.adapter.get(), WGPUFeatureName_ChromiumExperimentalSubgroupMatrix)) {
    WGPUAdapterPropertiesSubgroupMatrixConfigs configs{};
    configs.chain.sType = WGPUSType_AdapterPropertiesSubgroupMatrixConfigs;
    WGPUAdapterInfo info_with_configs{};
    info_with_configs.nextInChain = &configs.chain;
    if (wgpuAdapterGetInfo(s.adapter.get(), &info_with_configs) == WGPUStatus_Success) {
      for (size_t i = 0; i < configs.configCount; ++i) {
        const WGPUSubgroupMatrixConfig& c = configs.configs[i];
        const char* component = SubgroupMatrixComponentTypeString(c.componentType);
        const char* result = SubgroupMatrixComponentTypeString(c.resultComponentType);
        d.subgroup_matrix_configs.push_back(
            {component ? component : "unknown", result ? result : "unknown", c.M, c.N, c.K});
      }
      wgpuAdapterPropertiesSubgroupMatrixConfigsFreeMembers(configs);
      wgpuAdapterInfoFreeMembers(info_with_configs);
    }
  }

  WGPULimits adapter_limits{};
  wgpuAdapterGetLimits(s.adapter.get(), &adapter_limits);
  d.adapter_limits = LimitsMap(adapter_limits);

  // Device: every wanted feature present, the adapter's limits unless WebGPU defaults are asked
  // for, timestamp_quantization off (else timestamps round to 65,536 ns steps).
  std::vector<std::string> enabled_toggles = options.extra_enabled_toggles;
  std::vector<std::string> disabled_toggles = {"timestamp_quantization"};
  disabled_toggles.insert(disabled_toggles.end(), options.extra_disabled_toggles.begin(),
                          options.extra_disabled_toggles.end());
  std::vector<const char*> enabled_pointers, disabled_pointers;
  for (const std::string& t : enabled_toggles) enabled_pointers.push_back(t.c_str());
  for (const std::string& t : disabled_toggles) disabled_pointers.push_back(t.c_str());
  WGPUDawnTogglesDescriptor device_toggles{};
  device_toggles.chain.sType = WGPUSType_DawnTogglesDescriptor;
  device_toggles.enabledToggleCount = enabled_pointers.size();
  device_toggles.enabledToggles = enabled_pointers.data();
  device_toggles.disabledToggleCount = disabled_pointers.size();
  device_toggles.disabledToggles = disabled_pointers.data();
  d.enabled_toggles = {"allow_unsafe_apis"};
  d.enabled_toggles.insert(d.enabled_toggles.end(), enabled_toggles.begin(), enabled_toggles.end());
  d.disabled_toggles = disabled_toggles;

  WGPULimits required_limits = adapter_limits;
  required_limits.nextInChain = nullptr;
  WGPUDeviceDescriptor device_descriptor{};
  device_descriptor.nextInChain = &device_toggles.chain;
  device_descriptor.label = View("refract");
  device_descriptor.requiredFeatureCount = required.size();
  device_descriptor.requiredFeatures = required.data();
  device_descriptor.requiredLimits = options.default_limits ? nullptr : &required_limits;
  device_descriptor.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  device_descriptor.deviceLostCallbackInfo.callback =
      [](const WGPUDevice*, WGPUDeviceLostReason reason, WGPUStringView message, void* userdata1,
         void*) {
        if (reason == WGPUDeviceLostReason_Destroyed) return;
        static_cast<State*>(userdata1)->RecordFailure(
            "the GPU device was lost: " + ToString(message), /*lost=*/true);
      };
  device_descriptor.deviceLostCallbackInfo.userdata1 = &s;
  device_descriptor.uncapturedErrorCallbackInfo.callback =
      [](const WGPUDevice*, WGPUErrorType, WGPUStringView message, void* userdata1, void*) {
        static_cast<State*>(userdata1)->RecordFailure(
            "uncaptured WebGPU error: " + ToString(message), /*lost=*/false);
      };
  device_descriptor.uncapturedErrorCallbackInfo.userdata1 = &s;

  struct DeviceResult {
    WGPURequestDeviceStatus status = WGPURequestDeviceStatus_Error;
    WGPUDevice device = nullptr;
    std::string message;
  } device_result;
  WGPURequestDeviceCallbackInfo device_callback{};
  device_callback.mode = WGPUCallbackMode_WaitAnyOnly;
  device_callback.callback = [](WGPURequestDeviceStatus status, WGPUDevice device,
                                WGPUStringView message, void* userdata1, void*) {
    auto* result = static_cast<DeviceResult*>(userdata1);
    result->status = status;
    result->device = device;
    result->message = ToString(message);
  };
  device_callback.userdata1 = &device_result;
  s.Wait(wgpuAdapterRequestDevice(s.adapter.get(), &device_descriptor, device_callback),
         "creating the device");
  s.device = DeviceHandle::Adopt(device_result.device);
  if (device_result.status != WGPURequestDeviceStatus_Success || !s.device) {
    throw EnvironmentError("Dawn could not create a device on " + d.device + ": " +
                           device_result.message);
  }
  s.queue = QueueHandle::Adopt(wgpuDeviceGetQueue(s.device.get()));

  WGPULimits device_limits{};
  wgpuDeviceGetLimits(s.device.get(), &device_limits);
  d.device_limits = LimitsMap(device_limits);
  DeviceLimits& l = s.limits;
  l.max_buffer_size = device_limits.maxBufferSize;
  l.max_storage_buffer_binding_size = device_limits.maxStorageBufferBindingSize;
  l.max_uniform_buffer_binding_size = device_limits.maxUniformBufferBindingSize;
  l.max_compute_workgroup_storage_size = device_limits.maxComputeWorkgroupStorageSize;
  l.max_compute_invocations_per_workgroup = device_limits.maxComputeInvocationsPerWorkgroup;
  l.max_compute_workgroup_size_x = device_limits.maxComputeWorkgroupSizeX;
  l.max_compute_workgroup_size_y = device_limits.maxComputeWorkgroupSizeY;
  l.max_compute_workgroup_size_z = device_limits.maxComputeWorkgroupSizeZ;
  l.max_compute_workgroups_per_dimension = device_limits.maxComputeWorkgroupsPerDimension;
  l.max_storage_buffers_per_shader_stage = device_limits.maxStorageBuffersPerShaderStage;

  for (const FeatureEntry& entry : kWantedFeatures) {
    if (wgpuDeviceHasFeature(s.device.get(), entry.name)) {
      s.features.push_back(entry.feature);
      d.device_features.push_back(FeatureNameString(entry.name));
    }
  }
  std::sort(d.device_features.begin(), d.device_features.end());

  WGPUSupportedWGSLLanguageFeatures language_features{};
  wgpuInstanceGetWGSLLanguageFeatures(s.instance.get(), &language_features);
  for (size_t i = 0; i < language_features.featureCount; ++i) {
    if (const char* name = WgslLanguageFeatureString(language_features.features[i])) {
      s.wgsl_language_features.push_back(name);
    }
  }
  wgpuSupportedWGSLLanguageFeaturesFreeMembers(language_features);
  std::sort(s.wgsl_language_features.begin(), s.wgsl_language_features.end());
  d.wgsl_language_features = s.wgsl_language_features;

  if (HasFeature(Feature::kTimestampQuery)) {
    WGPUQuerySetDescriptor query_descriptor{};
    query_descriptor.label = View("refract pass timestamps");
    query_descriptor.type = WGPUQueryType_Timestamp;
    query_descriptor.count = 2;
    s.query_set =
        QuerySetHandle::Adopt(wgpuDeviceCreateQuerySet(s.device.get(), &query_descriptor));
    s.resolve_buffer = s.MakeBuffer(16, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                                    "refract timestamp resolve");
    s.readback_buffer = s.MakeBuffer(16, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                                     "refract timestamp read-back");
  }
  s.ThrowIfFailed();
}

Context::~Context() {
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    s.shutting_down = true;
  }
  s.query_set.Reset();
  s.resolve_buffer.Reset();
  s.readback_buffer.Reset();
  s.queue.Reset();
  if (s.device) wgpuDeviceDestroy(s.device.get());
  s.device.Reset();
  if (s.instance) wgpuInstanceProcessEvents(s.instance.get());
  s.adapter.Reset();
  s.instance.Reset();
}

const DeviceDescription& Context::description() const { return state_->description; }
const DeviceLimits& Context::limits() const { return state_->limits; }

bool Context::HasFeature(Feature feature) const {
  return std::find(state_->features.begin(), state_->features.end(), feature) !=
         state_->features.end();
}

bool Context::HasWgslLanguageFeature(std::string_view name) const {
  const auto& names = state_->wgsl_language_features;
  return std::find(names.begin(), names.end(), name) != names.end();
}

void Context::ThrowIfFailed() { state_->ThrowIfFailed(); }

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

PassTiming Context::RunPass(std::span<const Dispatch> dispatches, uint32_t repetitions,
                            bool timestamps) {
  State& s = *state_;
  REFRACT_THROW_IF(dispatches.empty() || repetitions == 0, GpuError, "a pass needs work");
  for (const Dispatch& dispatch : dispatches) {
    REFRACT_THROW_IF(!dispatch.pipeline, GpuError, "a dispatch has no pipeline");
    for (const BindGroup& group : dispatch.bind_groups) {
      REFRACT_THROW_IF(!group, GpuError, "a dispatch has an empty bind group");
    }
  }
  bool timed = timestamps && s.query_set;
  PassTiming timing;
  s.Scoped("running a compute pass", [&] {
    CommandEncoderHandle encoder =
        CommandEncoderHandle::Adopt(wgpuDeviceCreateCommandEncoder(s.device.get(), nullptr));
    WGPUPassTimestampWrites writes{};
    WGPUComputePassDescriptor pass_descriptor{};
    if (timed) {
      writes.querySet = s.query_set.get();
      writes.beginningOfPassWriteIndex = 0;
      writes.endOfPassWriteIndex = 1;
      pass_descriptor.timestampWrites = &writes;
    }
    ComputePassEncoderHandle pass = ComputePassEncoderHandle::Adopt(
        wgpuCommandEncoderBeginComputePass(encoder.get(), &pass_descriptor));
    const ComputePipeline::Impl* bound_pipeline = nullptr;
    std::vector<const BindGroup::Impl*> bound_groups;
    for (uint32_t repetition = 0; repetition < repetitions; ++repetition) {
      for (const Dispatch& dispatch : dispatches) {
        if (dispatch.pipeline.impl_.get() != bound_pipeline) {
          bound_pipeline = dispatch.pipeline.impl_.get();
          wgpuComputePassEncoderSetPipeline(pass.get(), bound_pipeline->pipeline.get());
        }
        bound_groups.resize(std::max(bound_groups.size(), dispatch.bind_groups.size()));
        for (uint32_t index = 0; index < dispatch.bind_groups.size(); ++index) {
          const BindGroup::Impl* group = dispatch.bind_groups[index].impl_.get();
          if (bound_groups[index] == group) continue;
          bound_groups[index] = group;
          wgpuComputePassEncoderSetBindGroup(pass.get(), index, group->bind_group.get(), 0,
                                             nullptr);
        }
        wgpuComputePassEncoderDispatchWorkgroups(pass.get(), dispatch.groups_x, dispatch.groups_y,
                                                 dispatch.groups_z);
      }
    }
    wgpuComputePassEncoderEnd(pass.get());
    if (timed) {
      wgpuCommandEncoderResolveQuerySet(encoder.get(), s.query_set.get(), 0, 2,
                                        s.resolve_buffer.get(), 0);
      wgpuCommandEncoderCopyBufferToBuffer(encoder.get(), s.resolve_buffer.get(), 0,
                                           s.readback_buffer.get(), 0, 16);
    }
    CommandBufferHandle commands =
        CommandBufferHandle::Adopt(wgpuCommandEncoderFinish(encoder.get(), nullptr));
    auto start = Clock::now();
    WGPUCommandBuffer raw_commands = commands.get();
    wgpuQueueSubmit(s.queue.get(), 1, &raw_commands);
    s.WaitForQueue("running a compute pass");
    timing.wall_ns = NanosecondsSince(start);
  });
  if (timed) {
    uint64_t stamps[2] = {0, 0};
    s.Scoped("reading pass timestamps", [&] {
      s.ReadMapped(s.readback_buffer.get(), sizeof(stamps), stamps, "reading pass timestamps");
    });
    timing.gpu_ns = stamps[1] >= stamps[0] ? static_cast<double>(stamps[1] - stamps[0]) : 0.0;
  }
  return timing;
}

double Context::EmptySubmitWallNs() {
  State& s = *state_;
  double wall_ns = 0;
  s.Scoped("submitting an empty command buffer", [&] {
    CommandEncoderHandle encoder =
        CommandEncoderHandle::Adopt(wgpuDeviceCreateCommandEncoder(s.device.get(), nullptr));
    CommandBufferHandle commands =
        CommandBufferHandle::Adopt(wgpuCommandEncoderFinish(encoder.get(), nullptr));
    auto start = Clock::now();
    WGPUCommandBuffer raw_commands = commands.get();
    wgpuQueueSubmit(s.queue.get(), 1, &raw_commands);
    s.WaitForQueue("submitting an empty command buffer");
    wall_ns = NanosecondsSince(start);
  });
  return wall_ns;
}

}  // namespace refract::gpu
