// vk_trace: a Vulkan layer (a diagnostic, not part of refract) that writes, one line each, the
// commands an application records into its command buffers: pipeline and descriptor binds,
// dispatches, barriers with their stage and access masks, timestamps, copies and submits. It shows
// exactly what Dawn records between two dependent dispatches, so that vk_floor can time the same
// stream without Dawn.
//
// Use (build.sh builds it with its manifest into build/vk_floor/):
//   VK_LAYER_PATH=build/vk_floor VK_INSTANCE_LAYERS=VK_LAYER_REFRACT_trace
//     VK_TRACE_FILE=trace.txt VK_TRACE_LINES=20000 build/release/refract smoke ...  (one line)
// VK_TRACE_FILE: where the lines go (default stderr); VK_TRACE_LINES: at most this many lines
// (default 20,000), then one line saying how many were left out; VK_TRACE_SPIRV_DIR: a folder to
// keep every shader module's SPIR-V in, as shader-N.spv in creation order (vk_floor can time
// Dawn's own smoke kernel from it).
//
// Contract: every intercepted call is passed on unchanged to the next layer or the driver; only
// one device's functions are held (the last created), enough for one refract process. Written from
// the Vulkan loader's layer interface (vk_layer.h, Debian's libvulkan-dev) and the Vulkan spec.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace {

struct Next {
  PFN_vkGetInstanceProcAddr get_instance_proc = nullptr;
  PFN_vkGetDeviceProcAddr get_device_proc = nullptr;
  PFN_vkBeginCommandBuffer begin = nullptr;
  PFN_vkEndCommandBuffer end = nullptr;
  PFN_vkCmdBindPipeline bind_pipeline = nullptr;
  PFN_vkCmdBindDescriptorSets bind_sets = nullptr;
  PFN_vkCmdPushConstants push_constants = nullptr;
  PFN_vkCmdDispatch dispatch = nullptr;
  PFN_vkCmdDispatchIndirect dispatch_indirect = nullptr;
  PFN_vkCmdPipelineBarrier barrier = nullptr;
  PFN_vkCmdPipelineBarrier2 barrier2 = nullptr;
  PFN_vkCmdPipelineBarrier2 barrier2_khr = nullptr;
  PFN_vkCmdWriteTimestamp timestamp = nullptr;
  PFN_vkCmdResetQueryPool reset_queries = nullptr;
  PFN_vkCmdCopyQueryPoolResults copy_queries = nullptr;
  PFN_vkCmdFillBuffer fill = nullptr;
  PFN_vkCmdCopyBuffer copy = nullptr;
  PFN_vkCmdUpdateBuffer update = nullptr;
  PFN_vkQueueSubmit submit = nullptr;
  PFN_vkCreateShaderModule create_shader = nullptr;
};

Next next;
std::mutex lock;
FILE* out = nullptr;
long lines_left = 0;
long lines_dropped = 0;

void Open() {
  if (out != nullptr) return;
  const char* path = std::getenv("VK_TRACE_FILE");
  out = path != nullptr ? std::fopen(path, "w") : nullptr;
  if (out == nullptr) {
    if (path != nullptr) std::fprintf(stderr, "vk_trace: cannot write %s; tracing to stderr\n", path);
    out = stderr;
  }
  const char* limit = std::getenv("VK_TRACE_LINES");
  lines_left = limit != nullptr ? std::atol(limit) : 20000;
}

// Writes one line (printf-style) while lines are left; counts the rest.
__attribute__((format(printf, 1, 2))) void Line(const char* format, ...) {
  std::lock_guard<std::mutex> hold(lock);
  Open();
  if (lines_left <= 0) {
    ++lines_dropped;
    return;
  }
  --lines_left;
  va_list args;
  va_start(args, format);
  std::vfprintf(out, format, args);
  va_end(args);
  std::fputc('\n', out);
  std::fflush(out);
}

void Barrier(VkCommandBuffer cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
             VkDependencyFlags flags, uint32_t memory_count, const VkMemoryBarrier* memory,
             uint32_t buffer_count, const VkBufferMemoryBarrier* buffers, uint32_t image_count) {
  Line("%p barrier src_stage=0x%x dst_stage=0x%x flags=0x%x memory=%u buffer=%u image=%u",
       static_cast<void*>(cb), src, dst, flags, memory_count, buffer_count, image_count);
  for (uint32_t i = 0; i < memory_count; ++i)
    Line("%p   memory src_access=0x%x dst_access=0x%x", static_cast<void*>(cb),
         memory[i].srcAccessMask, memory[i].dstAccessMask);
  for (uint32_t i = 0; i < buffer_count; ++i)
    Line("%p   buffer %p src_access=0x%x dst_access=0x%x offset=%" PRIu64 " size=%" PRIu64,
         static_cast<void*>(cb), static_cast<void*>(buffers[i].buffer), buffers[i].srcAccessMask,
         buffers[i].dstAccessMask, buffers[i].offset, buffers[i].size);
}

void Barrier2(VkCommandBuffer cb, const VkDependencyInfo* info, const char* name) {
  Line("%p %s flags=0x%x memory=%u buffer=%u image=%u", static_cast<void*>(cb), name,
       info->dependencyFlags, info->memoryBarrierCount, info->bufferMemoryBarrierCount,
       info->imageMemoryBarrierCount);
  for (uint32_t i = 0; i < info->memoryBarrierCount; ++i) {
    const VkMemoryBarrier2& b = info->pMemoryBarriers[i];
    Line("%p   memory src_stage=0x%" PRIx64 " src_access=0x%" PRIx64 " dst_stage=0x%" PRIx64
         " dst_access=0x%" PRIx64,
         static_cast<void*>(cb), b.srcStageMask, b.srcAccessMask, b.dstStageMask, b.dstAccessMask);
  }
  for (uint32_t i = 0; i < info->bufferMemoryBarrierCount; ++i) {
    const VkBufferMemoryBarrier2& b = info->pBufferMemoryBarriers[i];
    Line("%p   buffer %p src_stage=0x%" PRIx64 " src_access=0x%" PRIx64 " dst_stage=0x%" PRIx64
         " dst_access=0x%" PRIx64 " offset=%" PRIu64 " size=%" PRIu64,
         static_cast<void*>(cb), static_cast<void*>(b.buffer), b.srcStageMask, b.srcAccessMask,
         b.dstStageMask, b.dstAccessMask, b.offset, b.size);
  }
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer cb,
                                                  const VkCommandBufferBeginInfo* info) {
  Line("%p begin flags=0x%x", static_cast<void*>(cb), info->flags);
  return next.begin(cb, info);
}
VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer cb) {
  Line("%p end", static_cast<void*>(cb));
  return next.end(cb);
}
VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint point,
                                           VkPipeline pipeline) {
  Line("%p bind_pipeline %p point=%d", static_cast<void*>(cb), static_cast<void*>(pipeline),
       static_cast<int>(point));
  next.bind_pipeline(cb, point, pipeline);
}
VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint point,
                                                 VkPipelineLayout layout, uint32_t first,
                                                 uint32_t count, const VkDescriptorSet* sets,
                                                 uint32_t dynamic_count, const uint32_t* offsets) {
  Line("%p bind_sets first=%u count=%u dynamic_offsets=%u", static_cast<void*>(cb), first, count,
       dynamic_count);
  next.bind_sets(cb, point, layout, first, count, sets, dynamic_count, offsets);
}
VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
                                            VkShaderStageFlags stages, uint32_t offset,
                                            uint32_t size, const void* values) {
  Line("%p push_constants offset=%u size=%u", static_cast<void*>(cb), offset, size);
  next.push_constants(cb, layout, stages, offset, size, values);
}
VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
  Line("%p dispatch %u %u %u", static_cast<void*>(cb), x, y, z);
  next.dispatch(cb, x, y, z);
}
VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buffer,
                                               VkDeviceSize offset) {
  Line("%p dispatch_indirect %p offset=%" PRIu64, static_cast<void*>(cb),
       static_cast<void*>(buffer), offset);
  next.dispatch_indirect(cb, buffer, offset);
}
VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier(VkCommandBuffer cb, VkPipelineStageFlags src,
                                              VkPipelineStageFlags dst, VkDependencyFlags flags,
                                              uint32_t memory_count, const VkMemoryBarrier* memory,
                                              uint32_t buffer_count,
                                              const VkBufferMemoryBarrier* buffers,
                                              uint32_t image_count,
                                              const VkImageMemoryBarrier* images) {
  Barrier(cb, src, dst, flags, memory_count, memory, buffer_count, buffers, image_count);
  next.barrier(cb, src, dst, flags, memory_count, memory, buffer_count, buffers, image_count,
               images);
}
VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2(VkCommandBuffer cb, const VkDependencyInfo* info) {
  Barrier2(cb, info, "barrier2");
  next.barrier2(cb, info);
}
VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2KHR(VkCommandBuffer cb,
                                                  const VkDependencyInfo* info) {
  Barrier2(cb, info, "barrier2_khr");
  next.barrier2_khr(cb, info);
}
VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp(VkCommandBuffer cb, VkPipelineStageFlagBits stage,
                                             VkQueryPool pool, uint32_t query) {
  Line("%p timestamp stage=0x%x query=%u", static_cast<void*>(cb), static_cast<unsigned>(stage),
       query);
  next.timestamp(cb, stage, pool, query);
}
VKAPI_ATTR void VKAPI_CALL CmdResetQueryPool(VkCommandBuffer cb, VkQueryPool pool, uint32_t first,
                                             uint32_t count) {
  Line("%p reset_queries first=%u count=%u", static_cast<void*>(cb), first, count);
  next.reset_queries(cb, pool, first, count);
}
VKAPI_ATTR void VKAPI_CALL CmdCopyQueryPoolResults(VkCommandBuffer cb, VkQueryPool pool,
                                                   uint32_t first, uint32_t count, VkBuffer buffer,
                                                   VkDeviceSize offset, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
  Line("%p copy_queries first=%u count=%u flags=0x%x", static_cast<void*>(cb), first, count,
       flags);
  next.copy_queries(cb, pool, first, count, buffer, offset, stride, flags);
}
VKAPI_ATTR void VKAPI_CALL CmdFillBuffer(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                         VkDeviceSize size, uint32_t value) {
  Line("%p fill %p offset=%" PRIu64 " size=%" PRIu64, static_cast<void*>(cb),
       static_cast<void*>(buffer), offset, size);
  next.fill(cb, buffer, offset, size, value);
}
VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer(VkCommandBuffer cb, VkBuffer source, VkBuffer target,
                                         uint32_t count, const VkBufferCopy* regions) {
  Line("%p copy %p -> %p regions=%u", static_cast<void*>(cb), static_cast<void*>(source),
       static_cast<void*>(target), count);
  next.copy(cb, source, target, count, regions);
}
VKAPI_ATTR void VKAPI_CALL CmdUpdateBuffer(VkCommandBuffer cb, VkBuffer buffer,
                                           VkDeviceSize offset, VkDeviceSize size,
                                           const void* data) {
  Line("%p update %p offset=%" PRIu64 " size=%" PRIu64, static_cast<void*>(cb),
       static_cast<void*>(buffer), offset, size);
  next.update(cb, buffer, offset, size, data);
}
VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t count,
                                           const VkSubmitInfo* submits, VkFence fence) {
  for (uint32_t i = 0; i < count; ++i)
    Line("submit command_buffers=%u waits=%u signals=%u", submits[i].commandBufferCount,
         submits[i].waitSemaphoreCount, submits[i].signalSemaphoreCount);
  return next.submit(queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device,
                                                  const VkShaderModuleCreateInfo* info,
                                                  const VkAllocationCallbacks* allocator,
                                                  VkShaderModule* module) {
  static std::atomic<int> modules{0};  // Dawn may compile on several threads
  const int index = modules++;
  const char* folder = std::getenv("VK_TRACE_SPIRV_DIR");
  if (folder != nullptr) {
    const std::string path = std::string(folder) + "/shader-" + std::to_string(index) + ".spv";
    FILE* file = std::fopen(path.c_str(), "wb");
    const bool kept = file != nullptr && std::fwrite(info->pCode, 1, info->codeSize, file) ==
                                             info->codeSize;
    if (file != nullptr && std::fclose(file) != 0) Line("# could not write %s", path.c_str());
    Line("shader_module %d bytes=%zu%s", index, info->codeSize, kept ? " kept" : " NOT kept");
  } else {
    Line("shader_module %d bytes=%zu", index, info->codeSize);
  }
  return next.create_shader(device, info, allocator, module);
}

// The layer's own entry for a device-level name, or nullptr when it passes the name on.
PFN_vkVoidFunction Intercepted(const char* name);

// The loader's link to the next layer in a create-info chain (`Info` is VkLayerInstanceCreateInfo
// or VkLayerDeviceCreateInfo, tagged `type`), or nullptr.
template <typename Info>
Info* FindLink(const void* chain, VkStructureType type) {
  auto* link = static_cast<Info*>(const_cast<void*>(chain));
  while (link != nullptr && !(link->sType == type && link->function == VK_LAYER_LINK_INFO))
    link = static_cast<Info*>(const_cast<void*>(link->pNext));
  return link;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info,
                                              const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
  auto* link = FindLink<VkLayerInstanceCreateInfo>(info->pNext,
                                                   VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  next.get_instance_proc = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer reads its own link
  auto create = reinterpret_cast<PFN_vkCreateInstance>(
      next.get_instance_proc(VK_NULL_HANDLE, "vkCreateInstance"));
  Line("create_instance api=0x%x", info->pApplicationInfo ? info->pApplicationInfo->apiVersion : 0);
  return create(info, allocator, instance);
}

template <typename F>
void Load(VkDevice device, F& slot, const char* name) {
  slot = reinterpret_cast<F>(next.get_device_proc(device, name));
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical,
                                            const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator,
                                            VkDevice* device) {
  auto* link = FindLink<VkLayerDeviceCreateInfo>(info->pNext,
                                                 VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr instance_proc = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  next.get_device_proc = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create =
      reinterpret_cast<PFN_vkCreateDevice>(instance_proc(VK_NULL_HANDLE, "vkCreateDevice"));
  VkResult result = create(physical, info, allocator, device);
  if (result != VK_SUCCESS) return result;
  Line("create_device extensions=%u", info->enabledExtensionCount);
  const VkPhysicalDeviceFeatures* features = info->pEnabledFeatures;
  for (auto* chained = static_cast<const VkBaseInStructure*>(info->pNext); chained != nullptr;
       chained = chained->pNext) {
    if (chained->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
      features = &reinterpret_cast<const VkPhysicalDeviceFeatures2*>(chained)->features;
    if (chained->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT) {
      const auto* robust2 = reinterpret_cast<const VkPhysicalDeviceRobustness2FeaturesEXT*>(chained);
      Line("  robustBufferAccess2=%u", robust2->robustBufferAccess2);
    }
  }
  Line("  robustBufferAccess=%u", features != nullptr ? features->robustBufferAccess : 0);
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i)
    Line("  extension %s", info->ppEnabledExtensionNames[i]);
  Load(*device, next.begin, "vkBeginCommandBuffer");
  Load(*device, next.end, "vkEndCommandBuffer");
  Load(*device, next.bind_pipeline, "vkCmdBindPipeline");
  Load(*device, next.bind_sets, "vkCmdBindDescriptorSets");
  Load(*device, next.push_constants, "vkCmdPushConstants");
  Load(*device, next.dispatch, "vkCmdDispatch");
  Load(*device, next.dispatch_indirect, "vkCmdDispatchIndirect");
  Load(*device, next.barrier, "vkCmdPipelineBarrier");
  Load(*device, next.barrier2, "vkCmdPipelineBarrier2");
  Load(*device, next.barrier2_khr, "vkCmdPipelineBarrier2KHR");
  Load(*device, next.timestamp, "vkCmdWriteTimestamp");
  Load(*device, next.reset_queries, "vkCmdResetQueryPool");
  Load(*device, next.copy_queries, "vkCmdCopyQueryPoolResults");
  Load(*device, next.fill, "vkCmdFillBuffer");
  Load(*device, next.copy, "vkCmdCopyBuffer");
  Load(*device, next.update, "vkCmdUpdateBuffer");
  Load(*device, next.submit, "vkQueueSubmit");
  Load(*device, next.create_shader, "vkCreateShaderModule");
  return VK_SUCCESS;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (PFN_vkVoidFunction own = Intercepted(name)) {
    // A command the driver does not have (an extension not enabled) stays absent.
    if (next.get_device_proc(device, name) == nullptr) return nullptr;
    return own;
  }
  return next.get_device_proc(device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance,
                                                             const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  if (std::strcmp(name, "vkCreateInstance") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance);
  if (std::strcmp(name, "vkCreateDevice") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  if (next.get_instance_proc == nullptr) return nullptr;
  return next.get_instance_proc(instance, name);
}

PFN_vkVoidFunction Intercepted(const char* name) {
  struct Entry {
    const char* name;
    PFN_vkVoidFunction function;
  };
#define REFRACT_TRACE_ENTRY(n, f) {n, reinterpret_cast<PFN_vkVoidFunction>(&f)}
  static const Entry entries[] = {
      REFRACT_TRACE_ENTRY("vkGetDeviceProcAddr", GetDeviceProcAddr),
      REFRACT_TRACE_ENTRY("vkBeginCommandBuffer", BeginCommandBuffer),
      REFRACT_TRACE_ENTRY("vkEndCommandBuffer", EndCommandBuffer),
      REFRACT_TRACE_ENTRY("vkCmdBindPipeline", CmdBindPipeline),
      REFRACT_TRACE_ENTRY("vkCmdBindDescriptorSets", CmdBindDescriptorSets),
      REFRACT_TRACE_ENTRY("vkCmdPushConstants", CmdPushConstants),
      REFRACT_TRACE_ENTRY("vkCmdDispatch", CmdDispatch),
      REFRACT_TRACE_ENTRY("vkCmdDispatchIndirect", CmdDispatchIndirect),
      REFRACT_TRACE_ENTRY("vkCmdPipelineBarrier", CmdPipelineBarrier),
      REFRACT_TRACE_ENTRY("vkCmdPipelineBarrier2", CmdPipelineBarrier2),
      REFRACT_TRACE_ENTRY("vkCmdPipelineBarrier2KHR", CmdPipelineBarrier2KHR),
      REFRACT_TRACE_ENTRY("vkCmdWriteTimestamp", CmdWriteTimestamp),
      REFRACT_TRACE_ENTRY("vkCmdResetQueryPool", CmdResetQueryPool),
      REFRACT_TRACE_ENTRY("vkCmdCopyQueryPoolResults", CmdCopyQueryPoolResults),
      REFRACT_TRACE_ENTRY("vkCmdFillBuffer", CmdFillBuffer),
      REFRACT_TRACE_ENTRY("vkCmdCopyBuffer", CmdCopyBuffer),
      REFRACT_TRACE_ENTRY("vkCmdUpdateBuffer", CmdUpdateBuffer),
      REFRACT_TRACE_ENTRY("vkQueueSubmit", QueueSubmit),
      REFRACT_TRACE_ENTRY("vkCreateShaderModule", CreateShaderModule),
  };
#undef REFRACT_TRACE_ENTRY
  for (const Entry& entry : entries)
    if (std::strcmp(name, entry.name) == 0) return entry.function;
  return nullptr;
}

// Says at exit how many lines the limit left out, so a cut trace is never read as whole.
struct Closer {
  ~Closer() {
    if (out != nullptr && lines_dropped > 0)
      std::fprintf(out, "# %ld further lines left out (VK_TRACE_LINES)\n", lines_dropped);
    if (out != nullptr && out != stderr) std::fclose(out);
  }
} closer;

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (version->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = &GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = &GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
