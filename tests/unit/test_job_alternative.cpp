// Issue 18 item 4: a fit whose knob is implausible keeps its best plausible alternative
// (calibrate::plausible_alternative), the job profile carries it, and the intervals span both
// models (sim/study/uncertainty.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/input/job_profile_io.hpp"
#include "app/input/scenario_loader.hpp"
#include "calibrate/job_extrapolation.hpp"
#include "calibrate/plausibility.hpp"
#include "core/error.hpp"
#include "sim/study/knobs.hpp"
#include "sim/study/twin.hpp"
#include "sim/study/uncertainty.hpp"
#include "job_fixture.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::calibrate;
using ddpsim::test::observed;

namespace {
sim::ScenarioSpec scenario() { return test::lightning_mlp("1, 2, 4", 16384); }
}  // namespace

TEST_CASE("plausible alternative: the fit without the implausible knob, refitted on the same rows")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  sim::apply("compute_scale", truth, 1.7);
  sim::apply("network_efficiency", truth, 0.2);  // below the plausible 0.5: flagged
  const sim::ScenarioSpec s = observed(truth, base, {1, 2});
  JobFitOptions opt;
  opt.knobs = {"compute_scale", "network_efficiency"};
  const JobFit fit = fit_job(s, opt);
  REQUIRE(fit.knobs[1].value < kPlausibleEfficiency);
  const PlausibleAlternative a = plausible_alternative(s, opt, fit);
  INFO(a.how);
  REQUIRE(a.without == std::vector<std::string>{"network_efficiency"});
  REQUIRE(a.knobs == std::vector<std::string>{"compute_scale"});
  JobFitOptions one = opt;
  one.knobs = {"compute_scale"};
  CHECK(a.values[0] == Approx(fit_job(s, one).knobs[0].value).epsilon(1e-9));
  CHECK(a.how.find("the fit without network_efficiency: compute_scale") != std::string::npos);

  // A plausible fit has none.
  sim::ScenarioSpec fine = base;
  sim::apply("compute_scale", fine, 1.7);
  sim::apply("network_efficiency", fine, 0.8);
  const sim::ScenarioSpec s2 = observed(fine, base, {1, 2});
  CHECK(plausible_alternative(s2, opt, fit_job(s2, opt)).without.empty());
}

TEST_CASE("plausible alternative: written to the job profile, read back, and the intervals span it")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  sim::apply("compute_scale", truth, 1.7);
  sim::apply("network_efficiency", truth, 0.2);
  sim::ScenarioSpec s = observed(truth, base, {1, 2});
  JobFitOptions opt;
  opt.knobs = {"compute_scale", "network_efficiency"};
  JobFit fit = fit_job(s, opt);
  fit.alternative = plausible_alternative(s, opt, fit);
  REQUIRE(fit.alternative.values.size() == 1);
  const std::string path = (std::filesystem::temp_directory_path() / "ddpsim_alternative_profile.yaml").string();
  std::ofstream(path) << app::job_profile_yaml(fit, "t.yaml");
  const sim::JobProfile p = app::load_job_profile(path);
  std::remove(path.c_str());
  REQUIRE(p.alternative_without == fit.alternative.without);
  REQUIRE(p.alternative_knobs == fit.alternative.knobs);
  REQUIRE(p.alternative_values.size() == 1);
  CHECK(p.alternative_values[0] == Approx(fit.alternative.values[0]).epsilon(1e-8));

  // The prediction at 4 nodes: the fit with the implausible knob and the alternative differ; the
  // band holds the fit's own value and the alternative's, and without the alternative it does not.
  s.job_profile = std::make_shared<sim::JobProfile>(p);
  const sim::ScenarioReport with = sim::predict(s, {}, 8);
  sim::ScenarioSpec alt = base;
  sim::apply("compute_scale", alt, p.alternative_values[0]);
  const sim::ScenarioReport other = sim::run_scenario(alt);
  const sim::ConfigResult &r = with.results.back(), &o = other.results.back();
  REQUIRE(r.nodes == 4);
  REQUIRE(std::abs(o.step_time_s / r.step_time_s - 1) > 0.05);
  CHECK(r.step_band.p10 <= std::min(r.step_time_s, o.step_time_s) * (1 + 1e-9));
  CHECK(r.step_band.p90 >= std::max(r.step_time_s, o.step_time_s) * (1 - 1e-9));
  sim::JobProfile plain = p;
  plain.alternative_without.clear();
  s.job_profile = std::make_shared<sim::JobProfile>(plain);
  const sim::ConfigResult& q = sim::predict(s, {}, 8).results.back();
  CHECK_FALSE((q.step_band.p10 <= o.step_time_s && o.step_time_s <= q.step_band.p90));
  bool noted = false;
  for (const std::string& n : with.notes) noted = noted || n.find("interval: spans the fit without network_efficiency") == 0;
  CHECK(noted);
}

TEST_CASE("job profile: alternative names are checked, a profile without provenance loads")
{
  const std::string path = (std::filesystem::temp_directory_path() / "ddpsim_alternative_bad.yaml").string();
  const std::string head = "kind: ddpsim-job-profile\ncontext: {instance: p3.16xlarge, gpu: g, fabric: f, framework: lightning,"
                           " model: m, parameters: 1, batch_per_gpu: 1, precision: fp32}\nsigma: 0.02\n";
  const std::string tail = "knobs:\n  - {name: compute_scale, value: 1}\ncovariance_ln: [[0]]\n";
  std::ofstream(path) << head << "alternative: {without: [bogus], knobs: {compute_scale: 1}}\n" << tail;
  try {
    app::load_job_profile(path);
    FAIL("an unknown knob in alternative.without was accepted");
  } catch (const UserError& e) {
    CHECK(std::string(e.what()).find(":4:") != std::string::npos);
    CHECK(std::string(e.what()).find("alternative.without: unknown knob \"bogus\"") != std::string::npos);
  }
  std::ofstream(path) << head << tail;  // no provenance: was an internal error (yaml-cpp's InvalidNode)
  CHECK(app::load_job_profile(path).knobs == std::vector<std::string>{"compute_scale"});
  std::remove(path.c_str());
}
