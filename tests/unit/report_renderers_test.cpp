// The report's renderers against golden files (tests/golden/report_*), on the synthetic
// documents of tests/fixtures/ (kernels with rooflines, a sweep, a decode step). Rewrite the
// golden files after an intended change with REFRACT_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/html_page.h"
#include "report/report_model.h"
#include "report/result_table.h"
#include "results/run_file.h"
#include "testing/golden.h"

namespace refract::report {
namespace {

const std::string kSourceDir = REFRACT_SOURCE_DIR;
const std::string kGoldenDir = kSourceDir + "/tests/golden";

LabeledRun Fixture(const std::string& name) {
  return {name + ".json", results::ReadRunFile(kSourceDir + "/tests/fixtures/" + name + ".json")};
}

std::vector<LabeledRun> AllFixtures() {
  return {Fixture("kernels"), Fixture("sweep"), Fixture("decode")};
}

TEST(ReportRenderers, CsvMatchesGolden) {
  testing::ExpectGoldenFile(kGoldenDir, "report_fixtures.csv", RenderCsv(AllFixtures()));
}

TEST(ReportRenderers, MarkdownMatchesGolden) {
  testing::ExpectGoldenFile(kGoldenDir, "report_fixtures.md", RenderMarkdown(AllFixtures()));
}

TEST(ReportRenderers, EmbeddedDataMatchesGolden) {
  testing::ExpectGoldenFile(kGoldenDir, "report_fixtures_data.json",
                            BuildReportModel(AllFixtures()).dump(1) + "\n");
}

TEST(ReportRenderers, SingleRunCsvHasNoFileColumn) {
  const std::string csv = RenderCsv({Fixture("decode")});
  EXPECT_EQ(csv.rfind("id,category,status,metric,unit,statistic,time_ms,", 0), 0u) << csv;
}

TEST(ReportRenderers, CsvQuotesAndMarkdownEscapes) {
  LabeledRun run = Fixture("kernels");
  results::ResultRow& row = run.record.rows[0];
  row.message = "a \"quoted\", multi\nline | message";
  const std::string csv = RenderCsv({run});
  EXPECT_NE(csv.find("\"a \"\"quoted\"\", multi\nline | message\""), std::string::npos) << csv;
  const std::string md = RenderMarkdown({run});
  EXPECT_NE(md.find("a \"quoted\", multi line \\| message"), std::string::npos) << md;
}

/// The text of the page's data element.
std::string DataElement(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"refract-data\">";
  const size_t start = page.find(open);
  if (start == std::string::npos) return "";
  const size_t end = page.find("</script>", start);
  return page.substr(start + open.size(), end - start - open.size());
}

TEST(ReportHtml, PageHoldsTheDataTheLibraryAndNothingFromOutside) {
  std::vector<LabeledRun> runs = AllFixtures();
  runs[0].label = "</script><script>alert(1)</script>";  // must stay inside the data
  const nlohmann::json model = BuildReportModel(runs);
  const std::string page = RenderHtmlPage(model, "refract test <version>");
  EXPECT_EQ(nlohmann::json::parse(DataElement(page)), model);
  EXPECT_EQ(page.find("<script>alert(1)"), std::string::npos);
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(page.find("var uPlot="), std::string::npos);   // the library, inlined
  EXPECT_NE(page.find("MIT License"), std::string::npos);  // with its license
  EXPECT_NE(page.find("refract test &lt;version&gt;"), std::string::npos);
  EXPECT_EQ(page.find("@@"), std::string::npos);  // every placeholder filled
  for (const char* external : {"src=\"http", "href=\"http", "src=\"//", "href=\"//", "@import"}) {
    EXPECT_EQ(page.find(external), std::string::npos) << external;
  }
}

TEST(ReportHtml, EscapeHtml) { EXPECT_EQ(EscapeHtml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;"); }

}  // namespace
}  // namespace refract::report
