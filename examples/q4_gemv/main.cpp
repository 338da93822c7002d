// What an engine does with a refract profile store on the device it runs on: compute the
// adapter's key from what Dawn says the adapter is, ask the store for the q4 GEMV configuration
// (refract's matmul-q4 on int8 activations, `tuned-q8`) at its own N × K, check the entry
// against the kernel files it will compile, and run the kernel once with that configuration —
// the activation quantizer, then the GEMV — through Dawn, checking both results on the CPU.
//
//   q4_gemv STORE N K [KERNEL_DIR]
//
// KERNEL_DIR (default: the installed package's refract_KERNEL_DIR) holds refract's WGSL files.
// An entry whose stamp differs from them (another Dawn, another kernel text) is stale: the
// built-in default runs instead, and the output says why. Exit 0: verified; 1: a result was
// wrong or Dawn failed; 2: a bad argument or a store that cannot be read.
#include <refract/profile.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dawn_compute.h"

namespace {

using example::Buffer;
using example::DawnCompute;

constexpr uint32_t kBlock = 32;         // activations and weights are quantized in blocks of 32
constexpr uint32_t kMaxGroups = 65535;  // WebGPU's default workgroups a dimension
constexpr uint32_t kQuantizerWorkgroup = 64;

/// The GEMV's axes (refract's GemvConfig): invocations a workgroup, invocations along K a row,
/// rows an invocation, row sums through subgroups (1) or workgroup memory (0).
struct Config {
  uint32_t wg = 256, tpr = 32, rows = 1, subgroups = 0;
};

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

/// `text` as a whole decimal number, or -1 when it is not one.
long WholeNumber(const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return end != text && *end == '\0' ? value : -1;
}

/// Why the profile's configuration cannot run here, or "" when it can.
std::string Unusable(const std::map<std::string, uint32_t>& params, const example::AdapterInfo& a,
                     Config& config) {
  for (const char* axis : {"wg", "tpr", "rows", "subgroups"}) {
    if (!params.contains(axis)) return std::string("the entry has no axis '") + axis + "'";
  }
  config = {params.at("wg"), params.at("tpr"), params.at("rows"), params.at("subgroups")};
  const bool power_of_two = config.tpr > 0 && (config.tpr & (config.tpr - 1)) == 0;
  if (!power_of_two || config.wg < config.tpr || config.wg % config.tpr != 0) {
    return "wg " + std::to_string(config.wg) + " and tpr " + std::to_string(config.tpr) +
           " do not make whole row groups";
  }
  if (config.wg > a.max_invocations) {
    return "wg " + std::to_string(config.wg) + " is over the device's " +
           std::to_string(a.max_invocations) + " invocations a workgroup";
  }
  if (config.rows < 1 || config.rows > 8) return "rows must be 1 to 8";
  // The workgroup-memory row sums (llm_gemv_reduce_workgroup_part.wgsl): WG · ROWS floats.
  if (config.subgroups == 0 && uint64_t{config.wg} * config.rows * 4 > a.max_workgroup_bytes) {
    return "the row sums need more workgroup memory than the device's " +
           std::to_string(a.max_workgroup_bytes) + " bytes";
  }
  if (config.subgroups == 1 && (!a.has_subgroups || config.tpr > a.subgroup_min_size)) {
    return "subgroup sums need the subgroups feature and tpr ≤ the smallest subgroup";
  }
  return "";
}

/// The configuration to run: the store's for this adapter and shape when it is fresh for the
/// files in `kernel_dir`, else the built-in default. Says which on stdout.
Config ChooseConfig(const refract::profile::Store& store, const std::string& adapter_key,
                    const example::AdapterInfo& adapter, uint32_t n, uint32_t k,
                    const std::string& kernel_dir) {
  Config fallback;
  fallback.subgroups = adapter.has_subgroups && fallback.tpr <= adapter.subgroup_min_size;
  refract::profile::Query query{.adapter_key = adapter_key,
                                .kernel = "matmul-q4",
                                .variant = "tuned-q8",
                                .shape = {{"m", 1}, {"n", n}, {"k", k}},
                                .dawn_package = REFRACT_DAWN_PACKAGE};
  const refract::profile::Answer answer = refract::profile::Lookup(store, query);
  for (const refract::profile::Stale& stale : answer.stale) {
    std::cout << "stale: " << stale.problem << ": " << stale.reason << "\n";
  }
  std::string why_not = answer.note;
  if (answer.choice) {
    // The entry holds only for the kernel texts it was measured with.
    std::vector<refract::profile::KernelText> texts;
    std::string missing;
    for (const std::string& name : answer.entry->stamp.kernels) {
      try {
        texts.push_back({name, ReadFile(kernel_dir + "/" + name + ".wgsl")});
      } catch (const std::runtime_error&) {
        missing = name;
      }
    }
    query.kernel_hash = refract::profile::KernelHash(texts);
    Config config;
    if (!missing.empty()) {
      why_not = answer.entry->problem + " names a kernel this folder lacks: " + missing;
    } else if (auto stale = refract::profile::StaleReason(*answer.entry, query)) {
      why_not = answer.entry->problem + " is stale here: " + *stale;
    } else if (std::string unusable = Unusable(answer.choice->params, adapter, config);
               !unusable.empty()) {
      why_not = answer.entry->problem + " cannot run here: " + unusable;
    } else {
      std::cout << "configuration: profile, " << (answer.exact ? "exact" : "nearest") << ": "
                << answer.note << " (measured " << answer.choice->median_ms * 1000
                << " us a dispatch)\n";
      return config;
    }
  }
  std::cout << "configuration: built-in default: " << why_not << "\n";
  return fallback;
}

/// A deterministic generator of test data (the same on every run).
struct Random {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  uint32_t Next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  }
  float Uniform(float low, float high) { return low + (high - low) * (Next() % 65536) / 65536.0f; }
};

/// The q4 weights in MatMulNBits' layout: row n, block b is 16 bytes, byte i holding element
/// 2i in its low nibble and 2i + 1 in its high one; value = (code − 8) × scale[n · blocks + b].
struct Weights {
  std::vector<uint8_t> codes;  ///< [N · blocks · 16] bytes
  std::vector<float> scales;   ///< [N · blocks]
  int Code(uint32_t blocks, uint32_t n, uint32_t k) const {
    const uint8_t byte = codes[(size_t{n} * blocks + k / kBlock) * 16 + (k % kBlock) / 2];
    return k % 2 == 0 ? byte & 0xF : byte >> 4;
  }
};

Weights MakeWeights(uint32_t n, uint32_t k, Random& random) {
  const uint32_t blocks = (k + kBlock - 1) / kBlock;
  Weights w{std::vector<uint8_t>(size_t{n} * blocks * 16), std::vector<float>(size_t{n} * blocks)};
  for (uint32_t row = 0; row < n; ++row) {
    for (uint32_t e = 0; e < blocks * kBlock; ++e) {
      const uint32_t code = e < k ? random.Next() % 16 : 8;  // past K: weight 0
      w.codes[(size_t{row} * blocks + e / kBlock) * 16 + (e % kBlock) / 2] |=
          static_cast<uint8_t>(e % 2 == 0 ? code : code << 4);
    }
  }
  for (float& scale : w.scales) scale = random.Uniform(0.005f, 0.02f);
  return w;
}

/// The quantizer's output against its contract (refract's llm_quantize_q8_part.wgsl): per block
/// d = max|x| / 127 and codes round(x / d); WGSL's division need not be correctly rounded, so a
/// code may be either neighbour where x / d is within a rounding error of a tie. Σq exact.
std::string CheckQuantizer(const std::vector<float>& x, const std::vector<int8_t>& q,
                           const std::vector<float>& d, const std::vector<float>& sums) {
  const size_t blocks = d.size();
  for (size_t b = 0; b < blocks; ++b) {
    float amax = 0;
    for (size_t i = b * kBlock; i < std::min(x.size(), (b + 1) * kBlock); ++i) {
      amax = std::max(amax, std::fabs(x[i]));
    }
    const double expect_d = amax / 127.0;
    if (std::fabs(d[b] - expect_d) > 1e-6 * expect_d) {
      return "block " + std::to_string(b) + ": scale " + std::to_string(d[b]) + ", expected " +
             std::to_string(expect_d);
    }
    long sum = 0;
    for (size_t i = b * kBlock; i < (b + 1) * kBlock; ++i) {
      sum += q[i];
      const double scaled = i < x.size() && d[b] > 0 ? x[i] / static_cast<double>(d[b]) : 0.0;
      const double nearest = std::clamp(std::nearbyint(scaled), -127.0, 127.0);
      const bool near_tie = std::fabs(std::fabs(scaled - std::floor(scaled)) - 0.5) < 1e-4;
      if (q[i] != nearest && !(near_tie && std::fabs(q[i] - scaled) < 0.5 + 1e-4)) {
        return "element " + std::to_string(i) + ": code " + std::to_string(q[i]) + " for " +
               std::to_string(scaled) + " steps of the scale";
      }
    }
    if (sums[b] != static_cast<float>(sum)) {
      return "block " + std::to_string(b) + ": code sum " + std::to_string(sums[b]) +
             ", the codes add to " + std::to_string(sum);
    }
  }
  return "";
}

int Run(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::cerr << "usage: q4_gemv STORE N K [KERNEL_DIR]\n";
    return 2;
  }
  const long n_arg = WholeNumber(argv[2]), k_arg = WholeNumber(argv[3]);
  if (n_arg < 1 || k_arg < 1 || n_arg > (1 << 20) || k_arg > (1 << 16)) {
    std::cerr << "q4_gemv: N must be a whole number from 1 to 1048576 and K from 1 to 65536\n";
    return 2;
  }
  if (uint64_t(n_arg) * uint64_t(k_arg) / 2 > (uint64_t{1} << 30)) {
    std::cerr << "q4_gemv: N × K = " << n_arg * k_arg
              << " weights: more than the 1 GiB of q4 codes this example allows\n";
    return 2;
  }
  const auto n = static_cast<uint32_t>(n_arg), k = static_cast<uint32_t>(k_arg);
  const std::string kernel_dir = argc > 4 ? argv[4] : REFRACT_KERNEL_DIR;
  refract::profile::Store store;
  try {
    store = refract::profile::LoadStore(argv[1]);
  } catch (const refract::profile::ProfileError& error) {
    std::cerr << "q4_gemv: " << error.what() << "\n";
    return 2;
  }

  DawnCompute gpu;
  const example::AdapterInfo& a = gpu.adapter();
  const std::string key =
      refract::profile::AdapterKeyOf({.vendor = a.vendor,
                                      .architecture = a.architecture,
                                      .device = a.device,
                                      .vendor_id = a.vendor_id,
                                      .device_id = a.device_id,
                                      .driver = a.description,
                                      .backend = "vulkan",
                                      .subgroup_min_size = a.subgroup_min_size,
                                      .subgroup_max_size = a.subgroup_max_size});
  std::cout << "adapter: " << key << "\n";
  const Config c = ChooseConfig(store, key, a, n, k, kernel_dir);
  std::cout << "  wg " << c.wg << ", tpr " << c.tpr << ", rows " << c.rows << ", subgroups "
            << c.subgroups << "\n";

  // The kernels, composed as refract composes them (each file's header says its parts).
  auto text = [&](const char* name) { return ReadFile(kernel_dir + "/" + name + ".wgsl") + "\n"; };
  const std::string gemv_source =
      text("llm_dp4a_part") +
      text(c.subgroups ? "llm_gemv_reduce_subgroup_part" : "llm_gemv_reduce_workgroup_part") +
      text("llm_gemv_common_part") + text("llm_gemv_q8_input_part") +
      text("llm_matmul_q4_tuned_gemv_q8") + text("llm_gemv_q8_store_part");
  WGPUComputePipeline quantizer =
      gpu.Compile(text("llm_quantize_block_workgroup_part") + text("llm_quantize_q8_part") +
                      text("llm_quantize_q8"),
                  {{"WG", kQuantizerWorkgroup}});
  WGPUComputePipeline gemv =
      gpu.Compile(gemv_source, {{"WG", c.wg}, {"TPR", c.tpr}, {"ROWS", c.rows}});

  Random random;
  const uint32_t blocks = (k + kBlock - 1) / kBlock;
  std::vector<float> x(k);
  for (float& v : x) v = random.Uniform(-1.0f, 1.0f);
  const Weights w = MakeWeights(n, k, random);
  const uint32_t quantizer_params[2] = {k, blocks};
  const uint32_t gemv_params[3] = {1, k, n};  // M, K, N

  Buffer x_buffer = gpu.Storage(x.data(), x.size() * 4);
  Buffer codes = gpu.Storage(nullptr, size_t{blocks} * kBlock);
  Buffer scale_sums = gpu.Storage(nullptr, size_t{blocks} * 8);
  Buffer weights = gpu.Storage(w.codes.data(), w.codes.size());
  Buffer scales = gpu.Storage(w.scales.data(), w.scales.size() * 4);
  Buffer y_buffer = gpu.Storage(nullptr, size_t{n} * 4);
  Buffer q_uniform = gpu.Uniform(quantizer_params, sizeof quantizer_params);
  Buffer g_uniform = gpu.Uniform(gemv_params, sizeof gemv_params);

  auto grid = [](uint64_t workgroups) {
    const auto x = static_cast<uint32_t>(std::min<uint64_t>(workgroups, kMaxGroups));
    return std::pair{x, static_cast<uint32_t>((workgroups + x - 1) / x)};
  };
  const auto [qx, qy] =
      grid((uint64_t{blocks} * 4 + kQuantizerWorkgroup - 1) / kQuantizerWorkgroup);
  const uint32_t rows_per_workgroup = c.wg / c.tpr * c.rows;
  const auto [gx, gy] = grid((n + rows_per_workgroup - 1) / rows_per_workgroup);
  gpu.Run({{quantizer, {&x_buffer, &codes, &scale_sums, &q_uniform}, qx, qy},
           {gemv, {&codes, &weights, &scales, &y_buffer, &g_uniform, &scale_sums}, gx, gy}});

  // The quantizer's output, unpacked from dot4I8Packed's pairing (words A0 B0 A1 B1 … a block:
  // Aj the codes 8j, 8j + 2, 8j + 4, 8j + 6, Bj the odd ones, lowest byte first).
  const std::vector<uint8_t> code_bytes = gpu.Read(codes, size_t{blocks} * kBlock);
  const std::vector<uint8_t> sum_bytes = gpu.Read(scale_sums, size_t{blocks} * 8);
  const std::vector<uint8_t> y_bytes = gpu.Read(y_buffer, size_t{n} * 4);
  std::vector<int8_t> q(size_t{blocks} * kBlock);
  std::vector<float> d(blocks), sums(blocks), y(n);
  for (size_t e = 0; e < q.size(); ++e) {
    const size_t b = e / kBlock, i = e % kBlock, j = i / 8, within = i % 8;
    const size_t word = b * 8 + 2 * j + within % 2;
    q[e] = static_cast<int8_t>(code_bytes[word * 4 + within / 2]);
  }
  for (uint32_t b = 0; b < blocks; ++b) {
    std::memcpy(&d[b], &sum_bytes[b * 8], 4);
    std::memcpy(&sums[b], &sum_bytes[b * 8 + 4], 4);
  }
  std::memcpy(y.data(), y_bytes.data(), y_bytes.size());

  if (std::string wrong = CheckQuantizer(x, q, d, sums); !wrong.empty()) {
    std::cout << "quantizer: WRONG: " << wrong << "\n";
    return 1;
  }
  std::cout << "quantizer: ok (" << blocks << " blocks)\n";
  // The GEMV on the quantizer's actual output: Σ_b scale · d_b · Σ (code − 8) q, exact but for
  // the f32 products and sums (a tolerance of 1e-4 of the terms' magnitude).
  double worst = 0, worst_f32 = 0, largest = 0;
  for (uint32_t row = 0; row < n; ++row) {
    double expect = 0, magnitude = 0, f32_model = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
      long dot = 0;
      for (uint32_t e = b * kBlock; e < std::min(k, (b + 1) * kBlock); ++e) {
        dot += long{w.Code(blocks, row, e) - 8} * q[e];
        f32_model +=
            double{w.scales[size_t{row} * blocks + b]} * (w.Code(blocks, row, e) - 8) * x[e];
      }
      const double term = double{w.scales[size_t{row} * blocks + b]} * d[b] * dot;
      expect += term;
      magnitude += std::fabs(term);
    }
    const double error = std::fabs(y[row] - expect);
    if (!std::isfinite(y[row]) || error > 1e-4 * magnitude + 1e-30) {
      std::cout << "gemv: WRONG: row " << row << " is " << y[row] << ", expected " << expect
                << " (error " << error << ", tolerance " << 1e-4 * magnitude << ")\n";
      return 1;
    }
    worst = std::max(worst, magnitude > 0 ? error / magnitude : 0.0);
    worst_f32 = std::max(worst_f32, std::fabs(y[row] - f32_model));
    largest = std::max(largest, std::fabs(f32_model));
  }
  std::cout << "gemv: ok (" << n << " rows, largest error " << worst
            << " of the terms' magnitude; tolerance 1e-4)\n";
  std::cout << "against f32 activations: largest deviation " << worst_f32 / std::max(largest, 1e-30)
            << " of the largest output\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "q4_gemv: " << error.what() << "\n";
    return 1;
  }
}
