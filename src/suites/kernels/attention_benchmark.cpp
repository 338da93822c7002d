#include "suites/kernels/attention_benchmark.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

using reference::AttentionShape;

// llm_attention_tuned.wgsl's register-array bounds.
constexpr uint32_t kMaxRq = 4, kMaxRk = 8, kMaxChunks = 16;
constexpr uint64_t kFullCheckWork = uint64_t{1} << 25;  // T · heads · S · d checked in full
constexpr uint32_t kSampledPositions = 64;
constexpr uint32_t kCombineWorkgroup = 64;  // combine's @workgroup_size
// Workgroups a tuned row aims for before it splits the keys: enough to give each multiprocessor
// of a large GPU (the H200 has 132) one; more splits cost a longer combine pass.
constexpr uint64_t kTargetWorkgroups = 128;

// The seed's uniform (seed 003 §7), padded to 16 bytes.
struct BaselineParams {
  uint32_t t, s, num_q_heads, num_kv_heads, head_dim, position_offset, padding[2];
};
static_assert(sizeof(BaselineParams) == 32);

// llm_attention_tuned.wgsl's Params, padded to 16 bytes.
struct TunedParams {
  uint32_t seq_len, kv_len, heads, kv_heads, position_offset, causal, keys_per_split, splits;
  float scale_log2;
  uint32_t head_vec4, padding[2];
};
static_assert(sizeof(TunedParams) == 48);

uint32_t Chunks(uint32_t head_dim, uint32_t tc) { return (head_dim / 4 + tc - 1) / tc; }

/// FLOP: 4 · d · heads · the unmasked query-key pairs; bytes: Q, K, V read, the output written.
KernelCost AttentionCost(const AttentionShape& shape) {
  const double qo = static_cast<double>(shape.seq_len) * shape.heads * shape.head_dim;
  const double kv = static_cast<double>(shape.kv_len) * shape.kv_heads * shape.head_dim;
  return {.flops = 4.0 * shape.head_dim * shape.heads *
                   static_cast<double>(reference::VisiblePairs(shape)),
          .bytes = 4.0 * (2 * qo + 2 * kv)};
}

/// Q, K or V (the split partials are no larger than the keys' share of them) [bytes].
uint64_t LargestBinding(const AttentionShape& shape) {
  return 4 * uint64_t{shape.head_dim} *
         std::max(uint64_t{shape.seq_len} * shape.heads, uint64_t{shape.kv_len} * shape.kv_heads);
}

std::string DimsText(const AttentionShape& s) {
  return std::to_string(s.heads) + " heads / " + std::to_string(s.kv_heads) + " KV heads x " +
         std::to_string(s.head_dim);
}

}  // namespace

uint64_t AttentionTiles::WorkgroupBytes(uint32_t head_dim) const {
  const uint64_t dv = head_dim / 4, bq = block_rows(), bk = tile_keys();
  return 16 * (bq * dv + v_tiles * bk * (dv + 1)) + 4 * (bq * bk + bq * tc);
}

std::map<std::string, double> AttentionTiles::Constants(uint32_t head_dim) const {
  return {{"HEAD_DIM", head_dim}, {"TR", tr}, {"TC", tc}, {"RQ", rq}, {"RK", rk},
          {"V_TILES", v_tiles}};
}

AttentionTiles ResolveAttentionTiles(const gpu::Context& context, const AttentionShape& shape,
                                     const std::map<std::string, double>& overrides) {
  RequireKnownOverrides(overrides, {"TR", "TC", "RQ", "RK", "V_TILES", "SPLIT_KEYS"},
                        "tuned attention");
  const uint32_t d = shape.head_dim;
  const bool decode = shape.seq_len == 1;
  AttentionTiles t = decode ? AttentionTiles{.tr = 8, .tc = 16, .rq = 1, .rk = 4}
                            : AttentionTiles{.tr = 16, .tc = 16, .rq = 4, .rk = 2};
  const uint32_t limit = context.limits().max_compute_workgroup_storage_size;
  while (t.WorkgroupBytes(d) > limit) {
    if (t.v_tiles == 2) {
      t.v_tiles = 1;
    } else if (t.rq > 1) {
      t.rq /= 2;
    } else if (t.rk > 1) {
      t.rk /= 2;
    } else if (t.tc > 1 && Chunks(d, t.tc / 2) <= kMaxChunks) {
      t.tc /= 2;
    } else if (t.tr > 1) {
      t.tr /= 2;
    } else {
      break;  // RequireWorkgroupMemory below names the limit
    }
  }
  t.tr = OverrideOr(overrides, "TR", t.tr);
  t.tc = OverrideOr(overrides, "TC", t.tc);
  t.rq = OverrideOr(overrides, "RQ", t.rq);
  t.rk = OverrideOr(overrides, "RK", t.rk);
  t.v_tiles = OverrideOr(overrides, "V_TILES", t.v_tiles);
  if (overrides.contains("SPLIT_KEYS")) {
    t.split_keys = OverrideOr(overrides, "SPLIT_KEYS", 1);
  } else {
    // Too few row blocks to fill the device (decode, short prompts, small encoders): split the
    // keys into whole tiles until the grid reaches kTargetWorkgroups.
    const uint64_t blocks =
        gpu::GroupsFor(uint64_t{shape.seq_len} * shape.group(), t.block_rows()) *
        uint64_t{shape.kv_heads};
    const uint32_t tiles = gpu::GroupsFor(shape.kv_len, t.tile_keys());
    if (blocks < kTargetWorkgroups && tiles > 1) {
      const uint32_t splits = std::min<uint32_t>(
          tiles, gpu::GroupsFor(kTargetWorkgroups, static_cast<uint32_t>(blocks)));
      t.split_keys = gpu::GroupsFor(tiles, splits) * t.tile_keys();
    }
  }
  if (t.split_keys >= shape.kv_len) t.split_keys = 0;
  REFRACT_THROW_IF(t.rq > kMaxRq || t.rk > kMaxRk || t.v_tiles > 2 || Chunks(d, t.tc) > kMaxChunks,
                   UsageError,
                   "attention tiles: RQ must be at most 4, RK at most 8, V_TILES 1 or 2, and "
                   "head_dim / (4 TC) at most 16");
  REFRACT_THROW_IF(t.threads() > context.limits().max_compute_invocations_per_workgroup, UsageError,
                   "attention tiles: TR x TC = " + std::to_string(t.threads()) +
                       " threads exceed the device's maxComputeInvocationsPerWorkgroup");
  RequireWorkgroupMemory(context, t.WorkgroupBytes(d), "attention with these tiles");
  return t;
}

AttentionInputs MakeAttentionInputs(const AttentionShape& shape, uint64_t seed) {
  const size_t d = shape.head_dim;
  AttentionInputs in;
  in.q = reference::RandomFloats(size_t{shape.seq_len} * shape.heads * d, seed, -2.0f, 2.0f);
  in.k = reference::RandomFloats(size_t{shape.kv_len} * shape.kv_heads * d, seed + 1, -1.0f, 1.0f);
  in.v = reference::RandomFloats(size_t{shape.kv_len} * shape.kv_heads * d, seed + 2, -1.0f, 1.0f);
  const double logit = 96.0 * std::sqrt(static_cast<double>(d));  // before the 1/√d scale
  for (uint32_t t = 0; t < shape.seq_len; ++t) {
    for (uint32_t h = 0; h < shape.heads; ++h) {
      if ((size_t{t} * shape.heads + h) % 4 != 1) continue;
      const uint32_t key = reference::VisibleKeys(shape, t) - 1;
      const float* k_row = in.k.data() + (size_t{key} * shape.kv_heads + h / shape.group()) * d;
      double norm2 = 0;
      for (size_t i = 0; i < d; ++i) norm2 += double{k_row[i]} * k_row[i];
      float* q_row = in.q.data() + (size_t{t} * shape.heads + h) * d;
      for (size_t i = 0; i < d; ++i) q_row[i] = static_cast<float>(k_row[i] * logit / norm2);
    }
  }
  return in;
}

AttentionBenchmark::AttentionBenchmark(bench::BenchmarkInfo info, Variant variant,
                                       AttentionShape shape, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, AttentionCost(shape),
                      LargestBinding(shape), std::move(options)),
      shape_(shape) {
  reference::CheckAttentionShape(shape_);
  REFRACT_THROW_IF(variant == Variant::kBaseline && !shape_.causal, UsageError,
                   "the baseline attention is the seed's causal kernel: no non-causal form");
  REFRACT_THROW_IF(
      variant == Variant::kTuned && (shape_.head_dim % 4 != 0 || shape_.head_dim > 512), UsageError,
      "tuned attention needs head_dim a multiple of 4, at most 512");
}

std::vector<gpu::Dispatch> AttentionBenchmark::Build(gpu::Context& context, const Kernels& kernels,
                                                     const gpu::Buffer& q, const gpu::Buffer& k,
                                                     const gpu::Buffer& v,
                                                     const gpu::Buffer& out) const {
  if (variant() == Variant::kBaseline) {
    return {gpu::DispatchBuilder(context, kernels.main)
                .Buffer(0, q)
                .Buffer(1, k)
                .Buffer(2, v)
                .Buffer(3, out)
                .Buffer(4, kernels.params)
                .Groups(shape_.seq_len, shape_.heads)
                .Build()};
  }
  const uint64_t rows = uint64_t{shape_.seq_len} * shape_.group();
  const uint32_t blocks = gpu::GroupsFor(rows, tiles_.block_rows());
  gpu::DispatchBuilder attend(context, kernels.main);
  attend.Buffer(0, q).Buffer(1, k).Buffer(2, v).Buffer(4, kernels.params);
  attend.Groups(blocks, shape_.kv_heads, splits_);
  if (splits_ == 1) return {attend.Buffer(3, out).Build()};
  const uint64_t slots = uint64_t{splits_} * shape_.kv_heads * rows;
  gpu::Buffer part_o = StorageOf(context, slots * shape_.head_dim, "attention partial outputs");
  gpu::Buffer part_ml = StorageOf(context, slots * 2, "attention partial max and sum");
  gpu::Dispatch combine =
      gpu::DispatchBuilder(context, kernels.combine)
          .Buffer(3, out)
          .Buffer(4, kernels.params)
          .Buffer(5, part_o)
          .Buffer(6, part_ml)
          .Groups(gpu::GroupsFor(shape_.kv_heads * rows * (shape_.head_dim / 4), kCombineWorkgroup))
          .Build();
  return {attend.Buffer(5, part_o).Buffer(6, part_ml).Build(), combine};
}

void AttentionBenchmark::Prepare(gpu::Context& context) {
  Release();
  inputs_ = MakeAttentionInputs(shape_, options().seed);
  const std::string label = info().id;
  Kernels kernels;
  if (variant() == Variant::kBaseline) {
    kernels.main = CompileKernel(context, {"llm_attention_baseline"}, label);
    kernels.params = gpu::Uniform(context, BaselineParams{shape_.seq_len,
                                                          shape_.kv_len,
                                                          shape_.heads,
                                                          shape_.kv_heads,
                                                          shape_.head_dim,
                                                          shape_.position_offset,
                                                          {}});
  } else {
    tiles_ = ResolveAttentionTiles(context, shape_, options().overrides);
    const uint32_t keys_per_split = tiles_.split_keys == 0 ? shape_.kv_len : tiles_.split_keys;
    splits_ = (shape_.kv_len + keys_per_split - 1) / keys_per_split;
    const auto constants = tiles_.Constants(shape_.head_dim);
    kernels.main = CompileKernel(context, {"llm_attention_tuned"}, label,
                                 splits_ == 1 ? "main" : "main_split", constants);
    if (splits_ > 1) {
      kernels.combine =
          CompileKernel(context, {"llm_attention_tuned"}, label, "combine", constants);
    }
    const float scale_log2 = static_cast<float>(std::numbers::log2e / std::sqrt(shape_.head_dim));
    kernels.params = gpu::Uniform(context, TunedParams{shape_.seq_len,
                                                       shape_.kv_len,
                                                       shape_.heads,
                                                       shape_.kv_heads,
                                                       shape_.position_offset,
                                                       shape_.causal ? 1u : 0u,
                                                       keys_per_split,
                                                       splits_,
                                                       scale_log2,
                                                       shape_.head_dim / 4,
                                                       {}});
    SetParam("tiles", "TR" + std::to_string(tiles_.tr) + " TC" + std::to_string(tiles_.tc) + " RQ" +
                          std::to_string(tiles_.rq) + " RK" + std::to_string(tiles_.rk) + " V" +
                          std::to_string(tiles_.v_tiles));
    SetParam("splits", splits_);
  }
  const uint64_t input_bytes = 4 * (inputs_.q.size() + inputs_.k.size() + inputs_.v.size());
  BuildCopies(context, input_bytes, [&](uint32_t) {
    const gpu::Buffer output = StorageOf(context, inputs_.q.size(), "attention output");
    return Copy{.dispatches = Build(context, kernels, StorageWith(context, inputs_.q, "q"),
                                    StorageWith(context, inputs_.k, "k"),
                                    StorageWith(context, inputs_.v, "v"), output),
                .kept = {output}};
  });
}

VerificationRecord AttentionBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu =
      gpu::Download<float>(context, FirstCopyBuffer(0), inputs_.q.size());
  const uint32_t d = shape_.head_dim, heads = shape_.heads;
  auto namer = [d, heads](size_t index) {
    return "query " + std::to_string(index / (size_t{heads} * d)) + ", head " +
           std::to_string(index / d % heads) + ", dim " + std::to_string(index % d);
  };
  const std::string what = info().id;
  const uint64_t work = uint64_t{shape_.seq_len} * heads * shape_.kv_len * d;
  if (work <= kFullCheckWork) {
    const std::vector<float> cpu = reference::Attention(shape_, inputs_.q, inputs_.k, inputs_.v);
    return reference::Compare(what, gpu, cpu, reference::AttentionTolerance(cpu), namer);
  }
  const std::vector<uint32_t> positions =
      SampleIndices(shape_.seq_len, kSampledPositions, options().seed);
  const size_t row_values = size_t{heads} * d;
  std::vector<float> cpu(positions.size() * row_values);
  for (size_t p = 0; p < positions.size(); ++p) {
    for (uint32_t h = 0; h < heads; ++h) {
      reference::AttentionRow(shape_, inputs_.q, inputs_.k, inputs_.v, positions[p], h,
                              std::span(cpu).subspan(p * row_values + size_t{h} * d, d));
    }
  }
  reference::Comparison comparison(what, reference::AttentionTolerance(cpu), namer);
  return CompareRows(comparison, gpu, cpu, positions, row_values);
}

std::vector<std::unique_ptr<KernelBenchmark>> AttentionBenchmarks(const KernelOptions& options) {
  struct Case {
    const ModelConfig* model;
    std::string phase;
    AttentionShape shape;
    bool baseline;  // the seed's kernel exists for it (causal)
  };
  std::vector<Case> cases;
  const ModelConfig& qwen = Qwen25();
  const ModelConfig& gemma = EmbeddingGemma2();
  auto shape = [](const ModelConfig& m, uint32_t t, uint32_t s, bool causal) {
    return AttentionShape{.seq_len = t,
                          .kv_len = s,
                          .heads = m.heads,
                          .kv_heads = m.kv_heads,
                          .head_dim = m.head_dim,
                          .position_offset = s - t,
                          .causal = causal};
  };
  for (uint32_t s : {128u, 1024u, 4096u})
    cases.push_back({&qwen, "decode", shape(qwen, 1, s, true), true});
  for (uint32_t t : {50u, 2048u})
    cases.push_back({&qwen, "prefill", shape(qwen, t, t, true), true});
  cases.push_back({&gemma, "prefill", shape(gemma, 128, 128, true), true});
  cases.push_back({&gemma, "encoder", shape(gemma, 128, 128, false), false});

  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const Case& c : cases) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      if (variant == Variant::kBaseline && !c.baseline) continue;
      const AttentionShape& s = c.shape;
      bench::BenchmarkInfo info;
      info.id = RowId({"attention", c.model->name, c.phase, "t" + std::to_string(s.seq_len),
                       "s" + std::to_string(s.kv_len)},
                      variant);
      info.category = "attention";
      info.description = c.model->name + " " + c.phase + " attention, " +
                         std::to_string(s.seq_len) + " queries x " + std::to_string(s.kv_len) +
                         " keys, " + DimsText(s) + (s.causal ? ", causal" : ", not causal") +
                         "; FLOP = 4 d heads x unmasked pairs (QK^T and PV)";
      info.params = {{"model", c.model->name},
                     {"phase", c.phase},
                     {"t", s.seq_len},
                     {"s", s.kv_len},
                     {"heads", s.heads},
                     {"kv_heads", s.kv_heads},
                     {"head_dim", s.head_dim},
                     {"position_offset", s.position_offset},
                     {"causal", s.causal ? "true" : "false"}};
      rows.push_back(std::make_unique<AttentionBenchmark>(std::move(info), variant, s, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
