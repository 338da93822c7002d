// refract decode as a user runs it: a config.json that means nothing is exit 2 naming its field,
// a small model's run writes its rows, its report and its export.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;

// A Llama-family model small enough for lavapipe (GQA 4, Llama 3's RoPE scaling, untied head).
const std::string kTinyLlama = R"({"model_type": "llama", "hidden_size": 128,
  "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 32,
  "intermediate_size": 256, "vocab_size": 1000, "rope_theta": 500000.0, "rms_norm_eps": 1e-05,
  "tie_word_embeddings": false, "rope_scaling": {"rope_type": "llama3", "factor": 32.0,
  "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})";

class CliDecode : public ::testing::Test {
 protected:
  std::string Config(const std::string& name, const std::string& text) {
    const fs::path path = scratch_.path() / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::string Path(const std::string& name) const { return (scratch_.path() / name).string(); }
  testing::ScratchFolder scratch_{"decode"};
};

/// kTinyLlama with `from` replaced by `to`.
std::string Edited(const std::string& from, const std::string& to) {
  std::string text = kTinyLlama;
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST_F(CliDecode, AConfigThatMeansNothingIsExitTwoNamingItsField) {
  const struct {
    std::string text, says;
  } cases[] = {
      {Edited("\"hidden_size\": 128,", ""), "hidden_size is missing"},
      {Edited("\"num_hidden_layers\": 2", "\"num_hidden_layers\": -2"), "num_hidden_layers is -2"},
      {Edited("\"llama\"", "\"gpt2\""), "model_type is \"gpt2\""},
      {Edited("\"rope_type\": \"llama3\"", "\"rope_type\": \"yarn\""), "rope_scaling.rope_type"},
      {"{\"model_type\": ", "no JSON"},
  };
  for (const auto& c : cases) {
    const auto result =
        RunCommand(kRefract + " decode --no-live --model " + Config("config.json", c.text));
    EXPECT_EQ(result.exit_code, 2) << c.says << "\n" << result.err;
    EXPECT_NE(result.err.find(c.says), std::string::npos) << result.err;
    EXPECT_EQ(result.out.find("tokens/s"), std::string::npos);  // nothing ran
  }
  const auto unknown = RunCommand(kRefract + " decode --no-live --model gpt-4");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no built-in model"), std::string::npos) << unknown.err;
  const auto no_store = RunCommand(kRefract + " decode --no-live --profile " +
                                   Config("store.json", "{\"format\": \"refract-profile-store\""));
  EXPECT_EQ(no_store.exit_code, 2);
  EXPECT_NE(no_store.err.find("store.json"), std::string::npos) << no_store.err;
  // An output that is one of the run's inputs would destroy it: refused before any work.
  const std::string store = Config("kept.json", "{}");
  const auto over_store =
      RunCommand(kRefract + " decode --no-live --profile " + store + " --json " + store);
  EXPECT_EQ(over_store.exit_code, 2);
  EXPECT_NE(over_store.err.find("is the input"), std::string::npos) << over_store.err;
  const std::string config = Config("model.json", kTinyLlama);
  const auto over_config =
      RunCommand(kRefract + " decode --no-live --model " + config + " --html " + config);
  EXPECT_EQ(over_config.exit_code, 2);
  EXPECT_NE(over_config.err.find("is the input"), std::string::npos) << over_config.err;
  std::ifstream kept(store);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), {}), "{}");
  const auto activations = RunCommand(kRefract + " decode --no-live --activations q4");
  EXPECT_EQ(activations.exit_code, 2);
  EXPECT_NE(activations.err.find("--activations"), std::string::npos) << activations.err;
  const auto fusion = RunCommand(kRefract + " decode --no-live --fusion some");
  EXPECT_EQ(fusion.exit_code, 2);
  EXPECT_NE(fusion.err.find("--fusion"), std::string::npos) << fusion.err;
  const auto twice = RunCommand(kRefract + " decode --no-live --context 64,32,64");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("a context twice"), std::string::npos) << twice.err;
  const auto layers = RunCommand(kRefract + " decode --no-live --model " +
                                 Config("c.json", kTinyLlama) + " --layers 3");
  EXPECT_EQ(layers.exit_code, 2);
  EXPECT_NE(layers.err.find("--layers 3"), std::string::npos) << layers.err;
}

TEST_F(CliDecode, TheDefaultFusionIsDownOnAGpuAndOffOnACpuAdapter) {
  const auto result =
      RunCommand(kRefract + " decode --no-live --seed 3 --tokens 2 --warmup 2 --context 20 " +
                 "--activations q8 --model " + Config("tiny.json", kTinyLlama) + " --json " +
                 Path("auto.json"));
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  const nlohmann::json document = nlohmann::json::parse(std::ifstream(Path("auto.json")));
  const bool cpu = document["device"]["adapter_type"] == "cpu";
  int decode_rows = 0;
  for (const nlohmann::json& row : document["results"]) {
    if (row["category"] != "decode") continue;
    ++decode_rows;
    EXPECT_EQ(row["params"]["fusion"], cpu ? "off" : "down");
    // On a GPU the tiny model's 8 shares of 128 values pay for attention's merge by head, and
    // its gate/up GEMVs end in the down projection.
    EXPECT_EQ(row["decode"]["dispatches"].get<int>(), cpu ? 4 + 10 * 2 : 3 + 4 * 2);
  }
  EXPECT_EQ(decode_rows, 1);
}

TEST_F(CliDecode, ARunWritesItsRowsReportAndExport) {
  fs::create_directory(Path("export"));
  const auto result = RunCommand(
      kRefract +
      " decode --no-live --seed 3 --tokens 4 --steps-per-submit 2 --warmup 2 --context 20,40 "
      "--fusion on --model " +
      Config("tiny.json", kTinyLlama) + " --json " + Path("decode.json") + " --html " +
      Path("decode.html") + " --export " + Path("export"));
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_NE(result.out.find("dispatch bound"), std::string::npos) << result.out;

  const nlohmann::json document = nlohmann::json::parse(std::ifstream(Path("decode.json")));
  EXPECT_EQ(document["command"], "decode");
  int decode_rows = 0;
  for (const nlohmann::json& row : document["results"]) {
    if (row["category"] != "decode") continue;
    ++decode_rows;
    EXPECT_EQ(row["status"], "ok");
    EXPECT_EQ(row["unit"], "tokens/s");
    // Two steps' logits checked a step a submit, then the last of two steps in one submit.
    EXPECT_EQ(row["verification"]["elements"], 3 * 1000);
    // The step's (its last, the argmax's pick, moves the step's values on): 10 a layer with f32
    // activations; with q8 (lavapipe takes the fused GEMVs) 5: the q/k/v and gate/up GEMVs add
    // the residual and norm their input themselves, and end in RoPE and the KV append, and in
    // silu-mul; attention's merge and the o projection run a head at a time (the tiny model's
    // shares pay); the LM head ends in the argmax's first stage, and the pick embeds the next
    // token (3 dispatches outside the layers, not 4).
    const int dispatches = row["decode"]["dispatches"].get<int>();
    if (row["params"]["activations"] == "q8") {
      EXPECT_EQ(row["params"]["fusion"], "on");
      EXPECT_EQ(row["params"]["merge"], "by-head");
      EXPECT_EQ(dispatches, 3 + 5 * 2);
    } else {
      EXPECT_EQ(dispatches, 4 + 10 * 2);
    }
    EXPECT_EQ(row["decode"]["submits"], 0.5);
    EXPECT_GT(row["decode"]["dispatch_bound_ms"].get<double>(), 0);
    EXPECT_GT(row["decode"]["bandwidth_bound_ms"].get<double>(), 0);
    EXPECT_EQ(row["times_ms"].size(), 2u);  // a sample a submit
  }
  EXPECT_EQ(decode_rows, 2);
  std::ifstream html(Path("decode.html"));
  const std::string page((std::istreambuf_iterator<char>(html)), {});
  EXPECT_NE(page.find("tiny/tg4@d20"), std::string::npos);

  // The export: Hugging Face's names and shapes, the history and the steps.
  for (const char* name : {"config.json", "model.safetensors", "history.safetensors",
                           "steps.safetensors", "decode.json"}) {
    EXPECT_TRUE(fs::exists(Path(std::string("export/") + name))) << name;
  }
  const nlohmann::json config = nlohmann::json::parse(std::ifstream(Path("export/config.json")));
  EXPECT_EQ(config["architectures"][0], "LlamaForCausalLM");
  EXPECT_EQ(config["rope_scaling"]["rope_type"], "llama3");
  std::ifstream tensors(Path("export/model.safetensors"), std::ios::binary);
  uint64_t length = 0;
  tensors.read(reinterpret_cast<char*>(&length), 8);
  std::string header(length, '\0');
  tensors.read(header.data(), static_cast<std::streamsize>(length));
  const nlohmann::json index = nlohmann::json::parse(header);
  EXPECT_EQ(index["model.layers.1.self_attn.k_proj.weight"]["shape"],
            nlohmann::json::array({64, 128}));
  EXPECT_EQ(index["lm_head.weight"]["shape"], nlohmann::json::array({1000, 128}));
  EXPECT_EQ(index["model.layers.0.mlp.down_proj.weight"]["dtype"], "F32");
  uint64_t end = 0;  // the data follow the header back to back
  for (const auto& [name, entry] : index.items()) {
    end = std::max(end, entry["data_offsets"][1].get<uint64_t>());
  }
  EXPECT_EQ(fs::file_size(Path("export/model.safetensors")), 8 + length + end);
}

TEST_F(CliDecode, AnExportFolderThatIsNotThereIsExitTwoBeforeAnyWork) {
  const auto result =
      RunCommand(kRefract + " decode --no-live --model " + Config("config.json", kTinyLlama) +
                 " --export " + Path("missing"));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("is no folder"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace refract
