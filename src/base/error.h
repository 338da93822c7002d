// The project's one error hierarchy. Only main turns these into exit codes.
#pragma once

#include <optional>

#include "base/verification.h"

#include <stdexcept>
#include <string>

namespace refract {

/// Base of every error refract raises. Its message is what a user reads; where in the source
/// it was raised (REFRACT_THROW_IF) is kept apart, for internal errors' reports.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;

  /// "src/dir/file.cpp:42", or empty.
  const std::string& location() const { return location_; }
  void set_location(std::string location) { location_ = std::move(location); }

 private:
  std::string location_;
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
  /// A failed comparison: the message and what it compared (elements, mismatches, max error,
  /// tolerance), which the row keeps beside the message.
  VerificationError(const std::string& message, VerificationRecord record)
      : Error(message), record_(std::move(record)) {}

  /// What the failed check compared; nothing when it failed before comparing (a wrong size).
  const std::optional<VerificationRecord>& record() const { return record_; }

 private:
  std::optional<VerificationRecord> record_;
};

/// "src/…/file.cpp:line": the path from src/ on (the build folder's absolute path is noise).
std::string SourceLocation(const char* file, int line);

/// An `ErrorType` carrying `message` and its source location.
template <typename ErrorType>
ErrorType Located(const std::string& message, const char* file, int line) {
  ErrorType error(message);
  error.set_location(SourceLocation(file, line));
  return error;
}

}  // namespace refract

/// Throws `ErrorType` with `message` (and the source location beside it, not in it) when
/// `condition` holds.
#define REFRACT_THROW_IF(condition, ErrorType, message)                              \
  do {                                                                               \
    if (condition) throw ::refract::Located<ErrorType>(message, __FILE__, __LINE__); \
  } while (false)
