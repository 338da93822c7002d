// The bandwidth kernels' axis, default rule and limit checks: pure, no GPU.
#include <algorithm>

#include "ops/stream_rules.h"

namespace refract::ops {
namespace {

const AxisTable<StreamConfig>& StreamAxes() {
  static const AxisTable<StreamConfig> kAxes({
      {WorkgroupAxis("256", {256}, {256}), &StreamConfig::wg},
  });
  return kAxes;
}

Refusal StreamCheck(const StreamConfig& c, const StreamShape& p, const DeviceLimits& limits) {
  if (p.bytes == 0 || p.bytes % 16 != 0 || p.bytes / 16 > UINT32_MAX) {
    return "the bandwidth kernels need a whole number of vec4, 1 to 2^32 - 1 of them";
  }
  return FirstRefusal({BindingRefusal(p.bytes, "the bandwidth kernel's buffer", limits),
                       WorkgroupRefusal(c.wg, 0, "the bandwidth kernel", limits)});
}

}  // namespace

const char* StreamKindName(StreamKind kind) { return kind == StreamKind::kCopy ? "copy" : "read"; }

uint32_t StreamThreads(const StreamConfig& config, const StreamShape& problem) {
  const uint64_t count4 = problem.bytes / 16;
  // Copies keep gaining with stores in flight up to 4M invocations (the H200's write-linear,
  // docs/results/archive/NOTEBOOK.md); reads saturate at 1M.
  const uint64_t wanted = problem.kind == StreamKind::kCopy ? count4 : CeilDiv(count4, 8);
  const uint64_t most = uint64_t{1} << (problem.kind == StreamKind::kCopy ? 22 : 20);
  const uint64_t threads = std::clamp<uint64_t>(wanted, 1, most);
  return static_cast<uint32_t>(CeilDiv(threads, config.wg) * config.wg);
}

const OpRules<StreamShape, StreamConfig> kStreamRules{
    "the bandwidth kernel", &StreamAxes,
    &ResolveFromDefaults<StreamShape, StreamConfig, &StreamAxes>, &StreamCheck};

}  // namespace refract::ops
