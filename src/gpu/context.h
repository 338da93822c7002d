// The GPU context: one Dawn instance, one Vulkan adapter, one device, and everything other
// modules need to run compute work on it. No WebGPU declaration appears in this header.
//
// Errors: creation calls run inside a validation error scope and throw GpuError carrying
// Dawn's message. Uncaptured errors and device loss are recorded by Dawn's callbacks (which
// never throw) and raised by the next foreground call (DeviceLostError for a lost device).
// Every wait for the GPU has a deadline (the watchdog): past it the call throws
// DeviceHungError, and the context is hung for good (see hung()).
//
// For tests only: with REFRACT_INJECT_DEVICE_LOSS=N in the environment, the device is lost
// (through Dawn's own device-lost path) just before the Nth RunPass call (1-based) submits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/device_description.h"
#include "base/device_limits.h"

namespace refract::gpu {

enum class PowerPreference { kHighPerformance, kLowPower };

/// Optional device features refract knows by name.
enum class Feature {
  kTimestampQuery,
  kShaderF16,
  kSubgroups,
  kTimestampQueryInsidePasses,  ///< chromium-experimental-timestamp-query-inside-passes
  kSubgroupMatrix,              ///< chromium-experimental-subgroup-matrix
  kFloat32Filterable,
};

/// The WebGPU name of a feature, e.g. "shader-f16".
std::string_view FeatureName(Feature feature);

struct ContextOptions {
  PowerPreference power_preference = PowerPreference::kHighPerformance;
  /// Ask Dawn for its fallback adapter (a CPU implementation: lavapipe, SwiftShader) rather than
  /// the preferred one; still Vulkan only.
  bool force_fallback_adapter = false;
  /// Create the device with WebGPU's default limits instead of the adapter's.
  bool default_limits = false;
  /// Toggles added to refract's own (timestamp_quantization is always disabled).
  std::vector<std::string> extra_enabled_toggles;
  std::vector<std::string> extra_disabled_toggles;
  /// The watchdog: the longest wait for any GPU operation before it counts as hung and throws
  /// DeviceHungError [seconds]; 0 (or less) waits forever.
  double wait_timeout_s = 120.0;
  /// For tests only: ask Dawn for its Null backend, which the context must then refuse.
  bool request_null_backend = false;
};

/// Buffer usages; combine with |.
enum BufferUsage : uint32_t {
  kUsageMapRead = 1u << 0,
  kUsageCopySrc = 1u << 1,
  kUsageCopyDst = 1u << 2,
  kUsageUniform = 1u << 3,
  kUsageStorage = 1u << 4,
  kUsageIndirect = 1u << 5,
};

class Context;

/// A GPU buffer. Copies share the same buffer; the last copy releases it.
class Buffer {
 public:
  Buffer() = default;
  uint64_t size() const;  // [bytes]
  explicit operator bool() const { return static_cast<bool>(impl_); }
  /// The same GPU buffer (copies of a Buffer share it).
  bool operator==(const Buffer& other) const { return impl_ == other.impl_; }
  struct Impl;

 private:
  friend class Context;
  friend class CommandRecorder;
  std::shared_ptr<Impl> impl_;
};

/// A compute pipeline (its bind group layouts are derived from the shader: `layout: auto`).
class ComputePipeline {
 public:
  ComputePipeline() = default;
  explicit operator bool() const { return static_cast<bool>(impl_); }
  struct Impl;

 private:
  friend class Context;
  friend class CommandRecorder;
  std::shared_ptr<Impl> impl_;
};

/// A bind group made for one pipeline's group.
class BindGroup {
 public:
  BindGroup() = default;
  explicit operator bool() const { return static_cast<bool>(impl_); }
  struct Impl;

 private:
  friend class Context;
  friend class CommandRecorder;
  std::shared_ptr<Impl> impl_;
};

/// A 2D texture with its default view, for sampling kernels.
class Texture {
 public:
  Texture() = default;
  explicit operator bool() const { return static_cast<bool>(impl_); }
  struct Impl;

 private:
  friend class Context;
  std::shared_ptr<Impl> impl_;
};

/// A sampler with linear filtering and clamp-to-edge addressing.
class Sampler {
 public:
  Sampler() = default;
  explicit operator bool() const { return static_cast<bool>(impl_); }
  struct Impl;

 private:
  friend class Context;
  std::shared_ptr<Impl> impl_;
};

/// One entry of a bind group: a buffer range, a texture (its default view) or a sampler.
struct BufferBinding {
  Buffer buffer;
  uint64_t offset = 0;  // [bytes]
  uint64_t size = 0;    // [bytes]; 0 means the whole buffer from offset
};
struct BindingEntry {
  uint32_t binding = 0;
  std::variant<BufferBinding, Texture, Sampler> resource;
};

/// What to compile: WGSL source, entry point, pipeline-overridable constants.
struct PipelineSpec {
  std::string_view wgsl;
  std::string label;  ///< names the pipeline in error messages
  std::string entry_point = "main";
  std::map<std::string, double> constants;  ///< WGSL `override` values by name
};

/// One dispatch of a pipeline with its bind groups (index = group number).
struct Dispatch {
  ComputePipeline pipeline;
  std::vector<BindGroup> bind_groups;
  uint32_t groups_x = 1, groups_y = 1, groups_z = 1;
};

/// Times of one submitted pass.
struct PassTiming {
  double wall_ns = 0;            ///< submit to completion, on the host clock [ns]
  std::optional<double> gpu_ns;  ///< end − begin pass timestamps [ns]; empty without timestamps
};

/// Texel formats refract uploads.
enum class TextureFormat { kRgba32Float, kRgba8Unorm };

class Context {
 public:
  /// Creates instance, Vulkan adapter and device. Throws EnvironmentError when there is no
  /// Vulkan adapter or only Dawn's Null backend.
  explicit Context(const ContextOptions& options = {});
  /// Destroys the device, unless the context is hung: then it leaves the device, the instance
  /// and its own state alive on purpose (releasing them would wait for the stuck work); see
  /// AnyContextHung.
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// Adapter and device facts, as `refract info` prints them.
  const DeviceDescription& description() const;
  /// The device's limits, features and adapter facts as ops check configurations against them
  /// (LimitsOf(description())).
  const DeviceLimits& limits() const;
  /// True when the feature is enabled on the device.
  bool HasFeature(Feature feature) const;
  /// True when the instance supports this WGSL language feature (e.g.
  /// "packed_4x8_integer_dot_product").
  bool HasWgslLanguageFeature(std::string_view name) const;

  Buffer CreateBuffer(uint64_t size, uint32_t usage, std::string_view label);
  /// Writes bytes at `offset` through the queue (the buffer needs kUsageCopyDst).
  void WriteBuffer(const Buffer& buffer, uint64_t offset, std::span<const std::byte> bytes);
  /// Copies `size` bytes from `offset` back to the host and waits for them.
  std::vector<std::byte> ReadBuffer(const Buffer& buffer, uint64_t offset, uint64_t size);

  /// Compiles a compute pipeline; a WGSL or validation error throws GpuError with Dawn's message.
  ComputePipeline CreateComputePipeline(const PipelineSpec& spec);
  /// Makes a bind group for `group_index` of the pipeline; a mismatch throws GpuError.
  BindGroup CreateBindGroup(const ComputePipeline& pipeline, uint32_t group_index,
                            const std::vector<BindingEntry>& entries);

  /// A 2D texture (texture binding + copy dst) filled with `texels` (row-major, tightly packed).
  Texture CreateTexture2D(uint32_t width, uint32_t height, TextureFormat format,
                          std::span<const std::byte> texels, std::string_view label);
  Sampler CreateLinearSampler();

  /// Records one command buffer with one compute pass holding `repetitions` back-to-back copies
  /// of `dispatches` (in order), submits it, waits for completion. With `timestamps` (and the
  /// feature) the pass carries timestamp writes and `gpu_ns` is filled. Any validation error
  /// throws GpuError: a failed pass never reads as a time.
  PassTiming RunPass(std::span<const Dispatch> dispatches, uint32_t repetitions, bool timestamps);
  PassTiming RunPass(const Dispatch& dispatch, uint32_t repetitions, bool timestamps) {
    return RunPass(std::span<const Dispatch>(&dispatch, 1), repetitions, timestamps);
  }

  /// Wall time of submitting an empty command buffer and waiting for it [ns].
  double EmptySubmitWallNs();
  /// Waits until the queue has done everything submitted, then lets Dawn free what was released
  /// (wgpuDeviceTick), twice: buffers dropped by one measurement are gone before the next
  /// starts, rather than freed while it runs (a sweep releases each configuration's copies).
  void Settle();

  /// Raises any recorded uncaptured error or device loss.
  void ThrowIfFailed();
  /// Waits until the queue has done everything submitted (CommandRecorder's work included), then
  /// raises any recorded error.
  void WaitIdle();

  /// True once a wait passed the watchdog's deadline: the device is stuck with work that may
  /// never finish. From then on every GPU call throws DeviceHungError (kNotRunAfterHang) at once.
  bool hung() const;
  /// True once Dawn reported the device lost: every later GPU call throws DeviceLostError.
  bool lost() const;

  struct State;

 private:
  friend class CommandRecorder;
  friend class TimestampQueries;
  std::unique_ptr<State> state_;
};

/// True once any context of this process hung (Context::hung()). The process must then end
/// with std::_Exit (after flushing what it prints): exit() would wait for the stuck work in the
/// driver's teardown.
bool AnyContextHung();

}  // namespace refract::gpu
