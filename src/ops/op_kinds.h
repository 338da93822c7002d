// Every op's GPU half, by family: the caller's buffers of one call and the op kinds that compile a
// family's kernels and record one call's dispatches on those buffers (op.h). The shapes,
// configurations and rules each family's op runs at are its *_rules.h, which see no GPU.
#pragma once

#include "ops/op.h"
#include "ops/activation_rules.h"
#include "ops/attention_rules.h"
#include "ops/binary_rules.h"
#include "ops/embedding_rules.h"
#include "ops/matmul_f16_rules.h"
#include "ops/matmul_rules.h"
#include "ops/norm_rules.h"
#include "ops/quantize_rules.h"
#include "ops/reduce_rules.h"
#include "ops/rope_rules.h"
#include "ops/scan_rules.h"
#include "ops/softmax_rules.h"
#include "ops/stream_rules.h"

namespace refract::ops {

// ---- Matmuls (matmul_rules.h) ----

/// The caller's buffers of one call. Baseline: a [M, K], `w` the seed's B ([K, N] f32, or its
/// packed int4 words, `scales` and `zeros`), c [M, N]. Tuned: a [M, K] rows padded with zeros to
/// whole vec4; f32 `w` as the GEMV's W [N, K] or the GEMM's B [K, N], rows padded to whole vec4;
/// q4 `w` the MatMulNBits blocks and `scales`; c [M, N] (the GEMM's rows GemmCStride apart).
/// The q8 GEMV: `a` the quantized x's code words and `a_scales` its blocks' (d, Σq).
struct MatmulBuffers {
  gpu::BufferSlice a, w, scales, zeros, c, a_scales;
};

extern const OpKind<MatmulShape, NoConfig, MatmulBuffers> kSeedMatmul;
extern const OpKind<MatmulShape, GemvConfig, MatmulBuffers> kGemv;
extern const OpKind<MatmulShape, GemvConfig, MatmulBuffers> kGemvQ8;
extern const OpKind<MatmulShape, GemmConfig, MatmulBuffers> kGemm;

// ---- The q8 activation quantizer (quantize_rules.h) ----

/// The caller's buffers of one call: x [M, K] f32; codes [M · ceil(K / 32) · 8] u32; scale_sums
/// [M · ceil(K / 32)] × (d, Σq) f32.
struct QuantizeBuffers {
  gpu::BufferSlice x, codes, scale_sums;
};

extern const OpKind<QuantizeShape, QuantizeConfig, QuantizeBuffers> kQuantizeQ8;

// ---- Norms (norm_rules.h) ----

/// The caller's buffers of one call, [rows, hidden] f32 unless said: x; weight [hidden]; y;
/// layernorm's bias [hidden]; add-rmsnorm's b and h (h = x + b, written).
struct NormBuffers {
  gpu::BufferSlice x, weight, y, bias, b, h;
};

/// The ops.
extern const Family<NormShape, RowConfig, NormBuffers> kNormOps;

// ---- Softmax (softmax_rules.h) ----

/// The caller's buffers of one call: input and output, [rows, row_size] f32 each.
struct SoftmaxBuffers {
  gpu::BufferSlice input, output;
};

/// The ops.
extern const Family<SoftmaxShape, RowConfig, SoftmaxBuffers> kSoftmaxOps;

// ---- RoPE (rope_rules.h) ----

/// The caller's buffers of one call, rotated in place: q [T, heads · d], k [T, kv_heads · d].
struct RopeBuffers {
  gpu::BufferSlice q, k;
};

/// The ops.
extern const Family<RopeShape, RopeConfig, RopeBuffers> kRopeOps;

// ---- Activations (activation_rules.h) ----

/// The caller's buffers of one call, `count` f32 each: x (silu-mul: the gate), y, silu-mul's up.
struct ActivationBuffers {
  gpu::BufferSlice x, y, up;
};

/// The ops (the seed's silu-mul also allocates its intermediate silu(gate)).
extern const Family<ActivationShape, ActivationConfig, ActivationBuffers> kActivationOps;

// ---- Add and mul (binary_rules.h) ----

/// The caller's buffers of one call: output = a + b (or a · b), `count` f32 each; for the tuned
/// op each holds count rounded up to whole vec4 (the last vec4 is written whole).
struct BinaryBuffers {
  gpu::BufferSlice a, b, output;
};

/// The ops.
extern const Family<BinaryShape, BinaryConfig, BinaryBuffers> kBinaryOps;

// ---- Embedding (embedding_rules.h) ----

/// The caller's buffers of one call: ids [T] u32, table [vocab, hidden] f32, output [T, hidden].
struct EmbeddingBuffers {
  gpu::BufferSlice ids, table, output;
};

/// The ops.
extern const Family<EmbeddingShape, EmbeddingConfig, EmbeddingBuffers> kEmbeddingOps;

// ---- Attention (attention_rules.h) ----

/// The caller's buffers of one call: q [T, heads · d], k and v [S, kv_heads · d], out like q.
/// The decode op only: `params`, a uniform of the caller's (AttentionDecodeParams) that it binds
/// instead of its own; `part_o` and `part_ml`, the split's partials in buffers of the caller's
/// (llm_attention_decode.wgsl's layout: heads · splits · head_dim f32 and heads · splits (max,
/// sum)), for a consumer of its own to merge; empty: the call's own scratch.
struct AttentionBuffers {
  gpu::BufferSlice q, k, v, out, params;
  gpu::BufferSlice part_o, part_ml;
};

/// The ops (the tuned one also allocates the split partials when the keys are split).
extern const Family<AttentionShape, AttentionConfig, AttentionBuffers> kAttentionOps;
extern const OpKind<AttentionShape, AttentionDecodeConfig, AttentionBuffers> kAttentionDecode;

// ---- The sweeps' sum (reduce_rules.h) ----

/// The caller's buffers: `data` (count f32), `partials` (ReducePartials f32: each workgroup's
/// sum, which a check can read) and `result` (one f32, the sum).
struct ReduceBuffers {
  gpu::BufferSlice data, partials, result;
};

extern const OpKind<ReduceShape, ReduceConfig, ReduceBuffers> kReduce;

// ---- The bandwidth sweep's copy and read (stream_rules.h) ----

/// The caller's buffers: `source` (bytes); copy: `destination` (bytes); read: `sums`
/// (StreamThreads f32).
struct StreamBuffers {
  gpu::BufferSlice source, destination, sums;
};

extern const OpKind<StreamShape, StreamConfig, StreamBuffers> kStream;

// ---- The 2-bit corpus scan (scan_rules.h) ----

/// The caller's buffers: codes (vectors × d / 16 u32), norms (vectors f32), lut (8 × d × 4 f32),
/// scores (vectors × 8 f32).
struct ScanBuffers {
  gpu::BufferSlice codes, norms, lut, scores;
};

extern const OpKind<ScanShape, ScanConfig, ScanBuffers> kScan;

// ---- The f16 matmul (matmul_f16_rules.h) ----

/// The caller's buffers: a [M, K] and b [K, N] f16 (row-major, two to a u32 word; a whole
/// number of words), c [M, N] f32.
struct MatmulF16Buffers {
  gpu::BufferSlice a, b, c;
};

extern const OpKind<MatmulDims, MatmulF16Config, MatmulF16Buffers> kMatmulF16;

}  // namespace refract::ops
