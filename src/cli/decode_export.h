// refract decode --export DIR: the synthetic model in Hugging Face's form (config.json,
// model.safetensors of the dequantized f32 weights), its KV history and the tokens and logits
// of the GPU's first steps from it, so that scripts/check_decode_hf.py can run the same network
// in transformers and compare: an independent check of the conventions refract's GPU step and
// CPU model share (docs/DECODE.md, "The independent check").
#pragma once

#include <ostream>
#include <string>

#include "gpu/context.h"
#include "suites/decode/decode_rows.h"

namespace refract::cli {

/// Steps the export records.
inline constexpr uint32_t kExportSteps = 4;

/// Throws UsageError unless `dir` is an existing, writable folder.
void CheckExportFolder(const std::string& dir);

/// Writes config.json, model.safetensors, history.safetensors (at `context` positions),
/// steps.safetensors (tokens [steps + 1] I32: each step's input, then the last step's argmax;
/// logits [steps, vocab] F32) and decode.json (what they hold) into `dir`, each file atomically;
/// says so on `messages`.
void ExportDecode(gpu::Context& context, const suites::decode::DecodeModel& model,
                  uint32_t history_positions, const std::string& dir, uint64_t seed,
                  std::ostream& messages);

}  // namespace refract::cli
