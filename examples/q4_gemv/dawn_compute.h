// The least of WebGPU an engine needs to run a compute kernel once through Dawn (refract's
// declarations of its C API, <refract/webgpu_api.h>): a Vulkan device, storage buffers, a
// pipeline with override constants, one pass of dispatches and a read-back. Every failure Dawn
// reports (a shader that does not compile, a bad binding, a lost device) is thrown as
// std::runtime_error with Dawn's message.
#pragma once

#include <refract/webgpu_api.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace example {

/// What Dawn says the adapter is: the fields a refract profile key is made of.
struct AdapterInfo {
  std::string vendor, architecture, device, description;
  uint32_t vendor_id = 0, device_id = 0;
  uint32_t subgroup_min_size = 0, subgroup_max_size = 0;
  bool has_subgroups = false;        ///< the device was created with the subgroups feature
  uint32_t max_invocations = 0;      ///< invocations a workgroup, at most (the device's limit)
  uint32_t max_workgroup_bytes = 0;  ///< workgroup memory a workgroup, at most [bytes]
};

/// A buffer of the device; owns its handle.
class Buffer {
 public:
  Buffer() = default;
  Buffer(WGPUBuffer buffer, uint64_t size) : buffer_(buffer), size_(size) {}
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();
  WGPUBuffer get() const { return buffer_; }
  uint64_t size() const { return size_; }

 private:
  WGPUBuffer buffer_ = nullptr;
  uint64_t size_ = 0;  ///< [bytes]
};

/// One dispatch of a compiled kernel: its buffers bound at group 0, bindings 0, 1, … in order.
struct Dispatch {
  WGPUComputePipeline pipeline = nullptr;
  std::vector<const Buffer*> bindings;
  uint32_t groups_x = 1, groups_y = 1;
};

class DawnCompute {
 public:
  /// A device on Dawn's Vulkan adapter with the adapter's limits and, where it has them,
  /// subgroups. Throws when there is no Vulkan adapter or device.
  DawnCompute();
  ~DawnCompute();
  DawnCompute(const DawnCompute&) = delete;
  DawnCompute& operator=(const DawnCompute&) = delete;

  const AdapterInfo& adapter() const { return info_; }

  /// A storage buffer (copy source and destination) holding `bytes` (size rounded up to 4).
  Buffer Storage(const void* bytes, uint64_t size);
  /// A uniform buffer holding `bytes`.
  Buffer Uniform(const void* bytes, uint64_t size);
  /// Compiles `wgsl`'s `main` with the override constants; the pipeline lives as long as this.
  WGPUComputePipeline Compile(const std::string& wgsl,
                              const std::map<std::string, double>& constants);
  /// Runs the dispatches in order in one compute pass (each sees the ones before it) and waits.
  void Run(const std::vector<Dispatch>& dispatches);
  /// The first `size` bytes of `buffer`.
  std::vector<uint8_t> Read(const Buffer& buffer, uint64_t size);

  /// Records Dawn's error (called from its callbacks).
  void RecordError(std::string message);

 private:
  void Wait(WGPUFuture future, const char* what);
  void ThrowIfFailed(const char* what);

  WGPUInstance instance_ = nullptr;
  WGPUAdapter adapter_ = nullptr;
  WGPUDevice device_ = nullptr;
  WGPUQueue queue_ = nullptr;
  std::vector<WGPUComputePipeline> pipelines_;
  AdapterInfo info_;
  std::string error_;  ///< the first error Dawn reported and nobody has thrown yet
};

}  // namespace example
