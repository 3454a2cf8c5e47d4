// The HTML reports' pieces (app/output/svg.hpp, app/output/html_report.hpp): scales, ticks, escaping, and pages
// that are self-contained, escaped and deterministic. Rendering is tested in Chromium
// (tests/cli/html_chromium.sh).
#include <catch2/catch.hpp>

#include "app/output/html_report.hpp"
#include "app/output/label_place.hpp"
#include "app/output/svg.hpp"

using namespace ddpsim;

TEST_CASE("svg escape keeps user strings from breaking the markup", "[html]")
{
  CHECK(app::svg::escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(app::svg::escape("</svg><script>") == "&lt;/svg&gt;&lt;script&gt;");
  // Control characters and invalid UTF-8 become printable escapes; valid UTF-8 passes.
  CHECK(app::svg::escape("x\ny") == "x\\ny");
  CHECK(app::svg::escape("\xff") == "\\xFF");
  CHECK(app::svg::escape("caf\xc3\xa9") == "caf\xc3\xa9");
}

TEST_CASE("svg numbers are short and deterministic", "[html]")
{
  CHECK(app::svg::num(12.0) == "12");
  CHECK(app::svg::num(12.345) == "12.35");
  CHECK(app::svg::num(-0.001) == "0");
  CHECK(app::svg::num(0.5) == "0.5");
  CHECK(app::svg::tick_label(20000) == "20k");
  CHECK(app::svg::tick_label(1500000) == "1.5M");
  CHECK(app::svg::tick_label(2500) == "2500");
  CHECK(app::svg::tick_label(0.25) == "0.25");
}

TEST_CASE("linear and log scales map the domain onto the pixel range", "[html]")
{
  app::svg::Scale lin{0, 10, 100, 200, false};
  CHECK(lin(0) == Approx(100));
  CHECK(lin(5) == Approx(150));
  CHECK(lin(10) == Approx(200));
  app::svg::Scale inverted{0, 10, 300, 100, false};  // y axes grow upwards
  CHECK(inverted(10) == Approx(100));
  app::svg::Scale lg{1, 100, 0, 200, true};
  CHECK(lg(10) == Approx(100));
  app::svg::Scale flat{5, 5, 0, 100, false};
  CHECK(flat(5) == Approx(50));
}

TEST_CASE("ticks are 1-2-5 steps covering the widened domain", "[html]")
{
  double lo = 0, hi = 7.3;
  app::svg::nice_domain(lo, hi, false);
  CHECK(lo == 0);
  CHECK(hi == Approx(8));
  const auto t = app::svg::linear_ticks(lo, hi, 6);
  REQUIRE(t.size() == 5);
  CHECK(t[1] == Approx(2));
  CHECK(t.back() == Approx(8));

  const auto t2 = app::svg::linear_ticks(0, 0.3, 6);  // no 0.30000000000000004 labels
  CHECK(app::svg::tick_label(t2.at(3)) == "0.15");

  double a = 3, b = 50;  // node counts: powers of two
  app::svg::nice_domain(a, b, true, true);
  CHECK(a == 2);
  CHECK(b == 64);
  CHECK(app::svg::log_ticks(a, b, true) == std::vector<double>{2, 4, 8, 16, 32, 64});

  double c = 0.03, d = 900;  // hours over 4.5 decades: powers of ten only
  app::svg::nice_domain(c, d, true);
  CHECK(c == Approx(0.02));
  CHECK(d == Approx(1000));
  const auto t3 = app::svg::log_ticks(c, d);
  REQUIRE(t3.size() == 5);
  CHECK(t3.front() == Approx(0.1));
  const auto t4 = app::svg::log_ticks(150, 900);  // under three decades: 1-2-5
  CHECK(t4 == std::vector<double>{200, 500});
}

namespace {

sim::ScenarioReport report()
{
  sim::ScenarioReport rep;
  rep.scenario = "demo <b>&";
  rep.model = "mlp";
  rep.engine = "analytical";
  for (int n : {1, 2, 4}) {
    sim::ConfigResult r;
    r.instance = "p4d.24xlarge";
    r.framework = "pytorch-ddp";
    r.nodes = n, r.gpus = 8 * n;
    r.compute_s = 0.1, r.exposed_comm_s = 0.01 * n, r.comm_s = 0.05 * n, r.loader_wait_s = 0.002, r.optimizer_s = 0.003;
    r.step_time_s = r.compute_s + r.exposed_comm_s + r.loader_wait_s + r.optimizer_s;
    r.speedup = n * 0.115 / r.step_time_s;
    r.speedup_band = {true, r.speedup * 0.9, r.speedup * 1.1};
    r.observed_minutes = 60.0 / n;
    for (int b = 0; b < 3; ++b) r.buckets.push_back({1 << 20, "ring", "simple", 2, 0.03 * b, 0.03 * b + 0.001, 0.03 * b + 0.02});
    rep.results.push_back(r);
  }
  return rep;
}

}  // namespace

TEST_CASE("scenario pages are self-contained, escaped and deterministic", "[html]")
{
  const std::string page = app::scenario_html(report());
  CHECK(page == app::scenario_html(report()));
  CHECK(page.find("demo &lt;b&gt;&amp;") != std::string::npos);
  CHECK(page.find("demo <b>") == std::string::npos);
  CHECK(page.find("Content-Security-Policy") != std::string::npos);
  // Nothing to fetch: no src= or href= at all, no URL but the SVG namespace.
  CHECK(page.find("src=") == std::string::npos);
  CHECK(page.find("href") == std::string::npos);
  CHECK(page.find("http://www.w3.org/2000/svg") != std::string::npos);
  CHECK(page.find("https://") == std::string::npos);
  // The four pieces: scaling (with intervals and observed points), breakdown, timeline.
  CHECK(page.find("Scaling: speedup vs nodes") != std::string::npos);
  CHECK(page.find("p10-p90 interval") != std::string::npos);
  CHECK(page.find("observed speedup 4.00x") != std::string::npos);
  CHECK(page.find("Step time breakdown") != std::string::npos);
  CHECK(page.find("bucket 3, 1.0 MiB, ring/simple") != std::string::npos);
}

TEST_CASE("plan pages draw the frontier, the deadline and the budget", "[html]")
{
  sim::PlanReport rep;
  rep.name = "p";
  rep.model = "mlp";
  rep.goal.deadline_s = 7200;
  rep.goal.budget_usd = 300;
  rep.labels = {"batch 8"};
  const sim::ScenarioReport s = report();
  for (std::size_t i = 0; i < s.results.size(); ++i) {
    sim::PlanRow row{s.results[i], 0, i == 2 ? "over budget: $400.00 > $300.00" : "", i < 2};
    row.result.total_time_s = 3600.0 * (4 - static_cast<double>(i));
    row.result.cost_usd = 100.0 * static_cast<double>(i + 2);
    rep.rows.push_back(row);
  }
  rep.recommended = 0;
  rep.why = "cheapest";
  const std::string page = app::plan_html(rep);
  CHECK(page == app::plan_html(rep));
  CHECK(page.find("recommended: p4d.24xlarge x1 pytorch-ddp (batch 8)") != std::string::npos);
  CHECK(page.find("deadline 2 h") != std::string::npos);
  CHECK(page.find("budget $300") != std::string::npos);
  CHECK(page.find("Pareto frontier") != std::string::npos);
  CHECK(page.find("excluded: over budget") != std::string::npos);
}

TEST_CASE("labels are placed off markers and each other, the same way every time", "[html]")
{
  // A row of 12 markers 9 px apart (closer than a label is wide), each labelled: a crowded frontier.
  auto run = [] {
    app::svg::LabelPlacer p({0, 0, 400, 200});
    std::vector<app::svg::Box> markers;
    for (int i = 0; i < 12; ++i) {
      p.block_marker(100 + 9 * i, 150, 5);
      markers.push_back({100 + 9.0 * i - 7.5, 142.5, 100 + 9.0 * i + 7.5, 157.5});
    }
    std::vector<app::svg::Placed> out;
    for (int i = 0; i < 12; ++i) out.push_back(p.place_near(100 + 9 * i, 150, 7.5, "x" + std::to_string(1 << i), 11));
    return std::make_pair(out, markers);
  };
  const auto [placed, markers] = run();
  for (std::size_t i = 0; i < placed.size(); ++i) {
    INFO("label " << i);
    CHECK_FALSE(placed[i].collides);
    CHECK(placed[i].box.inside({0, 0, 400, 200}));
    for (const auto& m : markers) CHECK_FALSE(placed[i].box.intersects(m));
    for (std::size_t j = i + 1; j < placed.size(); ++j) CHECK_FALSE(placed[i].box.intersects(placed[j].box));
  }
  CHECK_FALSE(placed[0].far);  // the first label sits right beside its point
  const auto again = run().first;
  for (std::size_t i = 0; i < placed.size(); ++i) CHECK((again[i].x == placed[i].x && again[i].baseline == placed[i].baseline));
  // Nowhere left: the least-overlapping candidate is taken and reported as colliding.
  app::svg::LabelPlacer full({0, 0, 40, 20});
  full.block({0, 0, 40, 20});
  CHECK(full.place_near(20, 10, 5, "x8", 11).collides);
}
