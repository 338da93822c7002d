#include "suites/sweeps/sweep_catalog.h"

#include <algorithm>

#include "base/error.h"
#include "base/id_globs.h"
#include "suites/kernels/catalog.h"
#include "suites/kernels/matmul_f32_benchmark.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/sweeps/sweep_building.h"

namespace refract::suites::sweeps {
namespace {

using kernels::KernelBenchmark;
using kernels::KernelOptions;

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// The rows of `kernel` a kernels run at both models' shapes makes with `settings`, by id.
std::map<std::string, std::unique_ptr<KernelBenchmark>> KernelRows(const std::string& kernel,
                                                                   const ops::Settings& settings,
                                                                   uint64_t cold_footprint_bytes) {
  std::map<std::string, std::unique_ptr<KernelBenchmark>> rows;
  for (const std::string& model : kernels::ModelNames()) {
    kernels::KernelSelection selection{.model = model, .kernels = {kernel}};
    for (auto& row : kernels::MakeKernelRows(
             selection, {.cold_footprint_bytes = cold_footprint_bytes,
                         .settings = settings,
                         .none_is_error = false})) {
      auto* kernel_row = dynamic_cast<KernelBenchmark*>(row.get());
      REFRACT_THROW_IF(kernel_row == nullptr, Error, row->info().id + " is no kernels row");
      if (kernel_row->info().identity.model != model) {
        continue;  // the reference shapes go with every model: not a model's shape
      }
      row.release();
      rows[kernel_row->info().id].reset(kernel_row);
    }
  }
  return rows;
}

/// A kernels-suite row's problem within a sweep: its id after the kernel's name.
std::string ProblemOf(const std::string& id) { return id.substr(id.find('/') + 1); }

/// `row` rebuilt with `settings`: the same id among `kernel`'s rows made with them.
std::unique_ptr<KernelBenchmark> Rebuilt(const std::string& kernel, const std::string& id,
                                         const ops::Settings& settings, uint64_t footprint) {
  auto rows = KernelRows(kernel, settings, footprint);
  auto found = rows.find(id);
  REFRACT_THROW_IF(found == rows.end(), Error, "no row " + id + " with these settings");
  return std::move(found->second);
}

Sweep Q4Gemv(const SweepSelection& selection) {
  Sweep sweep{.name = "q4-gemv",
              .main_axis = "wg",
              .fresh_device_per_problem = true,
              .seed_default =
                  "seed 004's C = 32 columns, S = 8 threads along K (R = 8 rows of A "
                  "is one at M = 1): wg = 256, tpr = 8, rows = 1"};
  const ops::Settings seed = {{"wg", 256}, {"tpr", 8}, {"rows", 1}};
  // Seed 004's grid at M = 1: C columns a workgroup {8, 16, 32, 64} × S invocations along K a
  // column {1, 2, 4, 8, 16} (R, rows of A, is one), i.e. wg = C × S, tpr = S, each with 1 or 2
  // columns an invocation (then wg = C × S / 2); subgroup sums by the op's rule. Quick: C = 32,
  // S 8 or 32, on Qwen2.5-0.5B's q+o and down only.
  std::vector<ops::Settings> grid;
  for (uint32_t rows : {1u, 2u}) {
    for (uint32_t c :
         selection.quick ? std::vector<uint32_t>{32} : std::vector<uint32_t>{8, 16, 32, 64}) {
      for (uint32_t s :
           selection.quick ? std::vector<uint32_t>{8, 32} : std::vector<uint32_t>{1, 2, 4, 8, 16}) {
        grid.push_back({{"wg", c * s / rows}, {"tpr", s}, {"rows", rows}});
      }
    }
  }
  for (auto& [id, base] : KernelRows("matmul-q4", {}, selection.cold_footprint_bytes)) {
    const results::Params& params = base->info().params;
    const bool tuned_m1 = params.at("m").AsInteger() == 1 &&
                          base->variant() != kernels::Variant::kBaseline &&
                          id.find(kernels::kWithQuantizerSuffix) == std::string::npos;
    if (!tuned_m1) continue;
    if (selection.quick && id.find("qwen2.5-0.5b/q+o/") == std::string::npos &&
        id.find("qwen2.5-0.5b/down/") == std::string::npos) {
      continue;
    }
    auto make = [id = id, footprint = selection.cold_footprint_bytes](
                    const ops::Settings& settings) {
      return Rebuilt("matmul-q4", id, settings, footprint);
    };
    AddProblem(sweep, ProblemOf(id), make, grid, seed);
  }
  return sweep;
}

Sweep MatmulF32(const SweepSelection& selection) {
  Sweep sweep{.name = "matmul-f32",
              .main_axis = "workgroup_bytes",
              .seed_default = "seed 003's 16 x 16 tiled matmul (the kernels suite's baseline)"};
  struct Shape {
    std::string name;
    kernels::MatmulShape shape;
    bool split;  ///< split-K in the grid (the small-M shape)
  };
  std::vector<Shape> shapes = {
      {"m128-n2048-k512",
       {.model = "sweep", .op = "gate at 128 tokens", .m = 128, .k = 512, .n = 2048},
       true}};
  if (!selection.quick) {
    shapes.push_back({"m4096-n4096-k4096",
                      {.model = "sweep", .op = "square", .m = 4096, .k = 4096, .n = 4096},
                      false});
  }
  for (const Shape& s : shapes) {
    Overrides grid =
        selection.quick
            ? Overrides{{"bm", {32, 64}}, {"bn", {32, 64}}, {"bk", {16}},       {"tm", {4}},
                        {"tn", {4}},      {"a_pad", {}},    {"split_k", {1, 4}}}
            : Overrides{{"bm", {32, 64, 128}},    {"bn", {32, 64, 128}}, {"bk", {8, 16, 32}},
                        {"tm", {4, 8}},           {"tn", {4, 8}},        {"a_pad", {}},
                        {"split_k", {1, 2, 4, 8}}};
    if (!s.split) grid["split_k"] = {1};
    auto make = [shape = s.shape, seed = selection.seed](const ops::Settings& settings,
                                                          kernels::Variant variant) {
      auto row = std::make_unique<kernels::MatmulF32Benchmark>(
          Info(variant == kernels::Variant::kBaseline
                   ? "seed 003's 16 x 16 tiled f32 matmul"
                   : "tiled f32 GEMM: bm x bn tiles of tm x tn an invocation, bk staged"),
          variant, shape,
          // Compute-bound (50 and 1024 FLOP a byte): one copy, the data warm as in an engine.
          KernelOptions{.cold_footprint_bytes = 1, .seed = seed, .settings = settings});
      return std::unique_ptr<KernelBenchmark>(std::move(row));
    };
    const results::Params extra = {{"m", static_cast<int64_t>(s.shape.m)},
                                   {"n", static_cast<int64_t>(s.shape.n)},
                                   {"k", static_cast<int64_t>(s.shape.k)}};
    AddProblem(
        sweep, s.name,
        [make](const ops::Settings& settings) { return make(settings, kernels::Variant::kTuned); },
        ops::GridOf(ops::kGemmRules.axes().axes(), selection.quick, grid), std::nullopt, extra);
    std::unique_ptr<KernelBenchmark> seed = make({}, kernels::Variant::kBaseline);
    Name(*seed, sweep, s.name, kRoleSeed, {}, extra);
    sweep.rows.push_back(std::move(seed));
  }
  return sweep;
}

/// `refract sweep --kernel NAME`: every tuned row of the kernel at both models' shapes over its
/// own op's axes; the baseline row of the same shape as the seed's default.
Sweep KernelSweep(const std::string& kernel, const SweepSelection& selection) {
  Sweep sweep{.name = "kernel:" + kernel,
              .fresh_device_per_problem = kernel == "matmul-q4" || kernel == "matmul-f32",
              .seed_default = "seed 003's kernel (the kernels suite's baseline row)"};
  auto bases = KernelRows(kernel, {}, selection.cold_footprint_bytes);
  for (auto& [id, base] : bases) {
    if (base->variant() == kernels::Variant::kBaseline) continue;
    const std::vector<ops::Axis> axes = base->OpAxes();
    if (sweep.main_axis.empty() && !axes.empty()) sweep.main_axis = axes.front().name;
    auto make = [kernel, id = id, footprint = selection.cold_footprint_bytes](
                    const ops::Settings& settings) {
      return Rebuilt(kernel, id, settings, footprint);
    };
    AddProblem(sweep, ProblemOf(id), make, ops::GridOf(axes, selection.quick, {}), std::nullopt);
    // The seed's kernel at the same shape, when the suite has it.
    std::string baseline_id = id.substr(0, id.rfind('/')) + "/baseline";
    if (auto found = bases.find(baseline_id); found != bases.end() && found->second) {
      std::unique_ptr<KernelBenchmark> seed =
          Rebuilt(kernel, baseline_id, {}, selection.cold_footprint_bytes);
      Name(*seed, sweep, ProblemOf(id), kRoleSeed, {});
      sweep.rows.push_back(std::move(seed));
    }
  }
  if (sweep.main_axis.empty()) sweep.main_axis = "wg";
  return sweep;
}

}  // namespace

const std::vector<std::string>& SweepNames() {
  static const std::vector<std::string> kNames = {"bandwidth",  "reduction", "q4-gemv", "q2-scan",
                                                  "matmul-f32", "subgroups", "f16"};
  return kNames;
}

std::vector<Sweep> MakeSweeps(const SweepSelection& asked) {
  if (asked.sweeps.empty() && asked.kernels.empty()) {
    throw UsageError("name a sweep (" + Joined(SweepNames()) + ") or a kernel to sweep");
  }
  SweepSelection selection = asked;
  if (selection.quick && selection.cold_footprint_bytes == 0) {
    selection.cold_footprint_bytes = 1;  // one copy: quick, and warm (rows say "cold": false)
  }
  std::vector<Sweep> sweeps;
  for (const std::string& name : selection.sweeps) {
    if (name == "bandwidth") {
      sweeps.push_back(Bandwidth(selection));
    } else if (name == "reduction" || name == "subgroups") {
      sweeps.push_back(Reduction(selection, name == "subgroups"));
    } else if (name == "q4-gemv") {
      sweeps.push_back(Q4Gemv(selection));
    } else if (name == "q2-scan") {
      sweeps.push_back(Scan(selection));
    } else if (name == "matmul-f32") {
      sweeps.push_back(MatmulF32(selection));
    } else if (name == "f16") {
      sweeps.push_back(F16(selection));
    } else {
      throw UsageError("unknown sweep '" + name + "' (choose " + Joined(SweepNames()) + ")");
    }
  }
  for (const std::string& kernel : selection.kernels) {
    const std::vector<std::string>& names = kernels::KernelNames();
    if (std::find(names.begin(), names.end(), kernel) == names.end()) {
      throw UsageError("unknown kernel '" + kernel + "' (choose " + Joined(names) + ")");
    }
    sweeps.push_back(KernelSweep(kernel, selection));
  }
  return sweeps;
}

std::unique_ptr<kernels::KernelBenchmark> ConfigurationRow(const Sweep& sweep,
                                                           const std::string& problem,
                                                           const ops::Settings& settings) {
  const auto found = sweep.problems.find(problem);
  if (found == sweep.problems.end()) return nullptr;
  std::unique_ptr<KernelBenchmark> row = found->second.make(settings);
  Name(*row, sweep, problem, kRoleGrid, settings, found->second.params);
  return row;
}

void KeepMatching(std::vector<Sweep>& sweeps, const std::vector<std::string>& globs) {
  std::vector<std::string> ids;
  for (const Sweep& sweep : sweeps) {
    for (const auto& row : sweep.rows) ids.push_back(row->info().id);
  }
  if (const auto glob = GlobMatchingNoId(globs, ids)) {
    throw UsageError("--filter '" + *glob +
                     "' matches no configuration of the chosen sweeps (see refract sweep --list)");
  }
  uint64_t kept = 0;
  for (Sweep& sweep : sweeps) {
    std::erase_if(sweep.rows, [&](const std::unique_ptr<KernelBenchmark>& row) {
      return !MatchesAnyGlob(row->info().id, globs);
    });
    kept += sweep.rows.size();
  }
  if (kept == 0) throw UsageError("--filter leaves no configuration to run");
}

}  // namespace refract::suites::sweeps
