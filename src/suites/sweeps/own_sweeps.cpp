// The sweeps of the sweeps' own ops (SWEEPS.md): bandwidth (vec4 copy and read by size), the
// sum (workgroup tree or subgroups), seed 004's 2-bit corpus scan, and the f16 matmul.
#include "suites/sweeps/sweep_building.h"
#include "suites/sweeps/sweep_rows.h"

namespace refract::suites::sweeps {
namespace {

using kernels::KernelBenchmark;
using kernels::KernelOptions;

std::string ByteSize(uint64_t bytes) {
  if (bytes >= (1u << 30) && bytes % (1u << 30) == 0) return std::to_string(bytes >> 30) + "GiB";
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  return std::to_string(bytes >> 10) + "KiB";
}

}  // namespace

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

}  // namespace refract::suites::sweeps
