#!/usr/bin/env bash
# Builds the raw-Vulkan dispatch-floor probe (a diagnostic, not part of refract) into
# build/vk_floor/ from the repository root: vk_floor (linked to the system's libvulkan.so.1 only)
# and floor.spv beside it, and the command-tracing layer vk_trace (libvk_trace.so with its manifest;
# use in vk_trace.cpp). Installs Debian's Vulkan headers and glslang when missing.
#   bash experiments/vk_floor/build.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=experiments/vk_floor
if ! command -v glslangValidator >/dev/null || [[ ! -f /usr/include/vulkan/vulkan.h ]]; then
  apt-get install -y --no-install-recommends libvulkan-dev glslang-tools
fi
mkdir -p build/vk_floor
glslangValidator -V --target-env vulkan1.2 "$here/floor.comp" -o build/vk_floor/floor.spv
g++ -std=c++20 -O2 -Wall -Wextra -Wno-missing-field-initializers -o build/vk_floor/vk_floor "$here/vk_floor.cpp" -lvulkan
g++ -std=c++20 -O2 -Wall -Wextra -shared -fPIC -o build/vk_floor/libvk_trace.so "$here/vk_trace.cpp"
cp "$here/VK_LAYER_REFRACT_trace.json" build/vk_floor/
echo "built build/vk_floor/vk_floor and the layer build/vk_floor/libvk_trace.so"
