# Dawn from the npm package bun-webgpu-linux-x64 (pinned by package-lock.json, installed by
# scripts/setup.sh with `npm ci`). The library has no SONAME, so it is imported with
# IMPORTED_NO_SONAME: the binary then records plain "libwebgpu_wrapper.so" and finds it beside
# itself through the $ORIGIN rpath.
set(REFRACT_DAWN_DIR "${CMAKE_SOURCE_DIR}/node_modules/bun-webgpu-linux-x64"
    CACHE PATH "Folder of the bun-webgpu-linux-x64 npm package")
set(REFRACT_DAWN_LIBRARY "${REFRACT_DAWN_DIR}/libwebgpu_wrapper.so")
if(NOT EXISTS "${REFRACT_DAWN_LIBRARY}")
  message(FATAL_ERROR "Dawn library not found at ${REFRACT_DAWN_LIBRARY}: run scripts/setup.sh")
endif()
file(READ "${REFRACT_DAWN_DIR}/package.json" _dawn_package_json)
string(JSON REFRACT_DAWN_PACKAGE_VERSION GET "${_dawn_package_json}" version)
string(JSON _dawn_package_name GET "${_dawn_package_json}" name)
set(REFRACT_DAWN_PACKAGE "${_dawn_package_name}@${REFRACT_DAWN_PACKAGE_VERSION}")
message(STATUS "Dawn: ${REFRACT_DAWN_PACKAGE}")

add_library(dawn::webgpu SHARED IMPORTED GLOBAL)
set_target_properties(dawn::webgpu PROPERTIES
  IMPORTED_LOCATION "${REFRACT_DAWN_LIBRARY}"
  IMPORTED_NO_SONAME TRUE)

# Copies the Dawn library (and muparser's, which Debian ships only shared) beside a binary and
# gives the binary an $ORIGIN rpath.
function(refract_place_beside_dawn target)
  set_target_properties(${target} PROPERTIES
    BUILD_RPATH "\$ORIGIN"
    INSTALL_RPATH "\$ORIGIN"
    BUILD_WITH_INSTALL_RPATH TRUE)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "${REFRACT_DAWN_LIBRARY}"
            "$<TARGET_FILE_DIR:${target}>/libwebgpu_wrapper.so"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "$<TARGET_FILE:muparser::muparser>"
            "$<TARGET_FILE_DIR:${target}>/$<TARGET_SONAME_FILE_NAME:muparser::muparser>"
    VERBATIM)
  if(REFRACT_SANITIZE)
    # No library is unloaded before exit, so that LeakSanitizer can tell the Vulkan driver's
    # memory from a leak: tests/sanitizers/keep_libraries_loaded.cpp says why.
    target_sources(${target} PRIVATE
                   "${CMAKE_SOURCE_DIR}/tests/sanitizers/keep_libraries_loaded.cpp")
    target_link_options(${target} PRIVATE "LINKER:--export-dynamic-symbol=dlclose")
  endif()
endfunction()
