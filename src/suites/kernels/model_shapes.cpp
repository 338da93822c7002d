#include "suites/kernels/model_shapes.h"

#include "base/error.h"

namespace refract::suites::kernels {

const ModelConfig& Qwen25() {
  static const ModelConfig kModel = {.name = "qwen2.5-0.5b",
                                     .hidden = 896,
                                     .heads = 14,
                                     .head_dim = 64,
                                     .kv_heads = 2,
                                     .intermediate = 4864,
                                     .vocab = 151936,
                                     .layers = 24,
                                     .norm_eps = 1e-6f,
                                     .rope_theta = 1e6f,
                                     .activation = "silu"};
  return kModel;
}

const ModelConfig& EmbeddingGemma2() {
  static const ModelConfig kModel = {.name = "embeddinggemma2",
                                     .hidden = 512,
                                     .heads = 4,
                                     .head_dim = 256,
                                     .kv_heads = 2,
                                     .intermediate = 2048,
                                     .vocab = 262144,
                                     .layers = 24,
                                     .norm_eps = 1e-6f,
                                     .rope_theta = 1e4f,
                                     .activation = "gelu",
                                     .output_dim = 768};
  return kModel;
}

std::vector<std::string> ModelNames() { return {Qwen25().name, EmbeddingGemma2().name}; }

const ModelConfig& ModelByName(const std::string& name) {
  if (name == Qwen25().name) return Qwen25();
  if (name == EmbeddingGemma2().name) return EmbeddingGemma2();
  throw UsageError("unknown model '" + name + "': known models are qwen2.5-0.5b, embeddinggemma2");
}

std::vector<MatmulOp> MatmulOps(const ModelConfig& m) {
  const uint32_t q_width = m.heads * m.head_dim;
  const uint32_t kv_width = m.kv_heads * m.head_dim;
  const uint32_t head = m.output_dim != 0 ? m.output_dim : m.vocab;
  return {
      {"q", q_width, m.hidden},           {"k", kv_width, m.hidden},
      {"v", kv_width, m.hidden},          {"o", m.hidden, q_width},
      {"gate", m.intermediate, m.hidden}, {"up", m.intermediate, m.hidden},
      {"down", m.hidden, m.intermediate}, {head == m.vocab ? "lm-head" : "head", head, m.hidden}};
}

}  // namespace refract::suites::kernels
