// refract decode: a model's whole decode step, verified against the CPU model, in tokens/s,
// beside the two ceilings that bound it (read-linear, the dependent-dispatch floor) measured in
// the same run.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "base/error.h"
#include "bench/runner.h"
#include "bench/session.h"
#include "cli/app.h"
#include "cli/commands.h"
#include "cli/decode_export.h"
#include "cli/decode_fusion.h"
#include "cli/decode_profile.h"
#include "cli/interrupts.h"
#include "cli/number_checks.h"
#include "cli/profile_store.h"
#include "cli/suite_command.h"
#include "decode/model_spec.h"
#include "kernels/embedded_kernels.h"
#include "report/decode_text.h"
#include "report/final_table.h"
#include "report/live_table.h"
#include "report/terminal.h"
#include "results/json_io.h"
#include "results/output_file.h"
#include "suites/ceilings/linear_bandwidth_row.h"
#include "suites/decode/decode_rows.h"
#include "suites/smoke/smoke_benchmark.h"

namespace refract::cli {
namespace {

struct DecodeOptions {
  CommonOptions common;
  std::string model = "qwen2.5-0.5b";
  std::vector<uint32_t> contexts = {1024};
  uint32_t tokens = 128;
  uint32_t warmup = 8;
  uint32_t verify_steps = 2;
  uint32_t prompt = 0;  ///< a prefill of this many tokens at each context first; 0: none
  uint32_t steps_per_submit = 16;
  std::optional<uint32_t> layers;
  std::string export_dir;
  std::string activations = "auto";  ///< f32, q8, or auto: q8 where the device has dot4I8Packed
  /// q8: down (the fused kernels, the down projection in the gate/up GEMV), on (the fused
  /// kernels), own-merge, o-heads, o-merge, off (an op a dispatch), or auto: on a GPU down, on a
  /// CPU adapter off
  std::string fusion = "auto";
  std::string profile_path;  ///< a profile store whose winners the step runs; "": none
};

/// The dependent-dispatch floor: the smoke kernel over 32,768 floats (128 workgroups, about a
/// decode GEMV's grid), back to back in one pass, each dispatch after Dawn's barrier.
constexpr uint32_t kFloorElements = 32768;

reference::DecoderShape ModelFor(const DecodeOptions& o) {
  reference::DecoderShape shape = decode::LoadModel(o.model);
  if (o.layers) {
    if (*o.layers > shape.layers) {
      throw UsageError(
          fmt::format("--layers {}: {} has {} layers", *o.layers, shape.name, shape.layers));
    }
    shape.layers = *o.layers;
    shape.name += fmt::format("-{}l", shape.layers);
  }
  std::vector<uint32_t> sorted = o.contexts;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw UsageError("--context names a context twice: each is a row of its own");
  }
  for (uint32_t context : o.contexts) {
    const uint64_t last =
        uint64_t{context} + std::max({o.warmup, o.tokens, o.prompt + o.verify_steps});
    if (shape.attention_window != 0 && last > shape.attention_window) {
      throw UsageError(fmt::format(
          "--context {}: the steps reach position {}, past {}'s sliding_window of {} (refract's "
          "attention sees the whole cache)",
          context, last, shape.name, shape.attention_window));
    }
  }
  return shape;
}

std::map<std::string, std::string> Described(const DecodeOptions& o, uint64_t seed) {
  std::string contexts;
  for (uint32_t c : o.contexts) contexts += (contexts.empty() ? "" : ",") + std::to_string(c);
  std::map<std::string, std::string> options = {
      {"model", o.model},
      {"context", contexts},
      {"tokens", std::to_string(o.tokens)},
      {"warmup", std::to_string(o.warmup)},
      {"verify_steps", std::to_string(o.verify_steps)},
      {"steps_per_submit", std::to_string(o.steps_per_submit)},
      {"adapter", o.common.gpu.adapter},
      {"seed", std::to_string(seed)},
      {"timestamps", o.common.no_timestamps ? "off" : "on"},
      {"activations", o.activations},
      {"fusion", o.fusion}};
  if (o.layers) options["layers"] = std::to_string(*o.layers);
  if (o.prompt > 0) options["prompt"] = std::to_string(o.prompt);
  if (!o.export_dir.empty()) options["export"] = o.export_dir;
  if (!o.profile_path.empty()) options["profile"] = o.profile_path;
  return options;
}

/// The ceilings of the run's own rows: read-linear's rate, the floor's time a dispatch.
suites::decode::DecodeCeilings CeilingsOf(const std::vector<results::ResultRow>& rows) {
  suites::decode::DecodeCeilings ceilings;
  for (const results::ResultRow& row : rows) {
    if (row.status != results::RowStatus::kOk) continue;
    if (row.id == "read-linear") ceilings.read_bandwidth_Bps = row.metric_value;
    if (row.id == "dispatch-floor") ceilings.dispatch_floor_ms = row.stats.min;
  }
  return ceilings;
}

int RunDecodeCommand(const DecodeOptions& o, std::ostream& out) {
  try {
    static_cast<void>(wgsl::KernelDir());
  } catch (const Error& error) {
    throw EnvironmentError(error.what());
  }
  const reference::DecoderShape shape = ModelFor(o);
  // The files the run reads (a config.json, a profile store): no output may lead to one.
  const std::vector<std::string> builtins = decode::BuiltinModelNames();
  const bool model_file = std::find(builtins.begin(), builtins.end(), o.model) == builtins.end();
  CheckOutputPaths({o.common.json_path, o.common.reports.html_path, o.common.reports.csv_path,
                    o.common.reports.markdown_path},
                   {model_file ? o.model : "", o.profile_path});
  if (!o.export_dir.empty()) CheckExportFolder(o.export_dir);
  std::optional<profile::Store> store;
  if (!o.profile_path.empty()) store = ReadStore(o.profile_path);
  const uint64_t seed = RunSeed(o.common);
  InterruptHandling interrupts;
  const bool to_stdout = o.common.json_path == "-" || o.common.reports.AnyToStdout();
  std::ostream& tables = to_stdout ? std::cerr : out;
  report::TerminalStyle style = report::DetectTerminalStyle(to_stdout ? stderr : stdout);
  if (o.common.no_live || (&tables != &std::cout && &tables != &std::cerr)) style.is_tty = false;
  if (!style.is_tty) style.color = false;

  std::map<std::string, std::string> described = Described(o, seed);
  if (const std::string dir = wgsl::KernelDir(); !dir.empty()) described["kernel_dir"] = dir;
  bench::RunSession session("decode", std::move(described), seed);
  gpu::Context context(ToContextOptions(o.common.gpu));

  const bool dot4 = context.limits().packed_4x8_dot;
  if (o.activations == "q8" && !dot4) {
    throw EnvironmentError(
        "--activations q8: this device has no dot4I8Packed (WGSL's "
        "packed_4x8_integer_dot_product), which the q8 GEMVs use");
  }
  const reference::DecoderActivations activations =
      o.activations == "f32" || (o.activations == "auto" && !dot4)
          ? reference::DecoderActivations::kF32
          : reference::DecoderActivations::kQ8;
  const DecodeFusion fusion = ChooseDecodeFusion(o.fusion, context.limits().cpu);
  tables << fmt::format("refract decode on {} ({}): {}, {} layers, {} activations, seed {}\n",
                        context.description().device, context.description().backend, shape.name,
                        shape.layers, suites::decode::ToString(activations), seed);

  DecodeGemvChoices gemvs;
  if (store) {
    gemvs = ChooseDecodeGemvs(*store, context, shape,
                              decode::StepGemvs(shape, activations, fusion.fuse, fusion.fuse_down));
    for (const std::string& line : gemvs.sources) tables << "  " << line << "\n";
  }

  std::vector<std::string> ids = {"read-linear", "dispatch-floor"};
  std::vector<suites::decode::DecodeRequest> requests;
  for (uint32_t c : o.contexts) {
    requests.push_back({.context = c,
                        .tokens = o.tokens,
                        .warmup = o.warmup,
                        .verify_steps = o.verify_steps,
                        .steps_per_submit = o.steps_per_submit,
                        .profile_steps = 8,
                        .timestamps = !o.common.no_timestamps,
                        .prompt = o.prompt,
                        .activations = activations,
                        .gemvs = gemvs.configs,
                        .gemv_sources = gemvs.sources,
                        .fuse = fusion.fuse,
                        .merge = fusion.merge,
                        .fuse_down = fusion.fuse_down});
    if (store) {
      DecodeAttentionChoice attention =
          ChooseDecodeAttention(*store, context, shape, requests.back());
      tables << "  " << attention.source << "\n";
      requests.back().attention = std::move(attention.settings);
      requests.back().attention_source = std::move(attention.source);
    }
    if (o.prompt > 0) ids.push_back(suites::decode::PrefillRowId(shape, requests.back()));
    ids.push_back(suites::decode::DecodeRowId(shape, requests.back()));
  }
  report::LiveTable live(tables, style, ids);

  suites::ceilings::LinearBandwidthRow read_linear(suites::ceilings::LinearAccess::kRead,
                                                   std::nullopt);
  suites::smoke::SmokeBenchmark floor(kFloorElements, "dispatch-floor");
  std::vector<bench::Benchmark*> ceiling_rows = {&read_linear, &floor};
  bench::RunOptions run_options;
  run_options.use_timestamps = !o.common.no_timestamps;
  run_options.scheduler.seed = seed;
  run_options.scheduler.stop_requested = [] { return InterruptHandling::StopRequested(); };
  std::vector<results::ResultRow> rows =
      bench::RunBenchmarks(context, ceiling_rows, run_options, &live);
  const suites::decode::DecodeCeilings ceilings = CeilingsOf(rows);

  if (!InterruptHandling::StopRequested()) {
    const suites::decode::DecodeModel model(context, shape, seed);
    for (size_t i = 0; i < requests.size(); ++i) {
      live.OnProgress(static_cast<int>(i + 1), static_cast<int>(i),
                      static_cast<int>(requests.size()), results::kNoValue);
      if (InterruptHandling::StopRequested()) break;
      if (o.prompt > 0) {
        rows.push_back(
            suites::decode::RunPrefillRow(context, model, requests[i], ceilings, seed, &live));
      }
      rows.push_back(
          suites::decode::RunDecodeRow(context, model, requests[i], ceilings, seed, &live));
    }
    if (!o.export_dir.empty()) {
      ExportDecode(context, model, o.contexts.front(), o.export_dir, seed, tables);
    }
  }
  live.Finish();
  results::Summary summary;
  for (const results::ResultRow& row : rows) {
    const std::string phase = results::TextOf(row.params, "phase");
    if (row.category == "decode" && phase == "decode" && row.status == results::RowStatus::kOk) {
      summary.emplace("tokens_per_s", row.metric_value);  // the first context's
    }
  }
  if (std::isfinite(ceilings.read_bandwidth_Bps)) {
    summary["read_bandwidth_Bps"] = ceilings.read_bandwidth_Bps;
  }
  const results::RunRecord& record =
      session.Finish(context.description(), std::move(rows), std::move(summary));
  tables << "\n";
  report::RenderFinalTable(tables, record, style, "Summary");
  report::RenderDecodeSummary(tables, record);
  if (!o.common.json_path.empty()) {
    {
      OutputWriting writing;
      results::WriteOutput(o.common.json_path, results::ToJson(record).dump(2) + "\n", out);
    }
    if (o.common.json_path != "-") tables << "results written to " << o.common.json_path << "\n";
  }
  {
    OutputWriting writing;
    WriteReports(o.common.reports, {{RunLabel(o.common.json_path, "decode"), record}}, out, tables);
  }
  if (context.hung()) return kExitTimeout;
  if (InterruptHandling::StopRequested()) return kExitInterrupted;
  const bool any_error = std::any_of(record.rows.begin(), record.rows.end(), [](const auto& row) {
    return row.status == results::RowStatus::kError;
  });
  return any_error ? kExitRowsFailed : kExitOk;
}

}  // namespace

Registered RegisterDecode(CLI::App& app) {
  auto options = std::make_shared<DecodeOptions>();
  CLI::App* command = app.add_subcommand(
      "decode",
      "A model's whole decode step: verified against the CPU model, in tokens/s, with "
      "its bandwidth and dispatch bounds");
  std::string names;
  for (const std::string& name : decode::BuiltinModelNames()) {
    names += (names.empty() ? "" : ", ") + name;
  }
  CheckFileName(command
                    ->add_option("--model", options->model,
                                 "A built-in model (" + names +
                                     ") or a Hugging Face config.json of the Llama / Qwen2 / "
                                     "Mistral family")
                    ->capture_default_str());
  // A whole-number option with its default shown, within [lowest, highest].
  auto whole = [command](const std::string& name, auto& value, const std::string& help,
                         uint64_t lowest, uint64_t highest) {
    return CheckWholeWithin(command->add_option(name, value, help)->capture_default_str(), lowest,
                            highest);
  };
  whole("--context", options->contexts, "Positions of KV history before the first step: S[,S...]",
        0, 1u << 20)
      ->delimiter(',');
  whole("--tokens", options->tokens, "Timed decode steps a context", 1, 1000);
  whole("--warmup", options->warmup,
        "Steps of a warm-up chunk, repeated at the same positions until the step time settles "
        "(0.5 s at least, 5 s at most)",
        1, 100);
  whole("--steps-per-submit", options->steps_per_submit,
        "Decode steps recorded into one pass and one submit, the GPU advancing each step's "
        "position and KV length (1: a step a command buffer, its values written by the host)",
        1, 1024);
  whole("--verify-steps", options->verify_steps,
        "Steps checked against the CPU model at each context", 1, 64);
  whole("--prompt", options->prompt,
        "First a prefill of P tokens at each context (its row ppP@dS, as llama-bench names it), "
        "verified and timed (0: none)",
        0, 8192);
  CheckWholeWithin(command->add_option("--layers", options->layers,
                                       "Run only the model's first L layers (its name gets -Ll)"),
                   1, 1024);
  CheckFileName(command->add_option(
      "--profile", options->profile_path,
      "Run each GEMV of the step, and decode attention at each context, with this profile "
      "store's winner for this adapter and its exact shape, where it has a fresh one (the rows' "
      "notes say which)"));
  command
      ->add_option("--activations", options->activations,
                   "How the GEMVs after a norm or silu-mul read their input: f32, or q8 (int8 "
                   "blocks of 32 written by the norm or silu-mul itself, read with "
                   "dot4I8Packed); auto: q8 where the device has dot4I8Packed")
      ->check(CLI::IsMember({"auto", "f32", "q8"}))
      ->capture_default_str();
  command
      ->add_option("--fusion", options->fusion,
                   "q8: own-merge, the GEMVs that add the residual, normalize and quantize their "
                   "input themselves and end in the op after them where the device takes them, "
                   "attention's merge a dispatch of its own (6 dispatches a layer); o-heads, "
                   "those with attention's merge and the o projection a group of heads at a time, "
                   "their shares added up in fixed point for the gate/up GEMV (5); o-merge, those "
                   "with the o GEMV merging attention's splits itself (5; slower on the H100 at S "
                   "= 1024 and beyond); on, o-heads where its shares take 64 KiB or less (where it measured "
                   "faster), else own-merge; off, every op a dispatch of its own (10); down, on "
                   "with each gate/up GEMV ending in the down projection, which it adds up in "
                   "fixed point for the next layer's q/k/v GEMV (one fewer a layer); auto, down "
                   "on a GPU and off on a CPU adapter (where the fused kernels measured slower). "
                   "f32 runs every op apart either way")
      ->check(CLI::IsMember(DecodeFusionChoices()))
      ->capture_default_str();
  CheckFileName(command->add_option(
      "--export", options->export_dir,
      "Write the synthetic model (config.json, model.safetensors), its KV history and the "
      "tokens and logits of its first steps to DIR, for scripts/check_decode_hf.py"));
  AddCommonOptions(*command, options->common, /*samples=*/false);
  Action action = [options](std::ostream& out, std::ostream&) {
    return RunDecodeCommand(*options, out);
  };
  return {command, action};
}

}  // namespace refract::cli
