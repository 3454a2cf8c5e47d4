// A profile `calibrate fit` writes loads back (issue 21; fuzz_nccl_log's finding of 2026-11-25,
// fuzz/regressions/fuzz_nccl_log/): every residual is a time ddpsim gives (never negative), the
// reader accepts every range the fitter can write, and numbers are written in a form that reads
// back to the same value.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iterator>

#include "app/input/job_profile_io.hpp"
#include "app/input/profile_io.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/nccl_log.hpp"
#include "sim/network/collective_model.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {

std::string read(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The file written, read back: every scope and residual the same within the written digits (at
// least three significant ones).
void check_round_trip(const sim::Profile& p)
{
  const std::string text = app::profile_yaml(p);
  INFO(text);
  const sim::Profile q = app::parse_profile("fit.yaml", text);
  CHECK(q.instance == p.instance);
  for (const auto& [a, b] : {std::pair{&p.intra, &q.intra}, std::pair{&p.network, &q.network}}) {
    CHECK(b->fitted == a->fitted);
    CHECK(b->alpha_us == Approx(a->alpha_us).epsilon(5e-3).margin(1e-3));
    CHECK(b->efficiency == Approx(a->efficiency).epsilon(5e-3));
    CHECK(b->gamma_us == Approx(a->gamma_us).epsilon(5e-3).margin(1e-3));
  }
  REQUIRE(q.residuals.size() == p.residuals.size());
  for (std::size_t i = 0; i < p.residuals.size(); ++i) {
    CHECK(q.residuals[i].bytes == p.residuals[i].bytes);
    CHECK(q.residuals[i].measured_us == Approx(p.residuals[i].measured_us).epsilon(5e-3).margin(0.01));
    CHECK(q.residuals[i].predicted_us == Approx(p.residuals[i].predicted_us).epsilon(5e-3).margin(0.01));
    CHECK(q.residuals[i].held_out_us == Approx(p.residuals[i].held_out_us).epsilon(5e-3).margin(0.01));
  }
}

}  // namespace

TEST_CASE("profile round trip: fuzz_nccl_log's fit with a negative alpha loads back")
{
  const std::string file = std::string(DDPSIM_SOURCE_DIR) + "/fuzz/regressions/fuzz_nccl_log/20261125-profile-roundtrip.txt";
  const calibrate::NcclLog log = calibrate::parse_nccl_log("finding.txt", read(file));
  const InstanceSpec& p4d = test::instance("p4d.24xlarge");
  const sim::Profile prof = calibrate::fit_profile(p4d, {log});
  // What made the formula's prediction negative: a fitted alpha below zero at small sizes.
  const sim::ScopeParams& fitted = prof.intra.fitted ? prof.intra : prof.network;
  REQUIRE(fitted.fitted);
  CHECK(fitted.alpha_us < 0);
  // Each residual is the time ddpsim gives the row with this profile, as `ddpsim collective` would.
  const auto [nodes, gpn] = calibrate::log_shape(p4d, log);
  const Topology topo(p4d, nodes, gpn);
  sim::CollectiveOptions o;
  o.profile = prof;
  const sim::CollectiveModel model(topo, o);
  sim::AnalyticalBackend idle(topo);
  REQUIRE(prof.residuals.size() == log.rows.size());
  for (const sim::Residual& r : prof.residuals) {
    CHECK(r.predicted_us >= 0);
    CHECK(r.predicted_us == Approx(sim::time_alone_us(model.price(algo::CollectiveOp::all_reduce, Bytes{r.bytes}), idle)));
  }
  check_round_trip(prof);
}

TEST_CASE("profile round trip: the extremes the fitter may write read back")
{
  using L = calibrate::ProfileLimits;
  sim::Profile p = sim::default_profile("p4d.24xlarge");
  p.intra = sim::ScopeParams{true, L::alpha_us_min, L::efficiency_min * 10, 1e-7, 3};  // 1e-5: was written 0.0000
  p.network = sim::ScopeParams{true, L::alpha_us_max, L::efficiency_max, L::gamma_us_max, 3};
  // A log's largest size (below 2^63 B) and time (100 days); a prediction near the clock's end.
  p.residuals.push_back(sim::Residual{"a.txt", 7, 1, 9'000'000'000'000'000'000ULL, 8.64e12, 9.2e12, "ring", "simple"});
  p.residuals.push_back(sim::Residual{"a.txt", 8, 2, 8, 0.004, 0, "ring", "ll"});
  check_round_trip(p);
  // Outside the ranges is still refused, located.
  p.intra.efficiency = 0;
  CHECK_THROWS_WITH(app::parse_profile("x.yaml", app::profile_yaml(p)), Catch::Contains("x.yaml:") && Catch::Contains("efficiency"));
}

TEST_CASE("profile round trip: fits of the shipped logs load back unchanged")
{
  for (const auto& [log, inst] : {std::pair{"p5_1node_8gpu_allreduce_awsbatch.txt", "p5.48xlarge"},
                                  std::pair{"p4de_2node_16gpu_allreduce_awsome.txt", "p4de.24xlarge"}}) {
    const std::string path = std::string(DDPSIM_SOURCE_DIR) + "/tests/data/" + log;
    check_round_trip(calibrate::fit_profile(test::instance(inst), {calibrate::parse_nccl_log(path, read(path))}));
  }
}

TEST_CASE("job profile: a provenance line's node count past six digits names no role (CI fuzz finding 2026-12-07)")
{
  // fuzz/regressions/fuzz_job_profile/20261207-crash-provenance-stoi.yaml: std::stoi threw out_of_range.
  const std::string text = "kind: ddpsim-job-profile\n"
                           "context: {instance: p3.16xlarge, gpu: g, fabric: f, framework: lightning, model: m, "
                           "parameters: 1, batch_per_gpu: 1, precision: fp32}\n"
                           "provenance:\n  rows:\n"
                           "    - \"j.csv:2: nodes 99999999999999999999, 8 GPUs/node, lightning, total 1 s (fitted)\"\n"
                           "    - \"j.csv:3: nodes 4, 8 GPUs/node, lightning, total 1620 s (held back)\"\n"
                           "sigma: 0.02\nknobs:\n  - {name: compute_scale, value: 1}\ncovariance_ln: [[0]]\n";
  const auto p = app::parse_job_profile("j.yaml", text);
  REQUIRE(p.roles.size() == 1);
  CHECK(p.roles[0].nodes == 4);
  CHECK(p.roles[0].role == "held back");
}

TEST_CASE("hardening: fuzz_profile's carriage-return instance is a located error, not an unloadable profile")
{
  // Found by the 10^6-execution campaign (docs/reliability.md): a lone \r after `instance:` was
  // accepted, then written back as a blank that no longer loaded.
  CHECK_THROWS_WITH(app::parse_profile("cr.yaml", std::string("#\ninstance: \r", 13)),
                    Catch::Contains("cr.yaml:2:") && Catch::Contains("instance: expected an instance name"));
  CHECK_THROWS_AS(app::parse_profile("sp.yaml", "instance: \"p4d 24xlarge\"\n"), UserError);
  const sim::Profile ok = app::parse_profile("ok.yaml", "instance: p4d.24xlarge\n");
  CHECK(app::parse_profile("again.yaml", app::profile_yaml(ok)).instance == "p4d.24xlarge");
}
