// Issue 17: every what-if of app/whatifs/ (whatif_view.hpp) from its declaration: its section parses
// with the keys it declares, its model runs in a scenario, and every field its JSON, CSV, table
// and HTML name is in the model's result; each output shows it (a typo in a view fails here).
#include <catch2/catch.hpp>

#include "app/input/scenario_keys.hpp"
#include "app/input/scenario_loader.hpp"
#include "app/input/yaml_reader.hpp"
#include "app/output/html_report.hpp"
#include "app/output/report.hpp"
#include "app/whatifs/whatif_view.hpp"
#include "core/error.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {

const std::string kBase = R"(name: t
cluster: {instance: p4d.24xlarge, nodes: [1, 2]}
model: {preset: resnet50}
training: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 100000}
data: {workers: 4, per_sample_cpu_s: 1e-3}
)";

}  // namespace

TEST_CASE("what-if views: each declares a section whose fields its model gives", "[whatif]")
{
  REQUIRE_FALSE(app::whatif_views().empty());
  for (const app::WhatIfView* v : app::whatif_views()) {
    INFO("what-if " << v->name);
    // The key table lists the section at the root and the keys the view declares.
    const auto& root = app::scenario_keys("");
    CHECK(std::find(root.begin(), root.end(), v->name) != root.end());
    for (const auto& [path, keys] : v->keys) CHECK(app::scenario_keys(path) == keys);
    // Without the section: no result, no JSON key.
    const sim::ScenarioReport plain = sim::run_scenario(app::parse_scenario("s.yaml", kBase, test::catalog()));
    CHECK(plain.results.front().whatif(v->name) == nullptr);
    CHECK(app::scenario_json(plain).find("\"" + v->name + "\"") == std::string::npos);
    // With it: every row has a result holding every field a writer shows.
    const sim::ScenarioReport rep =
        sim::run_scenario(app::parse_scenario("s.yaml", kBase + v->name + ": " + v->example + "\n", test::catalog()));
    for (const sim::ConfigResult& r : rep.results) {
      const sim::WhatIfResult* x = r.whatif(v->name);
      REQUIRE(x);
      for (const std::string& f : v->json) CHECK(x->find(f));
      for (const auto* cols : {&v->csv, &v->table, &v->html})  // (a table_text reads its own)
        for (const app::WhatIfColumn& c : *cols) CHECK(x->find(c.field));
    }
    const std::string json = app::scenario_json(rep), csv = app::scenario_csv(rep);
    CHECK(json.find("\"" + v->name + "\": {") != std::string::npos);
    for (const app::WhatIfColumn& c : v->csv) CHECK(csv.substr(0, csv.find('\n')).find(c.head) != std::string::npos);
    const std::string table = app::scenario_table(rep);
    if (v->table_text) CHECK(table.find(v->table_text(rep, false)) != std::string::npos);
    else CHECK(table.find(v->title(*rep.results.front().whatif(v->name))) != std::string::npos);
    CHECK(app::scenario_html(rep).find(v->html_heading) != std::string::npos);
  }
}

TEST_CASE("what-if views: an unknown key in a what-if's section is a located error", "[whatif]")
{
  for (const app::WhatIfView* v : app::whatif_views()) {
    INFO("what-if " << v->name);
    const std::string text = kBase + v->name + ": {no_such_key: 1}\n";
    try {
      app::parse_scenario("s.yaml", text, test::catalog());
      FAIL("no error");
    } catch (const app::UserErrors& e) {
      // Among the errors (a section may have required keys too): the unknown one, at its line.
      const auto& all = e.all();
      const auto it = std::find_if(all.begin(), all.end(), [&](const UserError& u) { return u.field() == v->name + ".no_such_key"; });
      REQUIRE(it != all.end());
      CHECK(std::string(it->what()).find("s.yaml:6:") != std::string::npos);
    }
  }
}
