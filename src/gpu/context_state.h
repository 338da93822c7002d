// Internal to src/gpu/: what a Context owns (Context::State), the objects behind the public
// handles, and the waiting and error-scope machinery every context_*.cpp file uses. The
// context's jobs are split by file: bring-up and error scopes (context.cpp), the adapter and
// device description (context_description.cpp), resources (context_resources.cpp) and timed
// passes (context_passes.cpp).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/device_description.h"
#include "base/error.h"
#include "gpu/context.h"
#include "gpu/webgpu_api.h"
#include "gpu/webgpu_handles.h"

namespace refract::gpu {

struct Buffer::Impl {
  BufferHandle buffer;
  uint64_t size = 0;  // [bytes] as asked for (the WebGPU buffer is padded to 4 bytes)
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

/// A borrowed view of `text` (valid while `text` is).
inline WGPUStringView View(std::string_view text) {
  return WGPUStringView{text.data(), text.size()};
}

/// A copy of a WebGPU string ("" for the null string).
inline std::string ToString(WGPUStringView view) {
  if (view.data == nullptr) return {};
  if (view.length == WGPU_STRLEN) return std::string(view.data);
  return std::string(view.data, view.length);
}

/// Everything the context owns. Dawn's callbacks write `failure` under `mutex` and never
/// throw; foreground calls raise it (ThrowIfFailed).
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
  /// Set when a wait passed its deadline; only the foreground thread reads or writes it.
  bool hung = false;

  /// Tests only (REFRACT_INJECT_DEVICE_LOSS): lose the device before this RunPass call
  /// (1-based); 0 never.
  uint64_t lose_device_before_pass = 0;
  uint64_t passes = 0;  ///< RunPass calls so far

  /// The wait deadline of options.wait_timeout_s [ns]; the largest wait Dawn takes when 0.
  uint64_t TimeoutNs() const;

  /// Blocks until `future` completes; throws on a recorded failure, and DeviceHungError (the
  /// context then hung for good) when the deadline passes first.
  void Wait(WGPUFuture future, std::string_view what);

  /// Raises DeviceHungError once hung; else the recorded failure: DeviceLostError for a lost
  /// device, else GpuError (and forgets it, so the next call may succeed).
  void ThrowIfFailed();

  /// Records a failure from a callback (the first error, or a loss over anything).
  void RecordFailure(std::string message, bool lost);

  /// Pops the two error scopes Scoped pushed; returns the first error message, or "" (also
  /// when hung: the scopes are left to the abandoned device).
  std::string PopScopes(std::string_view what);

  /// Runs `body` inside validation and out-of-memory error scopes; throws GpuError carrying
  /// Dawn's message, prefixed by `what`, when either scope caught an error.
  template <typename Body>
  auto Scoped(std::string_view what, Body&& body);

  /// A buffer of `size` bytes (no error scope of its own).
  BufferHandle MakeBuffer(uint64_t size, WGPUBufferUsage usage, std::string_view label);

  /// Submits `commands` and waits until the queue has finished them.
  void SubmitAndWait(WGPUCommandBuffer commands, std::string_view what);

  /// Waits until the queue has finished everything submitted so far.
  void WaitForQueue(std::string_view what);

  /// Maps a MapRead buffer, copies `size` bytes out to `out`, unmaps.
  void ReadMapped(WGPUBuffer buffer, uint64_t size, void* out, std::string_view what);
};

template <typename Body>
auto Context::State::Scoped(std::string_view what, Body&& body) {
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

}  // namespace refract::gpu
