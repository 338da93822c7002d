// The dependent-dispatch floor under Dawn, measured without Dawn: the smoke kernel (floor.comp)
// recorded straight into Vulkan as chains of dispatches with each kind of synchronization between
// them, timed by GPU timestamps. A diagnostic kept beside docs/results/archive/NOTEBOOK.md's floors, not part of
// refract (build.sh builds it; scripts/measure_gpu.sh's step vk-floor runs it).
//
//   vk_floor SPV [REPEATS] [glsl|dawn]
//
// SPV is floor.comp compiled by glslang (glsl, the default) or refract's smoke kernel as Dawn
// compiled it (dawn: kept by the vk_trace layer's VK_TRACE_SPIRV_DIR; its bindings are the
// WGSL's, params 0, input 1, output 2), so Dawn's own shader can be timed without Dawn.
//
// Every synchronization on a device made plain, then the barriers again on one with
// robustBufferAccess enabled (as Dawn enables it). "Dawn's barrier" is the one refract's Dawn
// records between two dependent dispatches of a pass (read off with the vk_trace layer beside this
// file: one vkCmdPipelineBarrier, compute → compute, one global VkMemoryBarrier with shader read |
// write on both sides, no descriptor set bound again), so that row is Dawn's chain without Dawn.
//
// For each synchronization and grid it records a chain of kShort and one of kLong dispatches in
// one command buffer each and takes (t_long − t_short) / (kLong − kShort): the GPU time a dispatch
// adds, start-up and timestamps cancelled. REPEATS such pairs (default 15); prints the median,
// min and max in µs a dispatch. Before any time is printed, each chain's output is read back
// and checked (out[i] = in[i] · 2 + 1 exactly): a chain that did not run is an error.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kWorkgroup = 256;  // floor.comp's local_size_x
constexpr uint32_t kShort = 16;
constexpr uint32_t kLong = 1040;
constexpr float kScale = 2.0F;
constexpr float kOffset = 1.0F;

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) {
    throw std::runtime_error(std::string(what) + " failed: VkResult " + std::to_string(result));
  }
}

// What separates two consecutive dispatches of a chain.
enum class Sync {
  kNone,          // nothing: the dispatches may overlap (a chain of independent dispatches)
  kExecution,     // a compute→compute execution barrier, no memory barrier
  kMemory,        // + a global memory barrier, shader write → shader read | write
  kBuffer,        // + a buffer memory barrier on the output only, the same access masks
  kMemoryRebind,  // kMemory, and the descriptor set bound again (another set) before each dispatch
  kMemory2,       // kMemory through vkCmdPipelineBarrier2 (synchronization2; Vulkan 1.3 devices)
  kDawn,          // what refract's Dawn records (traced by vk_trace): a global memory barrier,
                  // shader read | write → shader read | write, compute → compute
  kDawnTwoKernels,  // kDawn as Dawn records an op of two kernels (split, then merge): pipeline
                    // bound, the barrier, set bound, dispatch, alternating two pipelines and sets
};

const char* name_of(Sync sync) {
  switch (sync) {
    case Sync::kNone:
      return "none (independent)";
    case Sync::kExecution:
      return "execution barrier";
    case Sync::kMemory:
      return "global memory barrier";
    case Sync::kBuffer:
      return "buffer memory barrier";
    case Sync::kMemory2:
      return "global memory barrier (sync2)";
    case Sync::kMemoryRebind:
      return "global memory barrier + rebind";
    case Sync::kDawn:
      return "Dawn's barrier (rw -> rw)";
    case Sync::kDawnTwoKernels:
      return "Dawn's barrier, two kernels";
  }
  return "?";
}

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
};

// The binding numbers of the kernel's three buffers.
struct Bindings {
  uint32_t input, output, params;
};
constexpr Bindings kGlslBindings{0, 1, 2};  // floor.comp
constexpr Bindings kDawnBindings{1, 2, 0};  // refract's smoke kernel, as Dawn compiles its WGSL

class Probe {
 public:
  Probe(const std::string& spv_path, const Bindings& slots, bool robust);
  ~Probe();
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  std::string device_name() const { return device_name_; }
  bool has_sync2() const { return has_sync2_; }
  bool has_robust2() const { return robust2_; }
  // GPU time in ns of a chain of `dispatches` dispatches of `groups` workgroups; checks the output.
  double chain_ns(Sync sync, uint32_t groups, uint32_t dispatches);

 private:
  uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags wanted) const;
  bool has_extension(const char* name) const;  // a device extension of physical_
  Buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags props);
  void destroy(Buffer& buffer);
  void submit_and_wait();
  void upload(const Buffer& to, const void* data, VkDeviceSize size);
  void check_output(uint32_t count);
  // Records what separates one dispatch of a chain from the next (`sync`).
  void record_sync(Sync sync);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  double ns_per_tick_ = 1.0;
  std::string device_name_;
  bool has_sync2_ = false;  // synchronization2 enabled (the device is Vulkan 1.3)
  bool robust2_ = false;    // robustBufferAccess2 enabled (VK_EXT_robustness2)
  uint32_t max_elements_ = 112 * kWorkgroup;
  Buffer input_, output_, params_, staging_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipelines_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};  // the same shader, twice
  VkShaderModule shader_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet sets_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

// A global memory barrier in `commands`: every `src_access` of `src` before any `dst_access` of
// `dst`.
void memory_barrier(VkCommandBuffer commands, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(commands, src, dst, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// The name of the module's GLCompute entry point (its OpEntryPoint), so that a module compiled by
// Dawn (entry named as in its WGSL) and one by glslang ("main") both load.
std::string entry_point_of(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpEntryPoint = 15;
  constexpr uint32_t kGLCompute = 5;
  for (size_t at = 5; at < words.size();) {  // after SPIR-V's five-word header
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) break;
    if ((words[at] & 0xFFFFU) == kOpEntryPoint && count > 3 && words[at + 1] == kGLCompute) {
      const char* name = reinterpret_cast<const char*>(&words[at + 3]);
      return std::string(name, strnlen(name, (count - 3) * 4));
    }
    at += count;
  }
  throw std::runtime_error("the SPIR-V module has no compute entry point");
}

std::vector<uint32_t> read_spv(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot open " + path);
  const auto size = static_cast<size_t>(in.tellg());
  if (size == 0 || size % 4 != 0) throw std::runtime_error(path + " is not SPIR-V");
  std::vector<uint32_t> words(size / 4);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(size));
  return words;
}

Probe::Probe(const std::string& spv_path, const Bindings& slots, bool robust) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vk_floor";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  check(vkCreateInstance(&instance_info, nullptr, &instance_), "vkCreateInstance");

  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physicals(count);
  check(vkEnumeratePhysicalDevices(instance_, &count, physicals.data()),
        "vkEnumeratePhysicalDevices");
  if (physicals.empty()) throw std::runtime_error("no Vulkan device");
  physical_ = physicals.front();  // a GPU before a CPU implementation, where there are both
  for (VkPhysicalDevice candidate : physicals) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(candidate, &props);
    if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
      physical_ = candidate;
      break;
    }
  }
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_, &props);
  device_name_ = props.deviceName;
  ns_per_tick_ = props.limits.timestampPeriod;

  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families.data());
  bool found = false;
  for (uint32_t i = 0; i < count && !found; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && families[i].timestampValidBits > 0) {
      family_ = i;
      found = true;
    }
  }
  if (!found) throw std::runtime_error("no compute queue with timestamps");

  const float priority = 1.0F;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceFeatures features{};
  features.robustBufferAccess = robust ? VK_TRUE : VK_FALSE;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pEnabledFeatures = &features;
  VkPhysicalDeviceVulkan13Features features13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  features13.synchronization2 = VK_TRUE;
  has_sync2_ = props.apiVersion >= VK_API_VERSION_1_3;
  if (has_sync2_) device_info.pNext = &features13;
  // Dawn enables robustBufferAccess2 too where VK_EXT_robustness2 is there (vk_trace shows it).
  VkPhysicalDeviceRobustness2FeaturesEXT robust2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  const char* robust2_name = VK_EXT_ROBUSTNESS_2_EXTENSION_NAME;
  if (robust && has_extension(robust2_name)) {
    robust2.robustBufferAccess2 = VK_TRUE;
    robust2.pNext = const_cast<void*>(device_info.pNext);
    device_info.pNext = &robust2;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &robust2_name;
    robust2_ = true;
  }
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  check(vkCreateDevice(physical_, &device_info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, family_, 0, &queue_);

  const VkDeviceSize bytes = max_elements_ * sizeof(float);
  const auto storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  input_ = make_buffer(bytes, storage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  output_ = make_buffer(bytes, storage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  params_ = make_buffer(16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  staging_ =
      make_buffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);

  VkDescriptorSetLayoutBinding bindings[3] = {};  // input, output, params, at the module's numbers
  const uint32_t numbers[3] = {slots.input, slots.output, slots.params};
  for (uint32_t i = 0; i < 3; ++i) {
    bindings[i].binding = numbers[i];
    bindings[i].descriptorType =
        i == 2 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_layout_info{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_layout_info.bindingCount = 3;
  set_layout_info.pBindings = bindings;
  check(vkCreateDescriptorSetLayout(device_, &set_layout_info, nullptr, &set_layout_),
        "vkCreateDescriptorSetLayout");
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  check(vkCreatePipelineLayout(device_, &layout_info, nullptr, &pipeline_layout_),
        "vkCreatePipelineLayout");

  const std::vector<uint32_t> code = read_spv(spv_path);
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = code.size() * 4;
  module_info.pCode = code.data();
  check(vkCreateShaderModule(device_, &module_info, nullptr, &shader_), "vkCreateShaderModule");
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = shader_;
  const std::string entry = entry_point_of(code);
  pipeline_info.stage.pName = entry.c_str();
  pipeline_info.layout = pipeline_layout_;
  for (VkPipeline& pipeline : pipelines_) {
    check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline),
          "vkCreateComputePipelines");
  }

  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4},
                                   {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 2;
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = sizes;
  check(vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_), "vkCreateDescriptorPool");
  VkDescriptorSetLayout layouts[2] = {set_layout_, set_layout_};
  VkDescriptorSetAllocateInfo alloc_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc_info.descriptorPool = pool_;
  alloc_info.descriptorSetCount = 2;
  alloc_info.pSetLayouts = layouts;
  check(vkAllocateDescriptorSets(device_, &alloc_info, sets_), "vkAllocateDescriptorSets");
  for (VkDescriptorSet set : sets_) {  // two sets of the same buffers, for kMemoryRebind
    VkDescriptorBufferInfo infos[3] = {{input_.buffer, 0, VK_WHOLE_SIZE},
                                       {output_.buffer, 0, VK_WHOLE_SIZE},
                                       {params_.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[3] = {};
    for (uint32_t i = 0; i < 3; ++i) {
      writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[i].dstSet = set;
      writes[i].dstBinding = numbers[i];
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = bindings[i].descriptorType;
      writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(device_, 3, writes, 0, nullptr);
  }

  VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  query_info.queryCount = 2;
  check(vkCreateQueryPool(device_, &query_info, nullptr, &queries_), "vkCreateQueryPool");
  VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  command_pool_info.queueFamilyIndex = family_;
  check(vkCreateCommandPool(device_, &command_pool_info, nullptr, &command_pool_),
        "vkCreateCommandPool");
  VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  command_info.commandPool = command_pool_;
  command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  command_info.commandBufferCount = 1;
  check(vkAllocateCommandBuffers(device_, &command_info, &commands_), "vkAllocateCommandBuffers");
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");

  std::vector<float> values(max_elements_);
  for (uint32_t i = 0; i < max_elements_; ++i) values[i] = static_cast<float>(i % 1024);
  upload(input_, values.data(), bytes);
}

Probe::~Probe() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    vkDestroyFence(device_, fence_, nullptr);
    vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyQueryPool(device_, queries_, nullptr);
    vkDestroyDescriptorPool(device_, pool_, nullptr);
    for (VkPipeline pipeline : pipelines_) vkDestroyPipeline(device_, pipeline, nullptr);
    vkDestroyShaderModule(device_, shader_, nullptr);
    vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
    vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
    for (Buffer* buffer : {&input_, &output_, &params_, &staging_}) destroy(*buffer);
    vkDestroyDevice(device_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

uint32_t Probe::memory_type(uint32_t bits, VkMemoryPropertyFlags wanted) const {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory);
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((bits & (1U << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  }
  throw std::runtime_error("no memory type with the properties wanted");
}

Buffer Probe::make_buffer(VkDeviceSize size, VkBufferUsageFlags usage,
                          VkMemoryPropertyFlags props) {
  Buffer made;
  made.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device_, &info, nullptr, &made.buffer), "vkCreateBuffer");
  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(device_, made.buffer, &needs);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = needs.size;
  alloc.memoryTypeIndex = memory_type(needs.memoryTypeBits, props);
  check(vkAllocateMemory(device_, &alloc, nullptr, &made.memory), "vkAllocateMemory");
  check(vkBindBufferMemory(device_, made.buffer, made.memory, 0), "vkBindBufferMemory");
  return made;
}

void Probe::destroy(Buffer& buffer) {
  vkDestroyBuffer(device_, buffer.buffer, nullptr);
  vkFreeMemory(device_, buffer.memory, nullptr);
  buffer = Buffer{};
}

void Probe::submit_and_wait() {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  check(vkResetFences(device_, 1, &fence_), "vkResetFences");
  check(vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
  check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, 60'000'000'000ULL), "vkWaitForFences");
}

void Probe::upload(const Buffer& to, const void* data, VkDeviceSize size) {
  void* mapped = nullptr;
  check(vkMapMemory(device_, staging_.memory, 0, size, 0, &mapped), "vkMapMemory");
  std::memcpy(mapped, data, size);
  vkUnmapMemory(device_, staging_.memory);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  check(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
  memory_barrier(commands_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferCopy region{0, 0, size};
  vkCmdCopyBuffer(commands_, staging_.buffer, to.buffer, 1, &region);
  check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  submit_and_wait();
}

void Probe::check_output(uint32_t count) {
  const VkDeviceSize bytes = count * sizeof(float);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  check(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
  memory_barrier(commands_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  VkBufferCopy region{0, 0, bytes};
  vkCmdCopyBuffer(commands_, output_.buffer, staging_.buffer, 1, &region);
  memory_barrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  submit_and_wait();
  void* mapped = nullptr;
  check(vkMapMemory(device_, staging_.memory, 0, bytes, 0, &mapped), "vkMapMemory");
  std::vector<float> out(count);
  std::memcpy(out.data(), mapped, bytes);
  vkUnmapMemory(device_, staging_.memory);
  for (uint32_t i = 0; i < count; ++i) {
    const float want = static_cast<float>(i % 1024) * kScale + kOffset;
    if (out[i] != want) {
      throw std::runtime_error("output " + std::to_string(i) + " is " + std::to_string(out[i]) +
                               ", want " + std::to_string(want));
    }
  }
}

bool Probe::has_extension(const char* name) const {
  uint32_t count = 0;
  check(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, nullptr),
        "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> extensions(count);
  check(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, extensions.data()),
        "vkEnumerateDeviceExtensionProperties");
  for (const VkExtensionProperties& extension : extensions)
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  return false;
}

void Probe::record_sync(Sync sync) {
  constexpr VkAccessFlags kWrite = VK_ACCESS_SHADER_WRITE_BIT;
  constexpr VkAccessFlags kReadWrite = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  constexpr VkPipelineStageFlags kCompute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  switch (sync) {
    case Sync::kNone:
      return;
    case Sync::kExecution:
      vkCmdPipelineBarrier(commands_, kCompute, kCompute, 0, 0, nullptr, 0, nullptr, 0, nullptr);
      return;
    case Sync::kMemory:
    case Sync::kMemoryRebind:
      memory_barrier(commands_, kCompute, kWrite, kCompute, kReadWrite);
      return;
    case Sync::kDawn:
    case Sync::kDawnTwoKernels:
      memory_barrier(commands_, kCompute, kReadWrite, kCompute, kReadWrite);
      return;
    case Sync::kBuffer: {
      VkBufferMemoryBarrier buffer{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
      buffer.srcAccessMask = kWrite;
      buffer.dstAccessMask = kReadWrite;
      buffer.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      buffer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      buffer.buffer = output_.buffer;
      buffer.size = VK_WHOLE_SIZE;
      vkCmdPipelineBarrier(commands_, kCompute, kCompute, 0, 0, nullptr, 1, &buffer, 0, nullptr);
      return;
    }
    case Sync::kMemory2: {
      if (!has_sync2_) throw std::runtime_error("synchronization2 needs a Vulkan 1.3 device");
      VkMemoryBarrier2 memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
      memory.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
      memory.srcAccessMask = VK_ACCESS_2_SHADER_WRITE_BIT;
      memory.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
      memory.dstAccessMask = VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT;
      VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
      dependency.memoryBarrierCount = 1;
      dependency.pMemoryBarriers = &memory;
      vkCmdPipelineBarrier2(commands_, &dependency);
      return;
    }
  }
}

double Probe::chain_ns(Sync sync, uint32_t groups, uint32_t dispatches) {
  const uint32_t count = groups * kWorkgroup;
  if (count > max_elements_) throw std::runtime_error("grid larger than the buffers");
  const uint32_t params[4] = {count, std::bit_cast<uint32_t>(kScale),
                              std::bit_cast<uint32_t>(kOffset), 0};
  upload(params_, params, sizeof(params));
  const std::vector<float> zeros(count, 0.0F);
  upload(output_, zeros.data(), count * sizeof(float));  // so the check sees this chain's work

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
  vkCmdResetQueryPool(commands_, queries_, 0, 2);
  memory_barrier(
      commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT);
  vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[0]);
  vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1,
                          &sets_[0], 0, nullptr);
  vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 0);
  const bool two_kernels = sync == Sync::kDawnTwoKernels;
  for (uint32_t d = 0; d < dispatches; ++d) {
    if (d > 0 && two_kernels) {
      vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[d % 2]);
    }
    if (d > 0) record_sync(sync);
    if (sync == Sync::kMemoryRebind || two_kernels) {
      vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1,
                              &sets_[d % 2], 0, nullptr);
    }
    vkCmdDispatch(commands_, groups, 1, 1);
  }
  vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 1);
  check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  submit_and_wait();
  uint64_t ticks[2] = {0, 0};
  check(vkGetQueryPoolResults(device_, queries_, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  check_output(count);
  if (ticks[1] <= ticks[0]) throw std::runtime_error("timestamps not increasing");
  return static_cast<double>(ticks[1] - ticks[0]) * ns_per_tick_;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: vk_floor SPV [REPEATS] [glsl|dawn]\n");
    return 2;
  }
  int repeats = 15;
  if (argc > 2) {  // a whole positive count, nothing after it ("3x" and "1e3" are refused)
    char* end = nullptr;
    const long parsed = std::strtol(argv[2], &end, 10);
    repeats = end != argv[2] && *end == '\0' && parsed <= 1000 ? static_cast<int>(parsed) : 0;
  }
  if (repeats < 1) {
    std::fprintf(stderr, "vk_floor: REPEATS must be a whole count from 1 to 1000\n");
    return 2;
  }
  const std::string origin = argc > 3 ? argv[3] : "glsl";
  if (origin != "glsl" && origin != "dawn") {
    std::fprintf(stderr, "vk_floor: the module's origin is glsl (floor.comp) or dawn\n");
    return 2;
  }
  const Bindings& slots = origin == "dawn" ? kDawnBindings : kGlslBindings;
  try {
    for (bool robust : {false, true}) {
      Probe probe(argv[1], slots, robust);
      std::printf(
          "# device: %s%s; a dispatch's GPU time = (t(%u) - t(%u)) / %u dispatches, "
          "%d repeats: median [min, max] us\n",
          probe.device_name().c_str(),
          !robust                ? ""
          : probe.has_robust2() ? ", robustBufferAccess and robustBufferAccess2 on"
                                : ", robustBufferAccess on",
          kLong, kShort,
          kLong - kShort, repeats);
      std::vector<Sync> syncs =
          robust ? std::vector<Sync>{Sync::kDawn, Sync::kDawnTwoKernels, Sync::kMemory,
                                     Sync::kBuffer}
                 : std::vector<Sync>{Sync::kNone, Sync::kExecution, Sync::kMemory, Sync::kBuffer,
                                     Sync::kMemoryRebind, Sync::kDawn, Sync::kDawnTwoKernels};
      if (!robust && probe.has_sync2()) syncs.push_back(Sync::kMemory2);
      for (Sync sync : syncs) {
        for (uint32_t groups : {1U, 32U, 112U}) {
          std::vector<double> per_dispatch_us;
          for (int r = 0; r < repeats; ++r) {
            const double shorter = probe.chain_ns(sync, groups, kShort);
            const double longer = probe.chain_ns(sync, groups, kLong);
            const double us = (longer - shorter) / (kLong - kShort) / 1000.0;
            if (!(us > 0.0)) throw std::runtime_error("a dispatch's time is not positive");
            per_dispatch_us.push_back(us);
          }
          std::sort(per_dispatch_us.begin(), per_dispatch_us.end());
          std::printf("%-32s %4u workgroups  %7.3f [%7.3f, %7.3f]\n", name_of(sync), groups,
                      per_dispatch_us[per_dispatch_us.size() / 2], per_dispatch_us.front(),
                      per_dispatch_us.back());
        }
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "vk_floor: %s\n", error.what());
    return 1;
  }
  return 0;
}
