#include "suites/kernels/catalog.h"

#include <algorithm>

#include "base/error.h"
#include "suites/ceilings/catalog.h"
#include "suites/kernels/add_mul_benchmark.h"
#include "suites/kernels/embedding_benchmark.h"
#include "suites/kernels/matmul_f32_benchmark.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

using Rows = std::vector<std::unique_ptr<KernelBenchmark>>;

/// One kernel's rows, built by its family's factory.
struct Family {
  std::string kernel;
  Rows (*make)(const CatalogOptions& options);
};

Rows MatmulF32(const CatalogOptions& o) {
  return MatmulF32Benchmarks({.cold_footprint_bytes = o.cold_footprint_bytes});
}
Rows MatmulQ4(const CatalogOptions& o) {
  return MatmulQ4Benchmarks({.cold_footprint_bytes = o.cold_footprint_bytes});
}
Rows Embedding(const CatalogOptions& o) {
  return EmbeddingBenchmarks({.cold_footprint_bytes = o.cold_footprint_bytes});
}
Rows Add(const CatalogOptions& o) {
  return AddBenchmarks({.cold_footprint_bytes = o.cold_footprint_bytes});
}
Rows Mul(const CatalogOptions& o) {
  return MulBenchmarks({.cold_footprint_bytes = o.cold_footprint_bytes});
}

const std::vector<Family>& Families() {
  static const std::vector<Family> kFamilies = {
      {"embedding", Embedding},
      {"matmul-f32", MatmulF32},
      {"matmul-q4", MatmulQ4},
      {"add", Add},
      {"mul", Mul},
  };
  return kFamilies;
}

const results::ParamValue* Param(const bench::BenchmarkInfo& info, const char* name) {
  auto found = info.params.find(name);
  return found == info.params.end() ? nullptr : &found->second;
}

int64_t IntegerParam(const bench::BenchmarkInfo& info, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const results::ParamValue* value = Param(info, name); value && value->IsInteger()) {
      return value->AsInteger();
    }
  }
  return -1;
}

/// "decode" for one new token (M = 1, T = 1), else "prefill".
std::string PhaseOf(const bench::BenchmarkInfo& info) {
  return IntegerParam(info, {"m", "tokens", "t"}) == 1 ? "decode" : "prefill";
}

std::string TextParam(const bench::BenchmarkInfo& info, const char* name) {
  const results::ParamValue* value = Param(info, name);
  return value && value->IsText() ? value->AsText() : "";
}

void Require(bool known, const std::string& what, const std::string& value,
             const std::string& choices) {
  if (!known) throw UsageError("unknown " + what + " '" + value + "' (choose " + choices + ")");
}

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

const std::vector<std::string>& KernelNames() {
  static const std::vector<std::string> kNames = {
      "embedding", "matmul-f32", "matmul-q4", "rmsnorm", "layernorm", "rope",     "attention",
      "softmax",   "silu",       "gelu",      "add",     "mul",       "silu-mul", "add-rmsnorm"};
  return kNames;
}

std::vector<std::unique_ptr<bench::Benchmark>> MakeKernelRows(const KernelSelection& selection,
                                                              const CatalogOptions& options) {
  ModelByName(selection.model);  // UsageError for an unknown model
  for (const std::string& kernel : selection.kernels) {
    Require(std::find(KernelNames().begin(), KernelNames().end(), kernel) != KernelNames().end(),
            "kernel", kernel, Joined(KernelNames()));
  }
  Require(selection.variant == "both" || selection.variant == "baseline" ||
              selection.variant == "tuned",
          "variant", selection.variant, "baseline, tuned or both");
  Require(selection.phase == "all" || selection.phase == "decode" || selection.phase == "prefill",
          "phase", selection.phase, "decode, prefill or all");
  Require(selection.preset == "full" || selection.preset == "quick", "preset", selection.preset,
          "quick or full");
  const bool quick = selection.preset == "quick";

  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  for (const std::string& kernel : KernelNames()) {
    if (!selection.kernels.empty() && std::find(selection.kernels.begin(), selection.kernels.end(),
                                                kernel) == selection.kernels.end()) {
      continue;
    }
    for (const Family& family : Families()) {
      if (family.kernel != kernel) continue;
      for (std::unique_ptr<KernelBenchmark>& row : family.make(options)) {
        const bench::BenchmarkInfo& info = row->info();
        const std::string model = TextParam(info, "model");
        const std::string phase = PhaseOf(info);
        if (model != selection.model && (model != "reference" || quick)) continue;
        if (selection.phase != "all" && phase != selection.phase) continue;
        if (quick && phase != "decode") continue;
        if (quick && IntegerParam(info, {"s"}) > 0 && IntegerParam(info, {"s"}) != 1024) continue;
        if (selection.variant != "both" && TextParam(info, "variant") != selection.variant) {
          continue;
        }
        row->Tag(kernel, phase);
        rows.push_back(std::move(row));
      }
    }
  }
  if (rows.empty()) throw UsageError("the selection leaves no kernel row to run");
  return rows;
}

std::vector<std::unique_ptr<bench::Benchmark>> MakeRooflineCeilingRows() {
  ceilings::Selection selection;
  selection.globs = {"read-linear", "f32-fma-scalar", "f32-fma-vec4", "f32-fma-wide"};
  return ceilings::SelectRows(ceilings::MakeCatalog({}), selection);
}

}  // namespace refract::suites::kernels
