// The matmul ops' axes, default rules and limit checks: pure, no GPU.
#include <algorithm>
#include <map>
#include <string>

#include "ops/matmul_rules.h"

namespace refract::ops {
namespace {

// The q4 GEMV's x staging in workgroup memory (`xs`: 64 blocks of 9 vec4) [bytes].
constexpr uint64_t kQ4StagingBytes = 64 * 9 * 16;

uint64_t WeightBytes(const MatmulShape& p) {
  return p.weights == Weights::kQ4 ? p.dims.n * Q4BlocksOf(p.dims.k) * 16
                                   : p.dims.n * PaddedTo4(p.dims.k) * 4;
}

Refusal SeedCheck(const NoConfig&, const MatmulShape& p, const DeviceLimits& limits) {
  const MatmulDims& d = p.dims;
  if (d.m == 0 || d.k == 0 || d.n == 0) return "the seed's matmul needs M, K, N > 0";
  const uint64_t values = uint64_t{d.k} * d.n;
  const uint64_t b_bytes = p.weights == Weights::kQ4 ? CeilDiv(values, 8) * 4 : values * 4;
  return FirstRefusal({BindingRefusal(b_bytes, "the seed matmul's B", limits),
                       BindingRefusal(uint64_t{d.m} * d.k * 4, "the seed matmul's A", limits),
                       BindingRefusal(uint64_t{d.m} * d.n * 4, "the seed matmul's C", limits)});
}

// The axes both GEMVs share.
std::vector<AxisTable<GemvConfig>::Entry> GemvAxisEntries() {
  return {
      {WorkgroupAxis(), &GemvConfig::wg},
      {PowerOfTwoAxis("tpr", "invocations along K a row group", "32", 1, 256, {4, 8, 16, 32},
                      {8, 32}),
       &GemvConfig::tpr},
      {CountAxis("rows", "rows an invocation accumulates",
                 "f32: 2; q4: 1 below 8192 rows on a GPU, else 2; 4 on a CPU adapter", 8,
                 {1, 2, 4, 8}, {1, 4}),
       &GemvConfig::rows},
      {FlagAxis("subgroups", "1: row sums through subgroup shuffles; 0: through workgroup memory",
                "1 where the device's smallest subgroup holds tpr"),
       &GemvConfig::subgroups},
  };
}

const AxisTable<GemvConfig>& GemvAxes() {
  static const AxisTable<GemvConfig> kAxes(GemvAxisEntries());
  return kAxes;
}

// The q8 GEMV's: the GEMV's, `batch` (llm_matmul_q4_tuned_gemv_q8.wgsl's MAX_BATCH at most) and
// `adjacent`.
const AxisTable<GemvConfig>& GemvQ8Axes() {
  static const AxisTable<GemvConfig> kAxes([] {
    std::vector<AxisTable<GemvConfig>::Entry> entries = GemvAxisEntries();
    // The shared axes with the q8 GEMV's own default rules.
    const std::map<std::string, std::string> rules = {
        {"wg", "64 on a GPU at M = 1 from 65,536 rows, else 256"},
        {"tpr", "on a GPU 16 at M = 1 from 8192 rows, 8 at M > 1 from 65,536 rows, else 32"},
        {"rows", "on a GPU 2 at M = 1 from 65,536 rows, else 1; 4 on a CPU adapter at M = 1"},
    };
    for (AxisTable<GemvConfig>::Entry& entry : entries) {
      if (auto rule = rules.find(entry.axis.name); rule != rules.end()) {
        entry.axis.default_rule = rule->second;
      }
    }
    entries.push_back({PowerOfTwoAxis("batch", "K blocks a lane loads before it computes",
                                      "4 on a GPU at M = 1 from 8192 rows where a row holds 4 x "
                                      "tpr blocks or more, else 2",
                                      1, 4, {1, 2, 4}, {2, 4}),
                       &GemvConfig::batch});
    entries.push_back({FlagAxis("adjacent",
                                "1: a lane's blocks of a trip adjacent (the lanes batch blocks "
                                "apart); 0: tpr blocks apart (the lanes' blocks adjacent)",
                                "1 on a GPU at M = 1 below 8192 rows where a row holds 4 x tpr "
                                "blocks or more, else 0"),
                       &GemvConfig::adjacent});
    return entries;
  }());
  return kAxes;
}

bool SubgroupsFit(const GemvConfig& config, const DeviceLimits& limits) {
  return limits.subgroups && limits.subgroup_min_size > 0 && config.tpr <= limits.subgroup_min_size;
}

GemvConfig GemvResolve(const MatmulShape& p, const DeviceLimits& limits,
                       const Settings& settings) {
  // q4 on the H200 (2026-12-01, x staged in workgroup memory, docs/results/archive/NOTEBOOK.md),
  // 256 threads: 2 rows a thread for 14336 and 151936 rows (21.5 and 62.9 µs; 1 row: 23.8 and
  // 76.0), 1 row for 4864 and 896 (5.3 and 8.4 µs; 2 rows: 5.5 and 10.9). On lavapipe (2 cores) 4
  // rows a thread took every decode shape 1.7-2.3x less time than 1 row (14336 rows: 45.5 against
  // 88.1 ms).
  GemvConfig config;
  if (p.weights == Weights::kQ4) config.rows = limits.cpu ? 4u : (p.dims.n >= 8192 ? 2u : 1u);
  config = GemvAxes().With(config, settings);
  config.subgroups = SettingOr(settings, "subgroups", SubgroupsFit(config, limits) ? 1u : 0u);
  return config;
}

// The GEMV kernels' checks but for their weights and M: the row groups, the subgroup sums, the
// workgroup (its `accs` partial sums an invocation, and `staging` bytes of x).
Refusal GemvShapeCheck(const GemvConfig& c, const MatmulShape& p, const DeviceLimits& limits,
                       uint64_t accs, uint64_t staging) {
  if (p.dims.k == 0 || p.dims.n == 0) return "the tuned GEMV needs K, N > 0";
  if (c.tpr > c.wg) return "the tuned GEMV's tpr " + std::to_string(c.tpr) + " exceeds its wg";
  if (c.subgroups == 1 && !SubgroupsFit(c, limits)) {
    return limits.subgroups ? "subgroup row sums need tpr within the device's smallest subgroup (" +
                                  std::to_string(limits.subgroup_min_size) + ")"
                            : std::string("the device has no subgroups");
  }
  const uint64_t sums = c.subgroups == 1 ? 0 : uint64_t{c.wg} * accs * 4;
  return WorkgroupRefusal(c.wg, sums + staging, "the tuned GEMV", limits);
}

Refusal GemvCheck(const GemvConfig& c, const MatmulShape& p, const DeviceLimits& limits) {
  if (p.dims.m != 1) return "the tuned GEMV computes one row (M = 1)";
  const uint64_t staging = p.weights == Weights::kQ4 ? kQ4StagingBytes : 0;
  return FirstRefusal({GemvShapeCheck(c, p, limits, c.rows, staging),
                       BindingRefusal(WeightBytes(p), "the GEMV's weights", limits)});
}

// llm_gemv_common_part's MAX_ROWS: the partial sums an invocation of the q8 GEMV keeps.
constexpr uint64_t kQ8MaxAccs = 8;

GemvConfig GemvQ8Resolve(const MatmulShape& p, const DeviceLimits& limits,
                         const Settings& settings) {
  // On the H200 (2026-12-01): the LM head (151,936 × 896, 28 blocks a row) took 27.8 µs with 16
  // invocations a row and 32.6 with 32; at N = 896 16 was slower (fewer workgroups), and at
  // 14,336 × 4096 1 % faster (11.92-11.96 against 12.05-12.13 µs in three pairs, 2026-12-02), so
  // 16 from N = 8192. With several activation rows (M > 1) one row a row group: its partial sums
  // are already M a row (at most kQ8MaxAccs in all). At M = 8 on the H200 (2026-12-02) the LM
  // head took 106 µs with 8 invocations a row against 130 with 16 and 32; at N ≤ 14,336 32 was
  // the best or within 1 % but for gate+up (10.5 µs with 16, 11.8 with 32).
  const bool tall = p.dims.n >= 65536;
  uint32_t tpr = 32;
  if (!limits.cpu && p.dims.m > 1 && tall) tpr = 8;
  if (!limits.cpu && p.dims.m == 1 && p.dims.n >= 8192) tpr = 16;
  GemvConfig config{.tpr = tpr, .rows = p.dims.m > 1 ? 1u : (limits.cpu ? 4u : (tall ? 2u : 1u))};
  config.tpr = SettingOr(settings, "tpr", config.tpr);
  // The H200's measurements behind the rest (docs/results/archive/NOTEBOOK.md, 2026-12-03;
  // h200-q8-batch-ab.txt, h200-q8-batch-axis.txt, h200-q8-small-axes.txt, interleaved with the
  // default):
  // - batch 4 where the first trip's four loads all fall in the row took 14,336 × 4096 from
  //   11.88-12.05 to 11.80-11.95 µs over two leases and left the other shapes within 1 %, M = 8
  //   too; on lavapipe it took the 28-block rows about twice as long (most loads past K).
  // - Below 8192 rows the grid is short of the GPU (down: 896 rows, 112 workgroups) and a lane's
  //   two blocks adjacent took down from 5.37 to 4.92 µs and from 5.27 to 4.87-4.95 in two
  //   leases (h200-q8-rules-ab.txt); it slowed every wider shape (14,336 × 4096 +24 %), and
  //   batch 4 with it lost (5.64).
  // - 64 invocations a workgroup took the LM head from 24.68 to 24.08 µs and from 24.9 to 24.35
  //   (-2 % in an earlier lease too, h200-q8-uniform-axes.txt) and cost every other shape.
  const bool deep = Q4BlocksOf(p.dims.k) >= 4 * uint64_t{config.tpr};
  if (!limits.cpu && p.dims.m == 1) {
    if (deep && p.dims.n >= 8192) config.batch = 4;
    if (deep && p.dims.n < 8192) config.adjacent = 1;
    if (tall) config.wg = 64;
  }
  config = GemvQ8Axes().With(config, settings);
  config.subgroups = SettingOr(settings, "subgroups", SubgroupsFit(config, limits) ? 1u : 0u);
  return config;
}

Refusal GemvQ8Check(const GemvConfig& c, const MatmulShape& p, const DeviceLimits& limits) {
  if (p.weights != Weights::kQ4) return "the q8 GEMV multiplies q4 weights";
  if (!limits.packed_4x8_dot) {
    return "the q8 GEMV needs WGSL's packed_4x8_integer_dot_product (dot4I8Packed)";
  }
  if (p.dims.m == 0 || uint64_t{c.rows} * p.dims.m > kQ8MaxAccs) {
    return "the q8 GEMV keeps rows x M partial sums, at most " + std::to_string(kQ8MaxAccs) +
           " (M from 1 to 8): rows " + std::to_string(c.rows) + ", M " + std::to_string(p.dims.m);
  }
  return FirstRefusal({GemvShapeCheck(c, p, limits, uint64_t{c.rows} * p.dims.m, 0),
                       BindingRefusal(WeightBytes(p), "the GEMV's weights", limits)});
}

const AxisTable<GemmConfig>& GemmAxes() {
  const char* tiers =
      "the largest tier giving 128 workgroups (128x128 of 8x8, 64x64 of 4x4, 32x32 of 4x4)";
  auto choice = [](const char* name, const char* meaning, const char* rule,
                   std::vector<uint32_t> values) {
    return Axis{
        .name = name, .meaning = meaning, .default_rule = rule, .choices = values, .grid = values};
  };
  static const AxisTable<GemmConfig> kAxes({
      {PowerOfTwoAxis("bm", "rows of C a workgroup", tiers, 4, 256, {32, 64, 128}, {32, 128}),
       &GemmConfig::bm},
      {PowerOfTwoAxis("bn", "columns of C a workgroup", tiers, 4, 256, {32, 64, 128}, {32, 128}),
       &GemmConfig::bn},
      {PowerOfTwoAxis("bk", "K staged a step [elements]",
                      "16 (f32 and the 128x128 tier), 32 for q4's smaller tiers", 4, 64,
                      {8, 16, 32}, {16}),
       &GemmConfig::bk},
      {choice("tm", "rows of C an invocation", "8 or 4 by tier", {4, 8}), &GemmConfig::tm},
      {choice("tn", "columns of C an invocation", "8 or 4 by tier", {4, 8}), &GemmConfig::tn},
      {choice("a_pad", "floats padding each staged row of A",
              "4, or 0 where the padded tiles exceed the workgroup memory", {0, 4}),
       &GemmConfig::a_pad},
      {CountAxis(
           "split_k", "slices of K, summed by a second dispatch",
           "1; below 1024 workgroups of tiles, enough for 1024 (at most 16, of 4 bk steps or more)",
           64, {1, 2, 4, 8, 16}, {1, 8}),
       &GemmConfig::split_k},
  });
  return kAxes;
}

GemmConfig GemmResolve(const MatmulShape& p, const DeviceLimits& limits,
                       const Settings& settings) {
  // The largest tiles that still give the device about a workgroup a multiprocessor (128 on the
  // H200's 132); small products (prefill of 50 tokens) get 32 × 32 tiles of 64 invocations.
  const uint32_t bk = p.weights == Weights::kQ4 ? 32u : 16u;
  const GemmConfig tiers[] = {
      {.bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 8},
      {.bm = 64, .bn = 64, .bk = bk, .tm = 4, .tn = 4},
      {.bm = 32, .bn = 32, .bk = bk, .tm = 4, .tn = 4},
  };
  GemmConfig config = tiers[2];
  for (const GemmConfig& tier : tiers) {
    if (CeilDiv(p.dims.m, tier.bm) * CeilDiv(p.dims.n, tier.bn) >= 128) {
      config = tier;
      break;
    }
  }
  config = GemmAxes().With(config, settings);
  if (!settings.contains("a_pad") &&
      config.TileBytes() > limits.max_compute_workgroup_storage_size) {
    config.a_pad = 0;
  }
  const uint64_t tiles = CeilDiv(p.dims.m, config.bm) * CeilDiv(p.dims.n, config.bn);
  const uint64_t steps = CeilDiv(p.dims.k, config.bk);
  // On the H200 (2026-12-01, split_k 1/4/8/16/32 at every M = 50 and M = 2048 shape,
  // docs/results/archive/NOTEBOOK.md): slices up to about 1024 workgroups, at most 16, were the
  // fastest or within 5 % of it at M = 50 (2-8x over none) and took k+v at M = 2048 (256 tiles) 2x;
  // 32 slices lost.
  if (!settings.contains("split_k") && tiles < 1024 && steps >= 8) {
    config.split_k =
        static_cast<uint32_t>(std::min({CeilDiv(1024, tiles), steps / 4, uint64_t{16}}));
  }
  return config;
}

// A load count an invocation: `elements` spread over `invocations`, a whole number from 1 to 8
// (llm_gemm_core_part.wgsl's MAX_LOADS).
bool WholeLoads(uint32_t elements, uint32_t invocations) {
  return invocations > 0 && elements % invocations == 0 && elements / invocations >= 1 &&
         elements / invocations <= 8;
}

Refusal GemmCheck(const GemmConfig& c, const MatmulShape& p, const DeviceLimits& limits) {
  const MatmulDims& d = p.dims;
  if (d.m == 0 || d.k == 0 || d.n == 0) return "the tuned GEMM needs M, K, N > 0";
  const std::string tiles = "the tuned GEMM's " + std::to_string(c.bm) + "x" +
                            std::to_string(c.bn) + "x" + std::to_string(c.bk) + " tiles of " +
                            std::to_string(c.tm) + "x" + std::to_string(c.tn);
  if (c.bm % c.tm != 0 || c.bn % c.tn != 0) {
    return tiles + " are not whole numbers of an invocation's tm x tn";
  }
  const bool q4 = p.weights == Weights::kQ4;
  const uint32_t b_elements = q4 ? c.bk * c.bn / 8 : c.bk * c.bn / 4;
  if (c.bk % (q4 ? 8 : 4) != 0 || !WholeLoads(c.bm * c.bk / 4, c.Invocations()) ||
      !WholeLoads(b_elements, c.Invocations())) {
    return tiles + " are not a whole number (1 to 8) of loads an invocation";
  }
  const uint64_t b_bytes = q4 ? WeightBytes(p) : d.k * PaddedTo4(d.n) * 4;
  const uint64_t partials = c.split_k > 1 ? uint64_t{c.split_k} * d.m * PaddedTo4(d.n) * 4 : 0;
  return FirstRefusal({WorkgroupRefusal(c.Invocations(), c.TileBytes(), tiles, limits),
                       BindingRefusal(partials, "the GEMM's split-K partials", limits),
                       BindingRefusal(b_bytes, "the GEMM's weights", limits),
                       BindingRefusal(d.m * PaddedTo4(d.k) * 4, "the GEMM's A", limits),
                       BindingRefusal(d.m * PaddedTo4(d.n) * 4, "the GEMM's C", limits)});
}

}  // namespace

const OpRules<MatmulShape, NoConfig> kSeedMatmulRules{"the seed's matmul", &NoAxes,
                                                        &NoResolve<MatmulShape>, &SeedCheck};
const OpRules<MatmulShape, GemvConfig> kGemvRules{"the tuned GEMV", &GemvAxes, &GemvResolve,
                                                    &GemvCheck};
const OpRules<MatmulShape, GemvConfig> kGemvQ8Rules{"the q8 GEMV", &GemvQ8Axes, &GemvQ8Resolve,
                                                      &GemvQ8Check};
const OpRules<MatmulShape, GemmConfig> kGemmRules{"the tuned GEMM", &GemmAxes, &GemmResolve,
                                                    &GemmCheck};

std::map<std::string, double> GemvQ8Constants(const MatmulShape& shape, const GemvConfig& config) {
  return {{"WG", config.wg},
          {"TPR", config.tpr},
          {"ROWS", config.rows},
          {"M_ROWS", shape.dims.m},
          {"K_COLS", shape.dims.k},
          {"N_ROWS", shape.dims.n},
          {"ACCS", config.rows * shape.dims.m},
          {"K_BATCH", config.batch},
          {"ADJACENT", config.adjacent}};
}

std::string_view GemvReducePart(const GemvConfig& config) {
  return config.subgroups == 1 ? "llm_gemv_reduce_subgroup_part" : "llm_gemv_reduce_workgroup_part";
}

}  // namespace refract::ops
