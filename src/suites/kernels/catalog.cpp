#include "suites/kernels/catalog.h"

#include <algorithm>

#include "base/error.h"
#include "base/id_globs.h"
#include "suites/ceilings/catalog.h"
#include "suites/kernels/activation_benchmark.h"
#include "suites/kernels/add_mul_benchmark.h"
#include "suites/kernels/attention_benchmark.h"
#include "suites/kernels/embedding_benchmark.h"
#include "suites/kernels/gate_up_down_benchmark.h"
#include "suites/kernels/gate_up_silu_benchmark.h"
#include "suites/kernels/lm_head_argmax_benchmark.h"
#include "suites/kernels/matmul_f32_benchmark.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "suites/kernels/merge_o_heads_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/kernels/norm_benchmark.h"
#include "suites/kernels/qkv_rope_benchmark.h"
#include "suites/kernels/rope_benchmark.h"
#include "suites/kernels/softmax_benchmark.h"

namespace refract::suites::kernels {
namespace {

using Rows = std::vector<std::unique_ptr<KernelBenchmark>>;

/// A family's factory: every row of its kernels (a family may hold several kernels, e.g. the
/// norms: rmsnorm, layernorm, add-rmsnorm). The kernel is the row id's first component.
using Factory = Rows (*)(const KernelOptions& options);

/// Each family's factory, the kernels its rows belong to, and the axes of its tuned ops.
struct Family {
  Factory make;
  std::vector<std::string> kernels;
  std::vector<ops::Axis> tuned_axes;
};

// The axes of `tables` in order, an axis two tables share (the same name and values) once.
std::vector<ops::Axis> Concatenated(std::initializer_list<const std::vector<ops::Axis>*> tables) {
  std::vector<ops::Axis> axes;
  for (const std::vector<ops::Axis>* table : tables) {
    for (const ops::Axis& axis : *table) {
      const bool shared = std::any_of(axes.begin(), axes.end(), [&](const ops::Axis& known) {
        return known.name == axis.name && known.AllowedText() == axis.AllowedText();
      });
      if (!shared) axes.push_back(axis);
    }
  }
  return axes;
}

const std::vector<Family>& Families() {
  static const std::vector<Family> kFamilies = {
      {EmbeddingBenchmarks, {"embedding"}, ops::kEmbeddingRules.tuned.axes().axes()},
      {MatmulF32Benchmarks,
       {"matmul-f32"},
       Concatenated({&ops::kGemvRules.axes().axes(), &ops::kGemmRules.axes().axes()})},
      {MatmulQ4Benchmarks,
       {"matmul-q4"},
       Concatenated({&ops::kGemvRules.axes().axes(), &ops::kGemvQ8Rules.axes().axes(),
                     &ops::kGemmRules.axes().axes()})},
      {NormBenchmarks,
       {"rmsnorm", "layernorm", "add-rmsnorm"},
       ops::kNormRules.tuned.axes().axes()},
      {RopeBenchmarks, {"rope"}, ops::kRopeRules.tuned.axes().axes()},
      {AttentionBenchmarks,
       {"attention"},
       Concatenated(
           {&ops::kAttentionRules.tuned.axes().axes(), &ops::kAttentionDecodeRules.axes().axes()})},
      {SoftmaxBenchmarks, {"softmax"}, ops::kSoftmaxRules.tuned.axes().axes()},
      {QkvRopeBenchmarks, {"qkv-rope"}, ops::kGemvQ8Rules.axes().axes()},
      {GateUpSiluBenchmarks, {"gate-up-silu"}, ops::kGemvQ8Rules.axes().axes()},
      {GateUpDownBenchmarks, {"gate-up-down"}, ops::kGemvQ8Rules.axes().axes()},
      {MergeOHeadsBenchmarks, {"merge-o-heads"}, ops::kAttentionDecodeRules.axes().axes()},
      {LmHeadArgmaxBenchmarks, {"lm-head-argmax"}, ops::kGemvQ8Rules.axes().axes()},
      {ActivationBenchmarks,
       {"silu", "gelu", "silu-mul"},
       ops::kActivationRules.tuned.axes().axes()},
      {AddBenchmarks, {"add"}, ops::kBinaryRules.tuned.axes().axes()},
      {MulBenchmarks, {"mul"}, ops::kBinaryRules.tuned.axes().axes()},
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

/// The row's own phase when its factory named one (attention, softmax), else "decode" for one
/// new token (M = 1, T = 1) and "prefill" for more.
std::string PhaseOf(const bench::BenchmarkInfo& info) {
  if (!info.identity.phase.empty()) return info.identity.phase;
  return IntegerParam(info, {"m", "t"}) == 1 ? "decode" : "prefill";
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
      "softmax",   "silu",       "gelu",      "add",     "mul",       "silu-mul", "add-rmsnorm",
      "qkv-rope",  "gate-up-silu", "gate-up-down", "merge-o-heads", "lm-head-argmax"};
  return kNames;
}

std::vector<ops::Axis> TunedAxes(const std::string& kernel) {
  for (const Family& family : Families()) {
    for (const std::string& name : family.kernels) {
      if (name == kernel) return family.tuned_axes;
    }
  }
  Require(false, "kernel", kernel, Joined(KernelNames()));
  return {};
}

std::vector<std::unique_ptr<bench::Benchmark>> MakeKernelRows(const KernelSelection& selection,
                                                              const CatalogOptions& options) {
  ModelByName(selection.model);  // UsageError for an unknown model
  for (const std::string& kernel : selection.kernels) {
    Require(std::find(KernelNames().begin(), KernelNames().end(), kernel) != KernelNames().end(),
            "kernel", kernel, Joined(KernelNames()));
  }
  Require(selection.variant == "both" || selection.variant == "baseline" ||
              selection.variant == "tuned" || selection.variant == "tuned-q8",
          "variant", selection.variant, "baseline, tuned, tuned-q8 or both (every variant)");
  Require(selection.phase == "all" || selection.phase == "decode" || selection.phase == "prefill" ||
              selection.phase == "encoder",
          "phase", selection.phase, "decode, prefill, encoder or all");
  Require(selection.preset == "full" || selection.preset == "quick", "preset", selection.preset,
          "quick or full");
  const bool quick = selection.preset == "quick";

  // Every family's rows, then in KernelNames() order.
  std::vector<std::unique_ptr<KernelBenchmark>> all;
  if (!options.settings.empty() && selection.kernels.size() != 1) {
    throw UsageError("--set applies to one kernel's tuned rows: name it with --kernel");
  }
  for (const Family& family : Families()) {
    if (std::none_of(family.kernels.begin(), family.kernels.end(),
                     [&](const std::string& kernel) { return Selected(selection, kernel); })) {
      continue;  // build only the families asked for (their factories may refuse overrides)
    }
    const KernelOptions row_options{.cold_footprint_bytes = options.cold_footprint_bytes,
                                    .seed = options.seed,
                                    .settings = options.settings,
                                    .time_dispatch = options.time_dispatch};
    for (std::unique_ptr<KernelBenchmark>& row : family.make(row_options)) {
      all.push_back(std::move(row));
    }
  }
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  for (const std::string& kernel : KernelNames()) {
    if (!Selected(selection, kernel)) continue;
    for (std::unique_ptr<KernelBenchmark>& row : all) {
      if (!row || KernelOf(row->info()) != kernel) continue;
      const bench::BenchmarkInfo& info = row->info();
      const std::string& model = info.identity.model;
      const std::string phase = PhaseOf(info);
      if (model != selection.model && (model != "reference" || quick)) continue;
      if (selection.phase != "all" && phase != selection.phase) continue;
      if (quick && phase != "decode") continue;
      if (quick && IntegerParam(info, {"s"}) > 0 && IntegerParam(info, {"s"}) != 1024) continue;
      if (selection.variant != "both" && info.identity.variant != selection.variant) continue;
      row->Tag(kernel, phase);
      rows.push_back(std::move(row));
    }
  }
  if (!selection.globs.empty()) {
    std::vector<std::string> ids;
    for (const auto& row : rows) ids.push_back(row->info().id);
    if (const auto glob = GlobMatchingNoId(selection.globs, ids)) {
      throw UsageError("--filter '" + *glob +
                       "' matches none of the selected rows (see refract kernels --list)");
    }
    std::erase_if(
        rows, [&](const auto& row) { return !MatchesAnyGlob(row->info().id, selection.globs); });
  }
  if (rows.empty() && options.none_is_error) {
    throw UsageError("the selection leaves no kernel row to run");
  }
  return rows;
}

std::vector<std::unique_ptr<bench::Benchmark>> MakeRooflineCeilingRows() {
  ceilings::Selection selection;
  selection.globs = {"read-linear", "f32-fma-scalar", "f32-fma-vec4", "f32-fma-wide"};
  return ceilings::SelectRows(ceilings::MakeCatalog({}), selection);
}

}  // namespace refract::suites::kernels
