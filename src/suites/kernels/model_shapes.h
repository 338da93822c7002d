// The two models of docs/KERNELS.md and the phases a kernel row is measured in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace refract::suites::kernels {

/// A transformer's sizes (docs/KERNELS.md "Model shapes").
struct ModelConfig {
  std::string name;           ///< "qwen2.5-0.5b", "embeddinggemma2"
  uint32_t hidden = 0;        ///< model width D
  uint32_t heads = 0;         ///< query heads
  uint32_t head_dim = 0;      ///< per head
  uint32_t kv_heads = 0;      ///< key/value heads (GQA)
  uint32_t intermediate = 0;  ///< FFN width
  uint32_t vocab = 0;
  uint32_t layers = 0;
  float norm_eps = 1e-6f;   ///< RMSNorm epsilon
  float rope_theta = 1e6f;  ///< RoPE base
  std::string activation;   ///< "silu" (SwiGLU) or "gelu" (gated GELU-tanh)
  uint32_t output_dim = 0;  ///< the head's output width (embedding models); 0 = vocab
};

/// Qwen2.5-0.5B: 896 wide, 14 × 64 heads, 2 KV heads, FFN 4864, vocab 151,936, 24 layers.
const ModelConfig& Qwen25();
/// EmbeddingGemma 2's text encoder (local layers): 512 wide, 4 × 256 heads, 2 KV heads,
/// FFN 2048, vocab 262,144, output 768.
const ModelConfig& EmbeddingGemma2();

/// Every model by name; throws UsageError naming the known ones for anything else.
const ModelConfig& ModelByName(const std::string& name);
std::vector<std::string> ModelNames();

/// One matmul of a model: Y[M, N] = X[M, K] · Wᵀ, W being N × K (output × input).
struct MatmulOp {
  std::string name;  ///< "q", "k", "v", "o", "gate", "up", "down", "lm-head"
  uint32_t n = 0;    ///< output features
  uint32_t k = 0;    ///< input features
};

/// Every matmul of one layer plus the head, in docs/KERNELS.md's order.
std::vector<MatmulOp> MatmulOps(const ModelConfig& model);

}  // namespace refract::suites::kernels
