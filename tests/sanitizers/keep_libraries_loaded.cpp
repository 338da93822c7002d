// Linked into every binary that loads Dawn, in sanitizer builds only (cmake/Dawn.cmake):
// dlclose() does nothing, so no shared library is unloaded before the process exits.
//
// Why: Dawn loads the Vulkan loader, which loads the driver (lavapipe and its LLVM), with
// dlopen, and both are unloaded with dlclose when the device and instance go. Memory the driver
// keeps reachable from its own globals (128 bytes on lavapipe, a realloc'd buffer) then looks
// leaked to LeakSanitizer at exit, and the stack of that allocation points into a library that
// is no longer mapped ("<unknown module>"), so no suppression can name it. With the libraries
// kept loaded, that memory stays reachable and no leak is reported; a real leak would now carry
// the library's name, and refract's own leaks are reported as before.
//
// The executable's definition takes precedence over libc's for every library loaded later
// (the symbol is exported with --export-dynamic-symbol=dlclose).

extern "C" int dlclose(void* handle) noexcept {
  static_cast<void>(handle);
  return 0;
}
