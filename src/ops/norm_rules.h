// The normalisations: RMSNorm, LayerNorm and the fused residual add + RMSNorm, as seed 003's
// kernels (baseline: one workgroup of 256 a row; add-rmsnorm the seed's add, then its rmsnorm)
// and as one register-resident kernel (tuned: the row read once, RowConfig's layout).
#pragma once

#include <string_view>

#include "ops/op_rules.h"
#include "ops/row_layout.h"
#include "reference/llm_norm.h"

namespace refract::ops {

enum class NormKind {
  kRmsNorm,     ///< y = RMSNorm(x) · weight
  kLayerNorm,   ///< y = LayerNorm(x) · weight + bias
  kAddRmsNorm,  ///< h = x + b, y = RMSNorm(h) · weight
};

/// "rmsnorm", "layernorm", "add-rmsnorm".
std::string_view NormKindName(NormKind kind);

struct NormShape {
  NormKind kind = NormKind::kRmsNorm;
  reference::NormShape shape;
};

/// The tuned kernel's row: at most 16 elements an invocation (llm_norm_tuned.wgsl's kMaxKept),
/// the default keeping one.
inline constexpr RowKernel kNormRowKernel{.max_kept = 16, .kept_target = 1};

/// The rules: the seed's kernels have no axes; the tuned op's are wg, vpt and subgroups
/// (ResolveRow at the hidden size), and it keeps the whole row: wg · vpt · width ≥ hidden.
extern const FamilyRules<NormShape, RowConfig> kNormRules;

}  // namespace refract::ops
