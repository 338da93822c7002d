#include "suites/kernels/model_shapes.h"

#include "base/error.h"

namespace refract::suites::kernels {

namespace {

// docs/KERNELS.md "Model shapes", one model a line.
// clang-format off
const ModelConfig kModels[] = {
  // name              hidden heads head_dim kv  ffn   vocab   layers eps    theta activation out
  {"qwen2.5-0.5b",     896,   14,   64,      2,  4864, 151936, 24,    1e-6f, 1e6f, "silu",    0},
  {"embeddinggemma2",  512,   4,    256,     2,  2048, 262144, 24,    1e-6f, 1e4f, "gelu",    768},
};
// clang-format on

}  // namespace

const ModelConfig& Qwen25() { return kModels[0]; }

const ModelConfig& EmbeddingGemma2() { return kModels[1]; }

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
