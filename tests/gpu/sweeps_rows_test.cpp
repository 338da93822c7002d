// The sweeps' own ops on lavapipe: every configuration of the quick grids of the sum, the
// subgroup sum, the bandwidth kernels and the 2-bit scan either verifies against its CPU model or
// is refused by its op's check before anything runs, and a planted error in each op is caught.
#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "suites/sweeps/sweep_catalog.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::sweeps {
namespace {

/// Runs every row of `sweep`'s quick grid: the ones the device can run verify; returns how many.
size_t VerifyQuickGrid(const std::string& sweep) {
  std::vector<Sweep> sweeps = MakeSweeps({.sweeps = {sweep}, .quick = true, .seed = 3});
  size_t verified = 0, refused = 0;
  for (auto& row : sweeps.front().rows) {
    SCOPED_TRACE(row->info().id);
    if (row->CheckOn(testing::SharedContext().limits())) {
      ++refused;
      continue;
    }
    const testing::RowRun run = testing::RunRow(*row);
    EXPECT_GT(run.record.elements, 0u);
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

// d = 768's table (96 KiB) never fits workgroup memory: those rows are refused, d = 128's run.
TEST(SweepRows, EveryQuickScanConfigurationVerifiesOrIsRefusedForItsTable) {
  EXPECT_GE(VerifyQuickGrid("q2-scan"), 14u);
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
    ExpectPlantedErrorCaught("reduction", "items=8,subgroups=0,wg=64");
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
    ExpectPlantedErrorCaught("f16", "acc_f16=0,bk=16,bm=32,bn=64,tm=4,tn=4");
  }
  {  // one code of each vector read from the wrong bit pair
    const testing::PlantedKernel planted("scan_q2", "(code_byte >> (6u - 2u * k)) & 3u",
                                         "(code_byte >> (2u * k)) & 3u");
    ExpectPlantedErrorCaught("q2-scan", "d128/lut_shared=0,vpt=1,wg=64");
  }
}

}  // namespace
}  // namespace refract::suites::sweeps
