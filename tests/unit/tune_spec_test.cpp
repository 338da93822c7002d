// The tuning spec's pure half: expressions through muparser with their errors, the shader's
// declarations, the spec read strictly (the shared table of bad specs refused), configurations
// filtered by restrictions, and a spec checked against its shaders.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "base/error.h"
#include "tune/expression.h"
#include "tune/kernel_spec.h"
#include "tune/user_kernel.h"
#include "tune/wgsl_declarations.h"

namespace refract::tune {
namespace {

using nlohmann::json;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kSource = REFRACT_SOURCE_DIR;
const std::string kMatmulSpec = kSource + "/examples/tune/matmul_f32/matmul_tiled.json";
const std::string kMatmulKernel = kSource + "/examples/tune/matmul_f32/matmul_tiled.wgsl";

/// The message of the UsageError `run` throws ("" when it throws none).
template <typename Run>
std::string UsageMessage(Run run) {
  try {
    run();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(TuneExpression, EvaluatesSizesAxesAndFunctions) {
  const Names names = {{"N", 100}, {"TILE", 32}};
  EXPECT_EQ(Evaluate("N*4", names, "f"), 400);
  EXPECT_EQ(EvaluateWhole("ceil_div(N, TILE)", names, "f"), 4u);
  EXPECT_EQ(EvaluateWhole("floor(N / TILE)", names, "f"), 3u);
  EXPECT_TRUE(EvaluateCondition("TILE*TILE <= 1024", names, "f"));
  EXPECT_FALSE(EvaluateCondition("(N/TILE)^2 >= 16", names, "f"));
  EXPECT_EQ(Evaluate("TILE > 16 ? 1 : 2", names, "f"), 1);
}

TEST(TuneExpression, EachErrorNamesTheFieldAndTheExpression) {
  const Names names = {{"N", 100}, {"K", 0}};
  const std::string unknown = UsageMessage([&] { Evaluate("N*TILE_Q", names, "spec.grid[0]"); });
  EXPECT_NE(unknown.find("spec.grid[0]: 'N*TILE_Q': unknown name 'TILE_Q' (known: K, N)"),
            std::string::npos)
      << unknown;
  const std::string division = UsageMessage([&] { Evaluate("N/K", names, "spec.grid[1]"); });
  EXPECT_NE(division.find("spec.grid[1]: 'N/K' is infinite (a division by zero?)"),
            std::string::npos)
      << division;
  EXPECT_NE(UsageMessage([&] { EvaluateWhole("N/3", names, "f"); }).find("not a whole number"),
            std::string::npos);
  EXPECT_NE(UsageMessage([&] { EvaluateWhole("N^9", names, "f"); }).find("overflows"),
            std::string::npos);
  EXPECT_NE(UsageMessage([&] { EvaluateWhole("K-N", names, "f"); }).find("below 0"),
            std::string::npos);
  EXPECT_NE(UsageMessage([&] { Evaluate("N*(4", names, "f"); }), "");
}

TEST(TuneWgsl, FindsOverridesBindingsAndEntryPointsOutsideComments) {
  const WgslDeclarations found = ScanWgsl(
      "// override COMMENTED: u32 = 1;\n"
      "override WG: u32 = 64;\n"
      "@id(3) override ROWS: u32;\n"
      "/* @group(0) @binding(9) var<storage, read> hidden: array<f32>; */\n"
      "@group(0) @binding(0) var<storage, read> a: array<f32>;\n"
      "@binding(1) @group(0)\n  var<storage, read_write> b: array<f32>;\n"
      "@group(1) @binding(0) var<uniform> dims: vec4u;\n"
      "@group(0) @binding(2) var<storage> plain: array<u32>;\n"
      "@compute @workgroup_size(WG) fn main() {}\n"
      "@workgroup_size(8, 8) @compute\nfn naive() {}\n"
      "fn helper() {}\n");
  EXPECT_EQ(found.overrides, (std::map<std::string, uint32_t>{{"ROWS", 3}, {"WG", 2}}));
  ASSERT_EQ(found.bindings.size(), 4u);
  EXPECT_EQ(found.bindings.at({0, 0}).access, "read");
  EXPECT_EQ(found.bindings.at({0, 1}).name, "b");
  EXPECT_EQ(found.bindings.at({0, 1}).access, "read_write");
  EXPECT_EQ(found.bindings.at({0, 1}).line, 6u);
  EXPECT_EQ(found.bindings.at({1, 0}).address_space, "uniform");
  EXPECT_EQ(found.bindings.at({0, 2}).access, "read");
  EXPECT_EQ(found.entry_points, (std::map<std::string, uint32_t>{{"main", 10}, {"naive", 11}}));
}

TEST(TuneSpec, TheExamplesReadAndCheckAgainstTheirShaders) {
  for (const std::string name : {"matmul_f32/matmul_tiled", "q4_gemv/q4_gemv"}) {
    const std::string base = kSource + "/examples/tune/" + name;
    const UserKernel user = LoadUserKernel(base + ".wgsl", base + ".json");
    EXPECT_FALSE(user.spec.problems.empty()) << name;
    EXPECT_EQ(user.StampNames().size(), 2u);
    EXPECT_EQ(user.StampHash().size(), 64u);
  }
}

TEST(TuneSpec, RestrictionsLeaveOnlyTheConfigurationsThatPassThem) {
  const KernelSpec spec = ParseSpec(ReadText(kMatmulSpec), kSource + "/examples/tune/matmul_f32");
  const std::vector<ops::Settings> all = Configurations(spec, spec.problems[0], false);
  EXPECT_EQ(all.size(), 21u);  // 27 less TILE 32 with WORK 8 and TILE 128 with WORK 2, × 3 TILE_K
  for (const ops::Settings& settings : all) {
    const double side = settings.at("TILE") / settings.at("WORK");
    EXPECT_LE(side * side, 1024);
    EXPECT_GE(side * side, 32);
  }
  EXPECT_EQ(Configurations(spec, spec.problems[0], true).size(), 2u);
  const Evaluated evaluated = Evaluate(spec, spec.problems[0], DefaultSettings(spec));
  EXPECT_EQ(evaluated.grid, (std::array<uint64_t, 3>{2, 2, 1}));  // 100 and 72 over 64
  EXPECT_EQ(evaluated.workgroup_size, (std::array<uint64_t, 3>{16, 16, 1}));
  EXPECT_EQ(evaluated.constants.at("SIDE"), 16);
  EXPECT_EQ(evaluated.binding_bytes[0], 72u * 40 * 4);
}

// The shared table (tests/data/tune_spec_mutations.json), which the schema refuses too.
TEST(TuneSpec, EveryMutationOfTheSharedTableIsRefusedNamingAField) {
  const json table = json::parse(ReadText(kSource + "/tests/data/tune_spec_mutations.json"));
  const json base = json::parse(ReadText(kSource + "/" + table.at("base").get<std::string>()));
  ASSERT_GE(table.at("mutations").size(), 20u);
  for (const json& mutation : table.at("mutations")) {
    json spec = base;
    const json::json_pointer path(mutation.at("path").get<std::string>());
    if (mutation.contains("value")) {
      spec[path] = mutation.at("value");
    } else {
      spec.at(path.parent_pointer()).erase(path.back());
    }
    const std::string message =
        UsageMessage([&] { ParseSpec(spec.dump(), kSource + "/examples/tune/matmul_f32"); });
    EXPECT_EQ(message.rfind("spec", 0), 0u) << mutation.at("name") << ": " << message;
  }
}

/// The matmul example with `change` applied, checked against its shader.
std::string CheckMessage(const std::function<void(json&)>& change,
                         const std::string& kernel_text = ReadText(kMatmulKernel)) {
  json spec = json::parse(ReadText(kMatmulSpec));
  change(spec);
  return UsageMessage([&] {
    const KernelSpec parsed = ParseSpec(spec.dump(), kSource + "/examples/tune/matmul_f32");
    const WgslDeclarations declarations = ScanWgsl(kernel_text);
    CheckSpec(parsed, declarations, "matmul_tiled.wgsl", declarations, "matmul_tiled.wgsl");
  });
}

TEST(TuneSpec, ASpecThatDisagreesWithItsShaderIsRefusedNamingTheFieldAndTheLine) {
  EXPECT_EQ(CheckMessage([](json&) {}), "");
  EXPECT_NE(CheckMessage([](json& s) { s["axes"]["TILE_Q"] = {8}; })
                .find("spec.axes.TILE_Q: matmul_tiled.wgsl declares no override TILE_Q (its "
                      "overrides: SIDE, TILE, TILE_K, WORK)"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["bindings"][3]["binding"] = 7; })
                .find("spec.bindings[3]: matmul_tiled.wgsl declares no @group(0) @binding(7)"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["bindings"][0]["kind"] = "read_write"; })
                .find("spec.bindings[0].kind: matmul_tiled.wgsl:18: 'a' is var<storage, read>; the "
                      "spec's kind means var<storage, read_write>"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["entry"] = "tiled"; }).find("spec.entry"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["grid"][0] = "ceil_div(N, TILES)"; })
                .find("unknown name 'TILES'"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["grid"][1] = "M/(TILE-64)"; }).find("division by zero"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["bindings"][0]["size"] = "M*K*4*TILE"; })
                .find("unknown name 'TILE'"),  // a binding's size is the problem's alone
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["bindings"][2]["size"] = "M*N*2^60"; }).find("overflows"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["restrictions"].push_back("TILE < 64"); })
                .find("the default configuration"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["problems"][0]["sizes"]["copies"] = 2; })
                .find("spec.problems[0].sizes.copies: 'copies' is a name refract's rows use"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) { s["problems"][0]["sizes"]["TILE"] = 2; })
                .find("spec.axes.TILE: is also a size of problem odd-m72-n100-k40"),
            std::string::npos);
  EXPECT_NE(CheckMessage([](json& s) {
              s["bindings"][0]["contents"] = {{"kind", "random"}, {"type", "u8"}, {"min", 0}, {"max", 256}};
            }).find("spec.bindings[0].contents: [0, 256] holds no range of whole u8 values"),
            std::string::npos);
  // Every u32 or i32 may be drawn; one past the type is refused, the line printing it exactly.
  for (const auto& [type, lo, hi] : {std::tuple{"u32", 0.0, 4294967295.0},
                                     std::tuple{"i32", -2147483648.0, 2147483647.0}}) {
    EXPECT_EQ(CheckMessage([&](json& s) {
                s["bindings"][0]["contents"] = {
                    {"kind", "random"}, {"type", type}, {"min", lo}, {"max", hi}};
              }),
              "")
        << type;
  }
  EXPECT_NE(CheckMessage([](json& s) {
              s["bindings"][0]["contents"] = {
                  {"kind", "random"}, {"type", "u32"}, {"min", 0}, {"max", 4294967296.0}};
            }).find("[0, 4294967296] holds no range of whole u32 values within the type's (0 to "
                    "4294967295)"),
            std::string::npos);
  // A binding the shader declares but the spec lacks.
  EXPECT_NE(CheckMessage([](json& s) { s["bindings"].erase(3); })
                .find("matmul_tiled.wgsl:21: 'dims' (@group(0) @binding(3)) has no binding"),
            std::string::npos);
}

TEST(TuneSpec, AReferenceFileOfAnotherOutputSizeIsRefused) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("refract-tune-spec-" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "c-odd-m72-n100-k40.bin", std::ios::binary) << std::string(72 * 100 * 4, '\0');
  std::ofstream(folder / "c-qwen-q+o-m2048.bin", std::ios::binary) << std::string(16, '\0');
  const std::string message = CheckMessage([&](json& s) {
    s["reference"] = {{"files", {{"0:2", (folder / "c-{problem}.bin").string()}}}};
  });
  EXPECT_NE(message.find("holds 16 bytes, the output @group(0) @binding(2) 7340032 at problem "
                         "qwen-q+o-m2048: the reference is of another output size"),
            std::string::npos)
      << message;
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace refract::tune
