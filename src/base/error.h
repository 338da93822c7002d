// The project's one error hierarchy. Only main turns these into exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace refract {

/// Base of every error refract raises.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A bad argument or option from the user (exit code 2).
class UsageError : public Error {
 public:
  using Error::Error;
};

/// The machine cannot run refract: no Vulkan adapter, missing library (exit code 2).
class EnvironmentError : public Error {
 public:
  using Error::Error;
};

/// An output (a results file, a pipe, standard output) could not be written (exit code 2).
class OutputError : public EnvironmentError {
 public:
  using EnvironmentError::EnvironmentError;
};

/// WebGPU reported a validation, out-of-memory or internal error.
class GpuError : public Error {
 public:
  using Error::Error;
};

/// The device was lost; nothing more can run on it.
class DeviceLostError : public GpuError {
 public:
  using GpuError::GpuError;
};

/// A wait for the GPU passed the watchdog's deadline (gpu::ContextOptions::wait_timeout_s): the
/// work, most likely a kernel that does not terminate, may never finish. The device stays busy
/// with it, so nothing more can run on it, and tearing it down could wait forever.
class DeviceHungError : public DeviceLostError {
 public:
  using DeviceLostError::DeviceLostError;
};

/// What every row not run because of an earlier hang says.
inline constexpr char kNotRunAfterHang[] = "not run: an earlier kernel hung the device";

/// A kernel's output disagrees with its CPU reference.
class VerificationError : public Error {
 public:
  using Error::Error;
};

/// Prefixes `message` with "file:line: ".
std::string WithLocation(const char* file, int line, const std::string& message);

}  // namespace refract

/// Throws `ErrorType` carrying file:line and `message` when `condition` holds.
#define REFRACT_THROW_IF(condition, ErrorType, message)                                   \
  do {                                                                                    \
    if (condition) throw ErrorType(::refract::WithLocation(__FILE__, __LINE__, message)); \
  } while (false)
