// The smoke kernel of refract (src/kernels/smoke_scale_add.wgsl.in) in GLSL, for the raw-Vulkan
// floor probe (vk_floor.cpp): out[i] = in[i] * scale + offset, one element an invocation,
// 256 invocations a workgroup, the parameters in a uniform buffer as Dawn binds them.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Input { float values[]; } input_;
layout(set = 0, binding = 1) buffer Output { float values[]; } output_;
layout(set = 0, binding = 2) uniform Params { uint count; float scale; float offset; uint pad; } params;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.count) {
    return;
  }
  output_.values[i] = input_.values[i] * params.scale + params.offset;
}
