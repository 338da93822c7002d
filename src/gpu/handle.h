// One small RAII type for every WebGPU object: copy adds a reference, move steals it,
// destruction releases it. `Traits` supplies the object type and its AddRef/Release calls,
// so this header needs no WebGPU declarations (tests use counting fakes).
#pragma once

#include <utility>

namespace refract::gpu {

/// Owns one reference to a WebGPU object. `Traits` provides `using Object = ...;`,
/// `static void AddRef(Object)` and `static void Release(Object)`.
template <typename Traits>
class Handle {
 public:
  using Object = typename Traits::Object;

  Handle() = default;
  /// Takes over a reference the caller owns (the result of a wgpu…Create call).
  static Handle Adopt(Object object) {
    Handle handle;
    handle.object_ = object;
    return handle;
  }

  Handle(const Handle& other) : object_(other.object_) {
    if (object_) Traits::AddRef(object_);
  }
  Handle(Handle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Handle& operator=(const Handle& other) {
    if (this != &other) {
      if (other.object_) Traits::AddRef(other.object_);
      Reset();
      object_ = other.object_;
    }
    return *this;
  }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      Reset();
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  ~Handle() { Reset(); }

  /// Releases the reference (if any) and becomes empty.
  void Reset() {
    if (object_) Traits::Release(std::exchange(object_, nullptr));
  }

  Object get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }

 private:
  Object object_ = nullptr;
};

}  // namespace refract::gpu
