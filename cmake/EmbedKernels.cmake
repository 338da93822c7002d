# Embeds every src/kernels/*.wgsl into a generated C++ source, so the binary carries its
# kernels. A .wgsl edit re-runs the generator; a new .wgsl re-runs the configure step.
file(GLOB REFRACT_WGSL_FILES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/src/kernels/*.wgsl")
list(SORT REFRACT_WGSL_FILES)
set(REFRACT_EMBEDDED_KERNELS_CPP "${CMAKE_BINARY_DIR}/generated/embedded_kernels.cpp")
add_custom_command(
  OUTPUT "${REFRACT_EMBEDDED_KERNELS_CPP}"
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${REFRACT_EMBEDDED_KERNELS_CPP}
          "-DINPUTS=${REFRACT_WGSL_FILES}" -P "${CMAKE_SOURCE_DIR}/cmake/embed_kernels_script.cmake"
  DEPENDS ${REFRACT_WGSL_FILES} "${CMAKE_SOURCE_DIR}/cmake/embed_kernels_script.cmake"
  COMMENT "Embedding WGSL kernels"
  VERBATIM)
