#include "ops/op_kinds.h"

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

struct StreamParams {
  uint32_t count4, threads, padding[2];
};

Kernel Compile(gpu::Context& context, const StreamShape& p, const StreamConfig& c,
               const std::string& label) {
  const StreamParams params{static_cast<uint32_t>(p.bytes / 16), StreamThreads(c, p), {}};
  const char* entry = p.kind == StreamKind::kCopy ? "copy_vec4" : "read_vec4";
  return {.pipelines = {CompileKernel(context, {"stream_vec4"}, label, entry, {{"WG", c.wg}})},
          .buffers = {gpu::Uniform(context, params, "stream params")}};
}

std::vector<gpu::Dispatch> Record(gpu::Context& context, const Kernel& k, const StreamShape& p,
                                  const StreamConfig& c, const StreamBuffers& b) {
  const uint32_t groups = StreamThreads(c, p) / c.wg;
  // Each entry point's layout holds only the bindings it uses.
  if (p.kind == StreamKind::kCopy) {
    return {
        OneDispatch(context, k.pipelines[0], {b.source, b.destination, {}, k.buffers[0]}, groups)};
  }
  return {OneDispatch(context, k.pipelines[0], {b.source, {}, b.sums, k.buffers[0]}, groups)};
}

}  // namespace

const OpKind<StreamShape, StreamConfig, StreamBuffers> kStream{kStreamRules, &Compile, &Record};

}  // namespace refract::ops
