// Issue 18 item 4: the model error beyond the fitted node counts (calibrate/job_extrapolation.hpp)
// and how the intervals widen with it (sim/study/uncertainty.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/input/job_profile_io.hpp"
#include "app/input/scenario_loader.hpp"
#include "calibrate/job_extrapolation.hpp"
#include "sim/study/uncertainty.hpp"
#include "job_fixture.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::calibrate;
using ddpsim::test::observed;

namespace {
sim::ScenarioSpec scenario() { return test::lightning_mlp("1, 2, 4, 8", 1024); }
}  // namespace

TEST_CASE("extrapolation error: the 2-node row predicted from the 1-node row with the knobs it determines")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  sim::apply("compute_scale", truth, 1.7);
  sim::apply("network_efficiency", truth, 0.35);
  const sim::ScenarioSpec s = observed(truth, base, {1, 2, 4});
  JobFitOptions opt;
  opt.knobs = {"compute_scale", "network_efficiency"};
  opt.fit_on_nodes = {1, 2};
  const JobFit fit = fit_job(s, opt);
  const ExtrapolationError x = extrapolation_error(s, opt, fit);
  REQUIRE(x.rows == 1);
  CHECK(x.fitted_nodes_max == 2);
  CHECK(x.from.find("nodes 2 from 1 (compute_scale)") != std::string::npos);
  // By hand: compute_scale alone on the 1-node row, then the 2-node row's error (one doubling).
  JobFitOptions one = opt;
  one.knobs = {"compute_scale"};
  one.fit_on_nodes = {1};
  const JobFit forward = fit_job(s, one);
  const double e = std::log(forward.rows[1].predicted / s.observations[1].value);
  CHECK(std::abs(e) > 0.01);  // the network knob the forward fit could not see moves the 2-node row
  CHECK(x.ln_sd_per_doubling == Approx(std::abs(e)).epsilon(1e-9));
}

TEST_CASE("extrapolation error: zero where the forward fit's model is the truth, none without a row above the smallest")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  sim::apply("compute_scale", truth, 0.8);
  const sim::ScenarioSpec s = observed(truth, base, {1, 2});
  JobFitOptions opt;
  opt.knobs = {"compute_scale"};
  const ExtrapolationError exact = extrapolation_error(s, opt, fit_job(s, opt));
  REQUIRE(exact.rows == 1);
  CHECK(exact.ln_sd_per_doubling < 1e-3);
  opt.fit_on_nodes = {1};
  const ExtrapolationError none = extrapolation_error(s, opt, fit_job(s, opt));
  CHECK(none.rows == 0);
  CHECK(none.ln_sd_per_doubling == 0);
}

TEST_CASE("intervals: the model error grows linearly in doublings beyond the fitted nodes, not inside them")
{
  sim::Uncertainty u;
  u.model_error_ln_sd = 0.03;
  u.extrapolation_ln_sd = 0.1;
  u.extrapolation_beyond_nodes = 2;
  CHECK(u.model_error_sd_at(1) == Approx(0.03));
  CHECK(u.model_error_sd_at(2) == Approx(0.03));
  CHECK(u.model_error_sd_at(8) == Approx(std::sqrt(0.03 * 0.03 + 0.2 * 0.2)));
  CHECK(u.model_error_sd_at(32) == Approx(std::sqrt(0.03 * 0.03 + 0.4 * 0.4)));
  u.model_error_ln_sd = 0;
  CHECK(u.has_model_error());
  u.extrapolation_beyond_nodes = 0;
  CHECK_FALSE(u.has_model_error());
}

TEST_CASE("job profile: the extrapolation error is written and read back")
{
  const sim::ScenarioSpec base = scenario();
  sim::ScenarioSpec truth = base;
  sim::apply("compute_scale", truth, 1.7);
  sim::apply("network_efficiency", truth, 0.35);
  const sim::ScenarioSpec s = observed(truth, base, {1, 2});
  JobFitOptions opt;
  opt.knobs = {"compute_scale", "network_efficiency"};
  JobFit fit = fit_job(s, opt);
  fit.extrapolation = extrapolation_error(s, opt, fit);
  const std::string path = (std::filesystem::temp_directory_path() / "ddpsim_extrapolation_profile.yaml").string();
  std::ofstream(path) << app::job_profile_yaml(fit, "t.yaml");
  const sim::JobProfile p = app::load_job_profile(path);
  std::remove(path.c_str());
  CHECK(p.extrapolation_ln_sd == Approx(fit.extrapolation.ln_sd_per_doubling).epsilon(1e-8));
  CHECK(p.extrapolation_beyond_nodes == 2);
}
