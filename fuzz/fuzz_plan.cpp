// The plan loader, then (for small plans) every variant's analytical evaluation, the decision and
// every renderer (table, CSV, JSON, HTML): a UserError or finite numbers, and an HTML report of
// bounded size (issue 21: a price of 1e308 USD once printed $inf and a 2 GB HTML page).
#include <string>

#include "app/output/html_report.hpp"
#include "app/input/plan_loader.hpp"
#include "app/output/plan_report.hpp"
#include "fuzz_common.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const app::Catalog catalog = app::builtin_catalog();
  const std::string text(reinterpret_cast<const char*>(data), size);
  app::PlanInput in;
  if (!fuzz::accepts([&] { in = app::parse_plan("fuzz.yaml", text, catalog); })) return 0;
  if (in.configurations > 64) return 0;  // keep each input fast
  for (const sim::PlanVariant& v : in.variants) {
    std::int64_t gpus = 0;
    for (int n : v.spec.cluster.nodes) gpus += static_cast<std::int64_t>(n) * v.spec.cluster.instance.gpus;
    if (gpus > 512 || v.spec.model.layers.size() > 2000) return 0;
  }
  fuzz::accepts([&] {
    const auto results = sim::evaluate_variants(in.variants, 1, {});
    const sim::PlanReport report = sim::decide(in.variants, results, in.goal);
    for (const std::string& out : {app::plan_table(report), app::plan_csv(report), app::plan_json(report)})
      fuzz::check_printed(out, text);
    const std::string html = app::plan_html(report);
    if (html.size() > (64u << 20)) fuzz::finding("HTML report of " + std::to_string(html.size()) + " bytes");
  });
  return 0;
}
