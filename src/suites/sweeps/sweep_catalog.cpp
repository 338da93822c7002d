#include "suites/sweeps/sweep_catalog.h"

#include <algorithm>

#include "base/error.h"
#include "base/id_globs.h"
#include "suites/kernels/catalog.h"
#include "suites/kernels/matmul_f32_benchmark.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/sweeps/sweep_rows.h"

namespace refract::suites::sweeps {
namespace {

using kernels::KernelBenchmark;
using kernels::KernelOptions;
using Rows = std::vector<std::unique_ptr<KernelBenchmark>>;
using Overrides = std::map<std::string, std::vector<uint32_t>>;
using Maker = std::function<std::unique_ptr<KernelBenchmark>(const ops::Settings&)>;

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// Gives `row` its sweep identity: id "<sweep>/<problem>/<label>", the category
/// "<sweep>/<problem>", its sweep, problem and role, the sweep's params beside the row's own,
/// and `extra`'s numbers (the problem's size) among its dimensions.
void Name(KernelBenchmark& row, const Sweep& sweep, const std::string& problem,
          const std::string& role, const ops::Settings& point, results::Params extra = {}) {
  const std::string category = sweep.name + "/" + problem;
  const std::string label = role == kRoleGrid ? ops::SettingsText(point) : role;
  const std::string id = label.empty() ? category : category + "/" + label;
  results::RowIdentity& identity = row.identity();
  identity.sweep = sweep.name;
  identity.problem = problem;
  identity.role = role;
  for (const auto& [name, value] : extra) {
    if (!value.IsText()) identity.dimensions.push_back(name);
  }
  extra["main_axis"] = sweep.main_axis;
  for (const auto& [name, value] : point) extra[name] = static_cast<int64_t>(value);
  // The op's axes and their stamp, for a profile entry.
  extra[kAxesParam] = ops::AxisNames(row.OpAxes());
  extra[kAxesHashParam] = ops::AxesHashOf(row.OpAxes());
  row.Rename(id, category, extra);
}

/// Appends the configurations of one problem: a row per grid point, then the built-in default
/// and (when `seed` is given) the seed's default, each made by `make(settings)`, which the sweep
/// keeps (it must own what it captures: ConfigurationRow calls it after the sweep is built).
void AddProblem(Sweep& sweep, const std::string& problem, const Maker& make,
                const std::vector<ops::Settings>& grid,
                const std::optional<ops::Settings>& seed_settings, results::Params extra = {}) {
  sweep.problems[problem] = {.make = make, .params = extra};
  for (const ops::Settings& point : grid) {
    std::unique_ptr<KernelBenchmark> row = make(point);
    Name(*row, sweep, problem, kRoleGrid, point, extra);
    sweep.rows.push_back(std::move(row));
  }
  std::unique_ptr<KernelBenchmark> fallback = make({});
  Name(*fallback, sweep, problem, kRoleDefault, {}, extra);
  sweep.rows.push_back(std::move(fallback));
  if (seed_settings) {
    std::unique_ptr<KernelBenchmark> seed = make(*seed_settings);
    Name(*seed, sweep, problem, kRoleSeed, *seed_settings, extra);
    sweep.rows.push_back(std::move(seed));
  }
}

bench::BenchmarkInfo Info(std::string description) {
  return {.id = "", .category = "", .unit = "", .needs = "", .description = std::move(description)};
}

std::string ByteSize(uint64_t bytes) {
  if (bytes >= (1u << 30) && bytes % (1u << 30) == 0) return std::to_string(bytes >> 30) + "GiB";
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  return std::to_string(bytes >> 10) + "KiB";
}

// ---- the seven sweeps ----

Sweep Bandwidth(const SweepSelection& selection) {
  Sweep sweep{.name = "bandwidth",
              .main_axis = "bytes",
              .cliff_threshold = 0.80,
              .has_winners = false,
              .seed_default = "none: the size is the only axis"};
  // 16 KiB doubling to 1 GiB (quick: every 4x to 64 MiB); a size past the device's storage
  // binding is skipped with the limit.
  const uint64_t last = selection.quick ? (uint64_t{64} << 20) : (uint64_t{1} << 30);
  const uint64_t step = selection.quick ? 4 : 2;
  auto data = std::make_shared<StreamInputs>(StreamInputs{.seed = selection.seed});
  for (ops::StreamKind kind : {ops::StreamKind::kCopy, ops::StreamKind::kRead}) {
    for (uint64_t bytes = 16 << 10; bytes <= last; bytes *= step) {
      const ops::StreamShape problem{.kind = kind, .bytes = bytes};
      const std::string name = ops::StreamKindName(kind);
      std::unique_ptr<KernelBenchmark> row = std::make_unique<StreamRow>(
          Info(kind == ops::StreamKind::kCopy ? "vec4 copy of a buffer, grid-stride, warm"
                                              : "vec4 read folded into a sum an invocation, warm"),
          problem, KernelOptions{.seed = selection.seed}, data);
      Name(*row, sweep, name, kRoleGrid, {}, {{"bytes", static_cast<int64_t>(bytes)}});
      row->identity().kernel = name;
      row->Rename(row->info().id + "/" + ByteSize(bytes), row->info().category, {});
      sweep.rows.push_back(std::move(row));
    }
  }
  return sweep;
}

/// reduction (subgroups = 0) or subgroups (subgroups = 1): the sum of 4M f32.
Sweep Reduction(const SweepSelection& selection, bool subgroups) {
  Sweep sweep{
      .name = subgroups ? "subgroups" : "reduction",
      .main_axis = "wg",
      .seed_default = "none stated by seed 004 (the default row is refract's 256 x 1 tree)"};
  // 4M f32 (quick: 1M).
  const uint64_t count = uint64_t{selection.quick ? 1u : 4u} << 20;
  auto inputs = ReduceInputsOf(count, selection.seed);
  const KernelOptions options{.cold_footprint_bytes = selection.cold_footprint_bytes,
                              .seed = selection.seed};
  auto make = [=](const ops::Settings& settings) -> std::unique_ptr<KernelBenchmark> {
    KernelOptions with = options;
    with.settings = settings;
    return std::make_unique<ReduceRow>(
        Info(std::string("sum of f32: wg x items vec4 a workgroup, ") +
             (subgroups ? "subgroupAdd then a tree over the subgroups' sums"
                        : "a tree in workgroup memory") +
             ", then one workgroup over the partials"),
        count, with, inputs);
  };
  AddProblem(sweep, selection.quick ? "sum-1m" : "sum-4m", make,
             ops::GridOf(ops::kReduceRules.axes().axes(), selection.quick,
                         {{"subgroups", {subgroups ? 1u : 0u}}}),
             std::nullopt, {{"count", static_cast<int64_t>(count)}});
  return sweep;
}

/// The rows of `kernel` a kernels run at both models' shapes makes with `settings`, by id.
std::map<std::string, std::unique_ptr<KernelBenchmark>> KernelRows(const std::string& kernel,
                                                                   const ops::Settings& settings,
                                                                   uint64_t cold_footprint_bytes) {
  std::map<std::string, std::unique_ptr<KernelBenchmark>> rows;
  for (const std::string& model : kernels::ModelNames()) {
    kernels::KernelSelection selection{.model = model, .kernels = {kernel}};
    for (auto& row : kernels::MakeKernelRows(
             selection, {.cold_footprint_bytes = cold_footprint_bytes, .settings = settings})) {
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

Sweep Scan(const SweepSelection& selection) {
  Sweep sweep{.name = "q2-scan",
              .main_axis = "wg",
              .seed_default =
                  "the seed's tail: 256 invocations, the table in workgroup memory, "
                  "1 vector an invocation"};
  // 65,536 vectors (quick: 4,096) x 8 queries at d = 768 and d = 128.
  const uint32_t vectors = selection.quick ? 4096 : 65536;
  for (uint32_t d : {768u, 128u}) {
    const ops::ScanShape problem{.vectors = vectors, .d = d};
    auto inputs = ScanInputsOf(problem, selection.seed);
    auto make = [=](const ops::Settings& settings) -> std::unique_ptr<KernelBenchmark> {
      return std::make_unique<ScanRow>(
          Info("2-bit corpus scan: 8 queries' lookup tables over every vector's codes"), problem,
          KernelOptions{.cold_footprint_bytes = selection.cold_footprint_bytes,
                        .seed = selection.seed,
                        .settings = settings},
          inputs);
    };
    AddProblem(sweep, "v" + std::to_string(vectors) + "/d" + std::to_string(d), make,
               ops::GridOf(ops::kScanRules.axes().axes(), selection.quick, {}),
               ops::Settings{{"wg", 256}, {"lut_shared", 1}, {"vpt", 1}},
               {{"vectors", static_cast<int64_t>(vectors)}, {"d", static_cast<int64_t>(d)}});
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

/// f16 data in the matmul tiles, accumulating in f32 or in f16, at the matmul-f32 sweep's
/// small-M problem (its 4096³ takes the f32 sweep's time again for little more to learn).
Sweep F16(const SweepSelection& selection) {
  Sweep sweep{.name = "f16",
              .main_axis = "workgroup_bytes",
              .seed_default =
                  "none (the seed's matmul is f32); the default row is refract's "
                  "64 x 64 tiles of 4 x 4, bk 16, f32 accumulation"};
  const ops::MatmulDims dims{.m = 128, .k = 512, .n = 2048};
  auto inputs = MatmulF16InputsOf(dims, selection.seed);
  const Overrides grid =
      selection.quick
          ? Overrides{{"bm", {32, 64}}, {"bn", {64}}, {"bk", {16}}, {"tm", {4}}, {"tn", {4}}}
          : Overrides{{"bm", {32, 64, 128}},
                      {"bn", {32, 64, 128}},
                      {"bk", {16, 32}},
                      {"tm", {4, 8}},
                      {"tn", {4, 8}}};
  auto make = [=](const ops::Settings& settings) -> std::unique_ptr<KernelBenchmark> {
    return std::make_unique<MatmulF16Row>(
        Info("tiled matmul on f16 data (tiles in workgroup memory), C in f32"), dims,
        // Compute-bound (50 FLOP a byte): one copy, as the f32 sweep.
        KernelOptions{.cold_footprint_bytes = 1, .seed = selection.seed, .settings = settings},
        inputs);
  };
  AddProblem(sweep, "m128-n2048-k512", make,
             ops::GridOf(ops::kMatmulF16Rules.axes().axes(), selection.quick, grid), std::nullopt,
             {{"m", 128}, {"n", 2048}, {"k", 512}});
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
