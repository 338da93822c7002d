#include "cli/decode_fusion.h"

#include <fmt/format.h>

#include "base/error.h"

namespace refract::cli {

const std::vector<std::string>& DecodeFusionChoices() {
  static const std::vector<std::string> choices = {"auto",    "on",   "own-merge", "o-heads",
                                                   "o-merge", "down", "off"};
  return choices;
}

DecodeFusion ChooseDecodeFusion(std::string_view flag, bool cpu_adapter) {
  using decode::MergeFusion;
  // On a CPU adapter the fused kernels, each workgroup making its own input, cost more than the
  // dispatches they save: lavapipe (2 cores, 2026-12-06) decoded Qwen2.5-0.5B at S = 128 at 4.17
  // tokens/s with --fusion off against 2.48 with on. On the H100 (2026-12-07 06:41 UTC) down ran
  // Qwen2.5-0.5B at S = 1024 at 1,507-1,522 tokens/s against 1,364-1,374 with on, Llama-3.2-1B
  // 1,327 against 1,261.
  if (flag == "auto") return cpu_adapter ? DecodeFusion{} : ChooseDecodeFusion("down", false);
  if (flag == "off") return {};
  if (flag == "on") return {.fuse = true};
  if (flag == "down") return {.fuse = true, .fuse_down = true};
  if (flag == "own-merge") return {.fuse = true, .merge = MergeFusion::kOwnDispatch};
  if (flag == "o-heads") return {.fuse = true, .merge = MergeFusion::kByHead};
  if (flag == "o-merge") return {.fuse = true, .merge = MergeFusion::kInOGemv};
  throw UsageError(
      fmt::format("--fusion {}: expected one of {}", flag, fmt::join(DecodeFusionChoices(), ", ")));
}

}  // namespace refract::cli
