#include "report/decode_text.h"

#include <fmt/format.h>

#include "report/report_model.h"

namespace refract::report {

void RenderDecodeSummary(std::ostream& out, const results::RunRecord& record) {
  const nlohmann::json sections = BuildDecodeModels({{"", record}});
  for (const nlohmann::json& s : sections) {
    out << "\n" << s["id"].get<std::string>() << ": ";
    if (s["status"] != "ok") {
      out << s["status"].get<std::string>() << ": " << s["message"].get<std::string>() << "\n";
      continue;
    }
    out << s["tokens_text"].get<std::string>() << " (" << s["spread_text"].get<std::string>()
        << ")\n";
    out << "  step: " << s["step_text"].get<std::string>() << "\n";
    out << "  recorded as: " << s["counts_text"].get<std::string>() << "\n";
    out << "  bandwidth bound: " << s["bandwidth_text"].get<std::string>() << "\n";
    out << "  dispatch bound: " << s["dispatch_text"].get<std::string>() << "\n";
    out << "  split: " << s["split_text"].get<std::string>() << "\n";
    for (const nlohmann::json& kind : s["split"]) {
      out << fmt::format(
          "    {:<12} {:>4} dispatches  {:>10}  {:>6}  {}; {}\n", kind["kind"].get<std::string>(),
          kind["dispatches"].get<uint64_t>(), kind["time_text"].get<std::string>(),
          kind["share_text"].get<std::string>(), kind["each_text"].get<std::string>(),
          kind["bytes_text"].get<std::string>());
    }
  }
}

}  // namespace refract::report
