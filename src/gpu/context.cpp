// The context's bring-up and error handling: instance, Vulkan adapter, device with its
// callbacks, error scopes and waits, teardown.
#include "gpu/context.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "gpu/context_description.h"
#include "gpu/context_state.h"

namespace refract::gpu {

namespace {

std::atomic<bool> any_context_hung{false};

// Waiting forever is done in slices of this length, so that no deadline overflows [ns].
constexpr uint64_t kForeverSliceNs = uint64_t{3600} * 1000 * 1000 * 1000;

// "3", "0.5", "120": the deadline as the user wrote it.
std::string SecondsText(double seconds) {
  std::ostringstream text;
  text << std::setprecision(6) << seconds;
  return text.str();
}

}  // namespace

uint64_t Context::State::TimeoutNs() const {
  if (options.wait_timeout_s <= 0) return kForeverSliceNs;
  return static_cast<uint64_t>(options.wait_timeout_s * 1e9);
}

void Context::State::Wait(WGPUFuture future, std::string_view what) {
  WGPUFutureWaitInfo info{future, 0};
  WGPUWaitStatus status = WGPUWaitStatus_TimedOut;
  do {
    status = wgpuInstanceWaitAny(instance.get(), 1, &info, TimeoutNs());
  } while (status == WGPUWaitStatus_TimedOut && options.wait_timeout_s <= 0);
  if (status == WGPUWaitStatus_TimedOut) {
    hung = true;
    any_context_hung.store(true);
    throw DeviceHungError(std::string(what) + ": did not finish within " +
                          SecondsText(options.wait_timeout_s) + " s: the kernel may not terminate");
  }
  if (status != WGPUWaitStatus_Success) {
    throw GpuError(std::string(what) + ": waiting failed (status " +
                   std::to_string(static_cast<int>(status)) + ")");
  }
  ThrowIfFailed();
}

void Context::State::ThrowIfFailed() {
  if (hung) throw DeviceHungError(kNotRunAfterHang);
  std::lock_guard lock(mutex);
  if (failure.empty()) return;
  std::string message = failure;
  if (device_lost) throw DeviceLostError(message);
  failure.clear();
  throw GpuError(message);
}

void Context::State::RecordFailure(std::string message, bool lost) {
  std::lock_guard lock(mutex);
  if (shutting_down) return;
  if (lost) {
    device_lost = true;
    failure = std::move(message);
  } else if (failure.empty()) {
    failure = std::move(message);
  }
}

std::string Context::State::PopScopes(std::string_view what) {
  std::string message;
  if (hung) return message;
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

void Context::State::SubmitAndWait(WGPUCommandBuffer commands, std::string_view what) {
  wgpuQueueSubmit(queue.get(), 1, &commands);
  WaitForQueue(what);
}

void Context::State::WaitForQueue(std::string_view what) {
  WGPUQueueWorkDoneCallbackInfo info{};
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.callback = [](WGPUQueueWorkDoneStatus, void*, void*) {};
  Wait(wgpuQueueOnSubmittedWorkDone(queue.get(), info), what);
}

namespace {

/// What a Dawn request (of an adapter or a device) answered: its status, the object (null on
/// failure) and Dawn's message. Record is the request's callback, with the result as userdata1.
template <typename Status, typename Object>
struct RequestResult {
  Status status;
  Object object = nullptr;
  std::string message;

  static void Record(Status status, Object object, WGPUStringView message, void* userdata1, void*) {
    auto* out = static_cast<RequestResult*>(userdata1);
    out->status = status;
    out->object = object;
    out->message = ToString(message);
  }
};

void CreateInstance(Context::State& s) {
  // Timed WaitAny, and allow_unsafe_apis for the experimental features.
  const char* instance_toggles[] = {"allow_unsafe_apis"};
  WGPUDawnTogglesDescriptor toggles{};
  toggles.chain.sType = WGPUSType_DawnTogglesDescriptor;
  toggles.enabledToggleCount = 1;
  toggles.enabledToggles = instance_toggles;
  WGPUInstanceDescriptor descriptor{};
  descriptor.nextInChain = &toggles.chain;
  descriptor.capabilities.timedWaitAnyEnable = 1;
  descriptor.capabilities.timedWaitAnyMaxCount = 1;
  s.instance = InstanceHandle::Adopt(wgpuCreateInstance(&descriptor));
  if (!s.instance) throw EnvironmentError("Dawn could not create a WebGPU instance");
}

void RequestAdapter(Context::State& s) {
  // Vulkan only (Dawn's default would be its Null backend).
  WGPURequestAdapterOptions adapter_options{};
  adapter_options.featureLevel = WGPUFeatureLevel_Core;
  adapter_options.powerPreference = s.options.power_preference == PowerPreference::kLowPower
                                        ? WGPUPowerPreference_LowPower
                                        : WGPUPowerPreference_HighPerformance;
  adapter_options.forceFallbackAdapter = s.options.force_fallback_adapter ? 1 : 0;
  adapter_options.backendType =
      s.options.request_null_backend ? WGPUBackendType_Null : WGPUBackendType_Vulkan;
  RequestResult<WGPURequestAdapterStatus, WGPUAdapter> result{WGPURequestAdapterStatus_Error};
  WGPURequestAdapterCallbackInfo callback{};
  callback.mode = WGPUCallbackMode_WaitAnyOnly;
  callback.callback = decltype(result)::Record;
  callback.userdata1 = &result;
  s.Wait(wgpuInstanceRequestAdapter(s.instance.get(), &adapter_options, callback),
         "requesting a Vulkan adapter");
  s.adapter = AdapterHandle::Adopt(result.object);
  if (result.status != WGPURequestAdapterStatus_Success || !s.adapter) {
    throw EnvironmentError(
        "no Vulkan adapter: " +
        (result.message.empty() ? std::string("Dawn found none") : result.message) +
        " (is a Vulkan driver installed? without a GPU, scripts/setup.sh installs Mesa lavapipe)");
  }
}

// Every wanted feature present, the adapter's limits unless WebGPU defaults are asked for,
// timestamp_quantization off (else timestamps round to 65,536 ns steps).
void RequestDevice(Context::State& s, const WGPULimits& adapter_limits) {
  const ContextOptions& options = s.options;
  DeviceDescription& d = s.description;
  std::vector<WGPUFeatureName> required = WantedFeaturesOf(s.adapter.get());
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
  WGPUDeviceDescriptor descriptor{};
  descriptor.nextInChain = &device_toggles.chain;
  descriptor.label = View("refract");
  descriptor.requiredFeatureCount = required.size();
  descriptor.requiredFeatures = required.data();
  descriptor.requiredLimits = options.default_limits ? nullptr : &required_limits;
  descriptor.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  descriptor.deviceLostCallbackInfo.callback = [](const WGPUDevice*, WGPUDeviceLostReason reason,
                                                  WGPUStringView message, void* userdata1, void*) {
    if (reason == WGPUDeviceLostReason_Destroyed) return;
    static_cast<Context::State*>(userdata1)->RecordFailure(
        "the GPU device was lost: " + ToString(message), /*lost=*/true);
  };
  descriptor.deviceLostCallbackInfo.userdata1 = &s;
  descriptor.uncapturedErrorCallbackInfo.callback =
      [](const WGPUDevice*, WGPUErrorType, WGPUStringView message, void* userdata1, void*) {
        static_cast<Context::State*>(userdata1)->RecordFailure(
            "uncaptured WebGPU error: " + ToString(message), /*lost=*/false);
      };
  descriptor.uncapturedErrorCallbackInfo.userdata1 = &s;

  RequestResult<WGPURequestDeviceStatus, WGPUDevice> result{WGPURequestDeviceStatus_Error};
  WGPURequestDeviceCallbackInfo callback{};
  callback.mode = WGPUCallbackMode_WaitAnyOnly;
  callback.callback = decltype(result)::Record;
  callback.userdata1 = &result;
  s.Wait(wgpuAdapterRequestDevice(s.adapter.get(), &descriptor, callback), "creating the device");
  s.device = DeviceHandle::Adopt(result.object);
  if (result.status != WGPURequestDeviceStatus_Success || !s.device) {
    throw EnvironmentError("Dawn could not create a device on " + d.device + ": " + result.message);
  }
  s.queue = QueueHandle::Adopt(wgpuDeviceGetQueue(s.device.get()));
}

void CreateTimestampResources(Context::State& s) {
  WGPUQuerySetDescriptor query_descriptor{};
  query_descriptor.label = View("refract pass timestamps");
  query_descriptor.type = WGPUQueryType_Timestamp;
  query_descriptor.count = 2;
  s.query_set = QuerySetHandle::Adopt(wgpuDeviceCreateQuerySet(s.device.get(), &query_descriptor));
  s.resolve_buffer = s.MakeBuffer(16, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                                  "refract timestamp resolve");
  s.readback_buffer = s.MakeBuffer(16, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                                   "refract timestamp read-back");
}

}  // namespace

Context::Context(const ContextOptions& options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = options;
  // The CLI refuses these; a library caller gets the same answer instead of a cast of NaN.
  if (!std::isfinite(options.wait_timeout_s) || options.wait_timeout_s > 1e9) {
    throw Error("wait timeout " + SecondsText(options.wait_timeout_s) +
                " s is not a finite number of seconds (0 waits forever)");
  }
  if (const char* pass = std::getenv("REFRACT_INJECT_DEVICE_LOSS")) {
    s.lose_device_before_pass = std::strtoull(pass, nullptr, 10);
  }
  CreateInstance(s);
  RequestAdapter(s);
  const WGPULimits adapter_limits = DescribeAdapter(s.adapter.get(), s.description);
  RequestDevice(s, adapter_limits);
  DescribeDevice(s);
  if (HasFeature(Feature::kTimestampQuery)) CreateTimestampResources(s);
  s.ThrowIfFailed();
}

Context::~Context() {
  if (state_->hung) {
    // Destroying or releasing the device waits for its work, which may never finish (on
    // lavapipe the spinning kernel keeps a worker thread that nothing can stop): leave it all.
    static_cast<void>(state_.release());
    return;
  }
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

void Context::WaitIdle() {
  state_->WaitForQueue("waiting for the queue");
  state_->ThrowIfFailed();
}

bool Context::hung() const { return state_->hung; }

bool Context::lost() const { return state_->device_lost; }

bool AnyContextHung() { return any_context_hung.load(); }

}  // namespace refract::gpu
