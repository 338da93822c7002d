// The sweeps' own ops on lavapipe: every configuration of the quick grids of the sum, the
// subgroup sum, the bandwidth kernels (and every pair of the 2-bit scan's axis values) either
// verifies against its CPU model or is refused by its op's check before anything runs, and a
// planted error in each op is caught.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>

#include "base/error.h"
#include "ops/op_kinds.h"
#include "suites/sweeps/sweep_catalog.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::sweeps {
namespace {

/// Runs the rows of `sweep`'s quick grid that `run` picks (all by default): the ones the device
/// can run verify; returns how many.
size_t VerifyQuickGrid(const std::string& sweep,
                       const std::function<bool(const std::string&)>& run = {}) {
  std::vector<Sweep> sweeps = MakeSweeps({.sweeps = {sweep}, .quick = true, .seed = 3});
  size_t verified = 0, refused = 0;
  for (auto& row : sweeps.front().rows) {
    SCOPED_TRACE(row->info().id);
    if (run && !run(row->info().id)) continue;
    if (row->CheckOn(testing::SharedContext().limits())) {
      ++refused;
      continue;
    }
    const testing::RowRun run_result = testing::RunRow(*row);
    EXPECT_GT(run_result.record.elements, 0u);
    ++verified;
  }
  EXPECT_GT(verified, 0u) << sweep << ": " << refused << " refused, none verified";
  return verified;
}

TEST(SweepRows, EveryQuickSumConfigurationVerifies) { EXPECT_EQ(VerifyQuickGrid("reduction"), 5u); }

TEST(SweepRows, EveryQuickSubgroupSumConfigurationVerifiesWhereTheDeviceHasSubgroups) {
  if (!testing::SharedContext().limits().subgroups) GTEST_SKIP() << "no subgroups";
  EXPECT_EQ(VerifyQuickGrid("subgroups"), 5u);
}

TEST(SweepRows, EveryQuickBandwidthSizeVerifies) { EXPECT_GE(VerifyQuickGrid("bandwidth"), 12u); }

// Four configurations of the quick grid at d = 128 that hold every pair of its axes' values (wg
// 64 / 256, lut_shared 0 / 1, vpt 1 / 2), and d = 768's default, verify. Not the whole grid: each
// new set of pipeline constants takes lavapipe 2–10 s to compile, several times that under ASan,
// and the 12 of the whole grid took 447 s of a CI run with a cold shader cache; a sweep verifies
// each configuration before it times it anyway. d = 768's rows that copy its table (96 KiB) into
// workgroup memory are refused, naming the limit, wherever the device has less.
TEST(SweepRows, EveryPairOfQuickScanAxisValuesVerifiesAndTheTableIsRefusedWhereItCannotFit) {
  const std::set<std::string> picked = {
      "q2-scan/v4096/d128/lut_shared=0:vpt=1:wg=64", "q2-scan/v4096/d128/lut_shared=1:vpt=2:wg=64",
      "q2-scan/v4096/d128/lut_shared=0:vpt=2:wg=256",
      "q2-scan/v4096/d128/lut_shared=1:vpt=1:wg=256", "q2-scan/v4096/d768/default"};
  EXPECT_EQ(VerifyQuickGrid("q2-scan", [&](const std::string& id) { return picked.contains(id); }),
            picked.size());
  const DeviceLimits& limits = testing::SharedContext().limits();
  const bool table_fits = ops::ScanTableBytes(768) <= limits.max_compute_workgroup_storage_size;
  std::vector<Sweep> sweeps = MakeSweeps({.sweeps = {"q2-scan"}, .quick = true, .seed = 3});
  size_t table_rows = 0;
  for (auto& row : sweeps.front().rows) {
    const std::string& id = row->info().id;
    if (id.find("/d768/lut_shared=1") == std::string::npos) continue;
    ++table_rows;
    const ops::Refusal refused = row->CheckOn(limits);
    EXPECT_EQ(refused.has_value(), !table_fits) << id;
    if (refused) {
      EXPECT_NE(refused->find("maxComputeWorkgroupStorageSize"), std::string::npos) << *refused;
    }
  }
  EXPECT_EQ(table_rows, 4u);
}

TEST(SweepRows, EveryQuickF16ConfigurationVerifiesWhereTheDeviceHasShaderF16) {
  if (!testing::SharedContext().limits().shader_f16) GTEST_SKIP() << "no shader-f16";
  EXPECT_EQ(VerifyQuickGrid("f16"), 5u);  // 2 tiles × 2 accumulations and the default
}

/// The first row of `sweep`'s quick grid whose id contains `part`, run with a planted kernel:
/// its verification must fail.
void ExpectPlantedErrorCaught(const std::string& sweep, const std::string& part) {
  std::vector<Sweep> sweeps = MakeSweeps({.sweeps = {sweep}, .quick = true, .seed = 3});
  for (auto& row : sweeps.front().rows) {
    if (row->info().id.find(part) == std::string::npos) continue;
    EXPECT_THROW(testing::RunRow(*row), VerificationError) << row->info().id;
    return;
  }
  FAIL() << "no row " << part << " in " << sweep;
}

TEST(SweepRows, APlantedErrorInEachOpIsCaught) {
  {  // one value in 4 dropped from the sum's partials
    const testing::PlantedKernel planted("sum_reduce", "      sum += data[index];",
                                         "      sum += select(data[index], vec4<f32>(0.0), "
                                         "index % 4u == 3u);");
    ExpectPlantedErrorCaught("reduction", "items=8:subgroups=0:wg=64");
  }
  {  // the last vec4 of a copy not written
    const testing::PlantedKernel planted(
        "stream_vec4", "    destination[i] = source[i];",
        "    if (i + 1u < params.count4) { destination[i] = source[i]; }");
    ExpectPlantedErrorCaught("bandwidth", "copy/16KiB");
  }
  if (testing::SharedContext().limits().shader_f16) {  // the last step of K left out
    const testing::PlantedKernel planted("matmul_f16_tiled", "k0 < params.k; k0 += BK",
                                         "k0 + BK < params.k; k0 += BK");
    ExpectPlantedErrorCaught("f16", "acc_f16=0:bk=16:bm=32:bn=64:tm=4:tn=4");
  }
  {  // one code of each vector read from the wrong bit pair
    const testing::PlantedKernel planted("scan_q2", "(code_byte >> (6u - 2u * k)) & 3u",
                                         "(code_byte >> (2u * k)) & 3u");
    ExpectPlantedErrorCaught("q2-scan", "d128/lut_shared=0:vpt=1:wg=64");
  }
}

}  // namespace
}  // namespace refract::suites::sweeps
