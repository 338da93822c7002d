#include "suites/kernels/matmul_config.h"

#include <algorithm>

#include "base/error.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

// The model's matmuls with identical (N, K) merged into one shape named "a+b".
std::vector<MatmulOp> DistinctOps(const ModelConfig& model) {
  std::vector<MatmulOp> distinct;
  for (const MatmulOp& op : MatmulOps(model)) {
    bool merged = false;
    for (MatmulOp& seen : distinct) {
      if (seen.n == op.n && seen.k == op.k) {
        seen.name += "+" + op.name;
        merged = true;
      }
    }
    if (!merged) distinct.push_back(op);
  }
  return distinct;
}

}  // namespace

std::vector<MatmulShape> MatmulCatalogShapes() {
  std::vector<MatmulShape> shapes;
  auto add_model = [&](const ModelConfig& model, std::initializer_list<uint32_t> ms) {
    for (uint32_t m : ms) {
      for (const MatmulOp& op : DistinctOps(model)) {
        shapes.push_back({model.name, op.name, m, op.k, op.n});
      }
    }
  };
  add_model(Qwen25(), {1, 50, 2048});
  add_model(EmbeddingGemma2(), {1, 128});
  shapes.push_back({"reference", "square", 4096, 4096, 4096});
  shapes.push_back({"reference", "ffn", 1, 4096, 14336});
  return shapes;
}

GemmConfig DefaultGemmConfig(const MatmulShape& shape, bool q4, uint32_t workgroup_storage_bytes) {
  // The largest tiles that still give the device about a workgroup a multiprocessor (128 on
  // the H200's 132); small products (prefill of 50 tokens) get 32 × 32 tiles of 64 threads.
  const uint32_t bk = q4 ? 32u : 16u;
  const GemmConfig tiers[] = {
      {.bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 8},
      {.bm = 64, .bn = 64, .bk = bk, .tm = 4, .tn = 4},
      {.bm = 32, .bn = 32, .bk = bk, .tm = 4, .tn = 4},
  };
  GemmConfig config = tiers[2];
  for (const GemmConfig& tier : tiers) {
    const uint64_t groups =
        uint64_t{(shape.m + tier.bm - 1) / tier.bm} * ((shape.n + tier.bn - 1) / tier.bn);
    if (groups >= 128) {
      config = tier;
      break;
    }
  }
  if (config.TileBytes() > workgroup_storage_bytes) config.a_pad = 0;
  return config;
}

GemvConfig DefaultGemvConfig(bool q4, uint32_t n, bool cpu) {
  // q4 on the H200 (2026-12-01, x staged in workgroup memory, docs/MEASURING.md), 256 threads:
  // 2 rows a thread for 14336 and 151936 rows (21.5 and 62.9 µs; 1 row: 23.8 and 76.0), 1 row for
  // 4864 and 896 (5.3 and 8.4 µs; 2 rows: 5.5 and 10.9): a narrow matrix needs the workgroups
  // that more rows a thread would merge. On lavapipe (2 cores) 4 rows a thread took every
  // decode shape 1.7-2.3x less time than 1 row (14336 rows: 45.5 against 88.1 ms).
  uint32_t rows = 2;
  if (q4) rows = cpu ? 4u : (n >= 8192 ? 2u : 1u);
  return GemvConfig{.wg = 256, .tpr = 32, .rows = rows};
}

MatmulOverrides ParseMatmulOverrides(const std::map<std::string, double>& overrides, bool q4) {
  MatmulOverrides configs;
  if (overrides.empty()) return configs;
  static const std::vector<std::string> kKnown = {"WG", "TPR", "ROWS", "BM",   "BN",
                                                  "BK", "TM",  "TN",   "A_PAD"};
  for (const auto& [name, value] : overrides) {
    if (std::find(kKnown.begin(), kKnown.end(), name) == kKnown.end()) {
      throw UsageError("the matmuls know no override '" + name +
                       "' (WG, TPR, ROWS for the GEMV; BM, BN, BK, TM, TN, A_PAD for the GEMM)");
    }
  }
  auto get = [&](const char* name, uint32_t fallback) {
    auto found = overrides.find(name);
    return found == overrides.end() ? fallback : static_cast<uint32_t>(found->second);
  };
  if (overrides.contains("WG") || overrides.contains("TPR") || overrides.contains("ROWS")) {
    const GemvConfig gemv{};
    configs.gemv = GemvConfig{
        .wg = get("WG", gemv.wg), .tpr = get("TPR", gemv.tpr), .rows = get("ROWS", gemv.rows)};
  }
  if (overrides.contains("BM") || overrides.contains("BN")) {
    const GemmConfig gemm{.bk = q4 ? 32u : 16u};
    configs.gemm = GemmConfig{.bm = get("BM", gemm.bm),
                              .bn = get("BN", gemm.bn),
                              .bk = get("BK", gemm.bk),
                              .tm = get("TM", gemm.tm),
                              .tn = get("TN", gemm.tn),
                              .a_pad = get("A_PAD", gemm.a_pad)};
  }
  return configs;
}

}  // namespace refract::suites::kernels
