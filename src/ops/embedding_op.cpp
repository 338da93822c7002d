#include "ops/op_kinds.h"

#include <string_view>
#include <type_traits>

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

/// Seed 003's embedding uniform {seq_len, hidden_size}, padded to 16 bytes.
struct EmbeddingParams {
  uint32_t seq_len, hidden, padding[2];
};

Kernel Compile(gpu::Context& context, const EmbeddingShape& s, const char* file,
               std::string_view entry, std::map<std::string, double> constants,
               const std::string& label) {
  return {.pipelines = {CompileKernel(context, {file}, label, entry, std::move(constants))},
          .buffers = {gpu::Uniform(context, EmbeddingParams{s.tokens, s.hidden, {}})}};
}

Kernel BaselineCompile(gpu::Context& context, const EmbeddingShape& s, const NoConfig&,
                       const std::string& label) {
  return Compile(context, s, "llm_embedding_baseline", "main", {}, label);
}

Kernel TunedCompile(gpu::Context& context, const EmbeddingShape& s, const EmbeddingConfig& c,
                    const std::string& label) {
  const std::string_view entry = s.hidden % 4 == 0 ? "main_vec4" : "main_scalar";
  return Compile(context, s, "llm_embedding_tuned", entry, {{"WG", c.wg}}, label);
}

// The baseline: an element a thread; the tuned kernel: 4 elements an invocation of `wg`.
template <typename Config>
std::vector<gpu::Dispatch> Record(gpu::Context& context, const Kernel& k, const EmbeddingShape& s,
                                  [[maybe_unused]] const Config& c, const EmbeddingBuffers& b) {
  const uint64_t values = uint64_t{s.tokens} * s.hidden;
  uint32_t groups = gpu::GroupsFor(values, 256);
  if constexpr (std::is_same_v<Config, EmbeddingConfig>) {
    groups = gpu::GroupsFor(CeilDiv(values, 4), c.wg);
  }
  return {OneDispatch(context, k.pipelines[0], {b.ids, b.table, b.output, k.buffers[0]}, groups)};
}

}  // namespace

const Family<EmbeddingShape, EmbeddingConfig, EmbeddingBuffers> kEmbeddingOps{
    {kEmbeddingRules.baseline, &BaselineCompile, &Record<NoConfig>},
    {kEmbeddingRules.tuned, &TunedCompile, &Record<EmbeddingConfig>}};

}  // namespace refract::ops
