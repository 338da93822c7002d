#include "suites/kernels/catalog.h"

#include <algorithm>

#include "base/error.h"
#include "suites/ceilings/catalog.h"
#include "suites/kernels/activation_benchmark.h"
#include "suites/kernels/add_mul_benchmark.h"
#include "suites/kernels/attention_benchmark.h"
#include "suites/kernels/embedding_benchmark.h"
#include "suites/kernels/matmul_f32_benchmark.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/kernels/norm_benchmark.h"
#include "suites/kernels/rope_benchmark.h"
#include "suites/kernels/softmax_benchmark.h"

namespace refract::suites::kernels {
namespace {

using Rows = std::vector<std::unique_ptr<KernelBenchmark>>;

/// A family's factory: every row of its kernels (a family may hold several kernels, e.g. the
/// norms: rmsnorm, layernorm, add-rmsnorm). The kernel is the row id's first component.
using Factory = Rows (*)(const CatalogOptions& options);

/// The matmuls' options: the GEMV's and the GEMM's configurations from `--set` names.
MatmulOptions MatmulOptionsOf(const CatalogOptions& o, bool q4) {
  MatmulOptions options{.cold_footprint_bytes = o.cold_footprint_bytes};
  if (o.overrides.empty()) return options;
  static const std::vector<std::string> kKnown = {"WG", "TPR", "ROWS", "BM",   "BN",
                                                  "BK", "TM",  "TN",   "A_PAD"};
  for (const auto& [name, value] : o.overrides) {
    if (std::find(kKnown.begin(), kKnown.end(), name) == kKnown.end()) {
      throw UsageError("the matmuls know no override '" + name +
                       "' (WG, TPR, ROWS for the GEMV; BM, BN, BK, TM, TN, A_PAD for the GEMM)");
    }
  }
  auto get = [&](const char* name, uint32_t fallback) {
    auto found = o.overrides.find(name);
    return found == o.overrides.end() ? fallback : static_cast<uint32_t>(found->second);
  };
  if (o.overrides.contains("WG") || o.overrides.contains("TPR") || o.overrides.contains("ROWS")) {
    const GemvConfig gemv = DefaultGemvConfig(q4, 0);
    options.gemv = GemvConfig{
        .wg = get("WG", gemv.wg), .tpr = get("TPR", gemv.tpr), .rows = get("ROWS", gemv.rows)};
  }
  if (o.overrides.contains("BM") || o.overrides.contains("BN")) {
    const GemmConfig gemm{.bk = q4 ? 32u : 16u};
    options.gemm = GemmConfig{.bm = get("BM", gemm.bm),
                              .bn = get("BN", gemm.bn),
                              .bk = get("BK", gemm.bk),
                              .tm = get("TM", gemm.tm),
                              .tn = get("TN", gemm.tn),
                              .a_pad = get("A_PAD", gemm.a_pad)};
  }
  return options;
}

Rows MatmulF32(const CatalogOptions& o) { return MatmulF32Benchmarks(MatmulOptionsOf(o, false)); }
Rows MatmulQ4(const CatalogOptions& o) { return MatmulQ4Benchmarks(MatmulOptionsOf(o, true)); }
/// Refuses `--set` names outside `known` for a family that takes them as plain options.
uint32_t OptionOr(const CatalogOptions& o, std::initializer_list<const char*> known,
                  const char* name, uint32_t fallback) {
  for (const auto& [given, value] : o.overrides) {
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return given == k; })) {
      throw UsageError("this kernel knows no override '" + given + "'");
    }
  }
  auto found = o.overrides.find(name);
  return found == o.overrides.end() ? fallback : static_cast<uint32_t>(found->second);
}
Rows Embedding(const CatalogOptions& o) {
  return EmbeddingBenchmarks({.cold_footprint_bytes = o.cold_footprint_bytes,
                              .workgroup = OptionOr(o, {"WG"}, "WG", 256)});
}
BinaryOptions BinaryOptionsOf(const CatalogOptions& o) {
  return {.cold_footprint_bytes = o.cold_footprint_bytes,
          .workgroup = OptionOr(o, {"WG", "VPT"}, "WG", 256),
          .vec4_per_thread = OptionOr(o, {"WG", "VPT"}, "VPT", 1)};
}
Rows Add(const CatalogOptions& o) { return AddBenchmarks(BinaryOptionsOf(o)); }
Rows Mul(const CatalogOptions& o) { return MulBenchmarks(BinaryOptionsOf(o)); }
KernelOptions RowOptionsOf(const CatalogOptions& o) {
  return {.cold_footprint_bytes = o.cold_footprint_bytes, .overrides = o.overrides};
}
Rows Norms(const CatalogOptions& o) { return NormBenchmarks(RowOptionsOf(o)); }
Rows Rope(const CatalogOptions& o) { return RopeBenchmarks(RowOptionsOf(o)); }
Rows Attention(const CatalogOptions& o) { return AttentionBenchmarks(RowOptionsOf(o)); }
Rows Softmax(const CatalogOptions& o) { return SoftmaxBenchmarks(RowOptionsOf(o)); }
Rows Activations(const CatalogOptions& o) { return ActivationBenchmarks(RowOptionsOf(o)); }

/// Each family's factory and the kernels its rows belong to.
struct Family {
  Factory make;
  std::vector<std::string> kernels;
};
const std::vector<Family>& Families() {
  static const std::vector<Family> kFamilies = {
      {Embedding, {"embedding"}},
      {MatmulF32, {"matmul-f32"}},
      {MatmulQ4, {"matmul-q4"}},
      {Norms, {"rmsnorm", "layernorm", "add-rmsnorm"}},
      {Rope, {"rope"}},
      {Attention, {"attention"}},
      {Softmax, {"softmax"}},
      {Activations, {"silu", "gelu", "silu-mul"}},
      {Add, {"add"}},
      {Mul, {"mul"}},
  };
  return kFamilies;
}

bool Selected(const KernelSelection& selection, const std::string& kernel) {
  return selection.kernels.empty() || std::find(selection.kernels.begin(), selection.kernels.end(),
                                                kernel) != selection.kernels.end();
}

/// The kernel a row belongs to: its id's first component ("matmul-f32/…" → "matmul-f32").
std::string KernelOf(const bench::BenchmarkInfo& info) {
  return info.id.substr(0, info.id.find('/'));
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

std::string TextParam(const bench::BenchmarkInfo& info, const char* name);

/// The row's own "phase" when it names one (attention, softmax), else "decode" for one new
/// token (M = 1, T = 1) and "prefill" for more.
std::string PhaseOf(const bench::BenchmarkInfo& info) {
  if (std::string phase = TextParam(info, "phase"); !phase.empty()) return phase;
  return IntegerParam(info, {"m", "t"}) == 1 ? "decode" : "prefill";
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
  Require(selection.phase == "all" || selection.phase == "decode" || selection.phase == "prefill" ||
              selection.phase == "encoder",
          "phase", selection.phase, "decode, prefill, encoder or all");
  Require(selection.preset == "full" || selection.preset == "quick", "preset", selection.preset,
          "quick or full");
  const bool quick = selection.preset == "quick";

  // Every family's rows, then in KernelNames() order.
  std::vector<std::unique_ptr<KernelBenchmark>> all;
  if (!options.overrides.empty() && selection.kernels.size() != 1) {
    throw UsageError("--set applies to one kernel's tuned rows: name it with --kernel");
  }
  for (const Family& family : Families()) {
    if (std::none_of(family.kernels.begin(), family.kernels.end(),
                     [&](const std::string& kernel) { return Selected(selection, kernel); })) {
      continue;  // build only the families asked for (their factories may refuse overrides)
    }
    for (std::unique_ptr<KernelBenchmark>& row : family.make(options))
      all.push_back(std::move(row));
  }
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  for (const std::string& kernel : KernelNames()) {
    if (!Selected(selection, kernel)) continue;
    for (std::unique_ptr<KernelBenchmark>& row : all) {
      if (!row || KernelOf(row->info()) != kernel) continue;
      const bench::BenchmarkInfo& info = row->info();
      const std::string model = TextParam(info, "model");
      const std::string phase = PhaseOf(info);
      if (model != selection.model && (model != "reference" || quick)) continue;
      if (selection.phase != "all" && phase != selection.phase) continue;
      if (quick && phase != "decode") continue;
      if (quick && IntegerParam(info, {"s"}) > 0 && IntegerParam(info, {"s"}) != 1024) continue;
      if (selection.variant != "both" && TextParam(info, "variant") != selection.variant) continue;
      row->Tag(kernel, phase);
      rows.push_back(std::move(row));
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
