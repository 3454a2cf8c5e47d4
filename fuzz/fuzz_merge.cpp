// `ddpsim merge`: shard files (JSON Lines). The input is split at a line "--8<--" into up to four
// files; merging them is a UserError or a report whose renderings hold finite numbers.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "app/output/plan_report.hpp"
#include "app/output/report.hpp"
#include "app/output/shards.hpp"
#include "fuzz_common.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const std::string dir = [] {
    char tmpl[] = "/tmp/fuzz_merge.XXXXXX";
    return std::string(mkdtemp(tmpl));
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> parts;
  for (std::size_t from = 0; parts.size() < 4;) {
    const std::size_t cut = text.find("\n--8<--\n", from);
    parts.push_back(text.substr(from, cut == std::string::npos ? std::string::npos : cut - from));
    if (cut == std::string::npos) break;
    from = cut + 8;
  }
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    paths.push_back(dir + "/shard" + std::to_string(i) + ".jsonl");
    std::ofstream(paths.back(), std::ios::binary) << parts[i];
  }
  fuzz::accepts([&] {
    const app::Merged m = app::merge_shards(paths);
    if (m.scenario)
      for (const std::string& out : {app::scenario_table(*m.scenario), app::scenario_csv(*m.scenario), app::scenario_json(*m.scenario)})
        fuzz::check_printed(out, text);
    if (m.plan)
      for (const std::string& out : {app::plan_table(*m.plan), app::plan_csv(*m.plan), app::plan_json(*m.plan)})
        fuzz::check_printed(out, text);
  });
  return 0;
}
