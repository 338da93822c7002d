#include "suites/kernels/matmul_config.h"

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

}  // namespace refract::suites::kernels
