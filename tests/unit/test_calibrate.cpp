// nccl-tests parsing, the least-squares fit, and the validation of docs/validation.md: fit on some
// real logs, predict others, and hold the errors to what was measured (tolerances a little above).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>

#include "app/input/catalog_loader.hpp"
#include "support.hpp"
#include "app/input/profile_io.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/network/collective_model.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/nccl_log.hpp"
#include "core/random.hpp"
#include "sim/network/analytical.hpp"
#include "sim/study/model_error.hpp"

using namespace ddpsim;
using namespace ddpsim::calibrate;
using namespace ddpsim::sim;

namespace {

using test::instance;

std::string data(const char* file) { return std::string(DDPSIM_SOURCE_DIR) + "/tests/data/" + file; }

const char* kHeader =
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";

struct Errors {
  double big_busbw = 0;    // max |busbw error| for sizes >= 1 MiB
  double large_busbw = 0;  // the same for sizes >= 64 MiB
  double huge_busbw = 0;   // the same for sizes >= 128 MiB
  double small_time = 0;   // max |time error| for sizes < 64 KiB
};

// Predicts every row of `log` with `prof` on the log's cluster shape.
Errors predict_errors(const InstanceSpec& inst, const Profile& prof, const NcclLog& log)
{
  const auto [nodes, gpn] = log_shape(inst, log);
  Topology topo(inst, nodes, gpn);
  sim::AnalyticalBackend net(topo);
  sim::CollectiveOptions o;
  o.profile = prof;
  const CollectiveModel model(topo, o);
  Errors e;
  for (const LogRow& r : log.rows) {
    const double t = time_alone_us(model.price(algo::CollectiveOp::all_reduce, r.bytes), net);
    const double busbw_err = std::abs(r.time_us / t - 1);  // busbw is proportional to 1/time
    if (r.bytes.n >= MiB) e.big_busbw = std::max(e.big_busbw, busbw_err);
    if (r.bytes.n >= 64 * MiB) e.large_busbw = std::max(e.large_busbw, busbw_err);
    if (r.bytes.n >= 128 * MiB) e.huge_busbw = std::max(e.huge_busbw, busbw_err);
    if (r.bytes.n < 64 * KiB) e.small_time = std::max(e.small_time, std::abs(t / r.time_us - 1));
  }
  return e;
}

// A sweep of 8 B - 8 GiB on 1 and 2 nodes timed by the model itself with `truth`; the 2-node row of
// `slow_bytes` (if any) is made 30 % slower, and its true time returned in *true_us.
std::vector<NcclLog> synthetic_sweeps(const InstanceSpec& inst, const Profile& truth, std::uint64_t slow_bytes = 0,
                                      double* true_us = nullptr)
{
  std::vector<NcclLog> logs;
  for (int nodes : {1, 2}) {
    Topology topo(inst, nodes, 8);
    sim::AnalyticalBackend net(topo);
    sim::CollectiveOptions o;
    o.profile = truth;
    const CollectiveModel model(topo, o);
    NcclLog& log = logs.emplace_back();
    log.file = "synthetic" + std::to_string(nodes);
    log.ranks = 8 * nodes;
    int line = 1;
    for (std::uint64_t b = 8; b <= 8 * GiB; b *= 2) {
      double t = time_alone_us(model.price(algo::CollectiveOp::all_reduce, Bytes{b}), net);
      if (nodes == 2 && b == slow_bytes) *true_us = t, t *= 1.3;
      log.rows.push_back(LogRow{line++, Bytes{b}, t, 0, 0});
    }
  }
  return logs;
}

}  // namespace

TEST_CASE("parser: launcher prefixes, old and new columns, version, rank count")
{
  const NcclLog a = parse_nccl_log("a.txt", std::string("NCCL version 2.18.5+cuda12.2\n[1,0]<stdout>:") + kHeader +
                                                "[1,0]<stdout>:    1048576   262144  float  sum  -1  100.0  10.49  19.66  0  99.0  10.59  19.86  0\n"
                                                "[1,0]<stdout>:    2097152   524288  float  sum  -1  150.0  13.98  26.21  0  150.0 13.98  26.21  0\n");
  CHECK(a.nccl_version == "2.18.5+cuda12.2");
  REQUIRE(a.rows.size() == 2);
  CHECK(a.rows[1].time_us == 150.0);
  CHECK(a.rows[1].line == 4);
  CHECK(a.ranks == 16);  // 26.21 / 13.98 = 1.875 = 2 x 15 / 16
  const NcclLog old = parse_nccl_log("p3dn", "NCCL version 2.4.8+cuda10.0\n 8 2 float sum 145.4 0.00 0.00 2e-07 152.8 0.00 0.00 1e-07\n 1073741824 268435456 float sum 228178 4.71 8.82 5e-07 224997 4.77 8.95 5e-07\n");
  CHECK(old.nccl_version == "2.4.8+cuda10.0");
  CHECK(old.rows.back().time_us == 228178.0);  // no root column: time is the 5th
  CHECK(old.ranks == 16);
}

TEST_CASE("parser: the shared logs in tests/data all parse")
{
  const NcclLog p5 = read_nccl_log(data("p5_1node_8gpu_allreduce_awsbatch.txt"));
  CHECK(p5.ranks == 8);
  CHECK(p5.rows.size() == 32);
  const NcclLog srun = read_nccl_log(data("p5_2node_16gpu_allreduce_awsome.txt"));
  CHECK(srun.ranks == 16);
  CHECK(srun.rows.front().bytes.n == 8);
  const NcclLog eks = read_nccl_log(data("p5_2node_16gpu_allreduce_awsome_eks_nccl2.18.5_partial.txt"));
  CHECK(eks.rows.size() == 6);  // size 0 and "..." skipped
  const NcclLog csv = read_nccl_log(data("p5_2node_16gpu_allreduce_hyperpod_nccl2.27.7.csv"));
  CHECK(csv.nodes == 2);
  CHECK(csv.ranks == 16);
  CHECK(csv.rows.front().bytes.n == 32 * MiB);
  CHECK(csv.rows.front().time_us == Approx(33554432.0 / 78.57e9 * 1e6));
}

TEST_CASE("parser: bad logs are one-line user errors with a location")
{
  CHECK_THROWS_WITH(parse_nccl_log("t.txt", std::string(kHeader) + "   1048576   262144  float  sum  -1  100.0\n"),
                    Catch::StartsWith("t.txt:2:4: error: truncated nccl-tests row"));
  CHECK_THROWS_WITH(parse_nccl_log("w.txt", std::string(kHeader) + " 1048576 262144 float sum -1 abc 1 2 0\n"),
                    Catch::Contains("w.txt:2:") && Catch::Contains("wrong columns"));
  CHECK_THROWS_WITH(parse_nccl_log("e.txt", "# nothing here\n"), Catch::Contains("no nccl-tests result rows"));
  CHECK_THROWS_WITH(parse_nccl_log("c.csv", "Nodes,GPUs,size(MB)\n2,16,32\n"), Catch::Contains("no column \"out algbw(GB/s)\""));
  CHECK_THROWS_WITH(parse_nccl_log("d.txt", std::string(kHeader) + " 1024 256 float sum -1 10 0.1 0.2 0\n" +
                                                " 512 128 float sum -1 10 0.1 0.2 0\n"),
                    Catch::Contains("sizes must increase"));
}

TEST_CASE("fit: recovers known parameters from a synthetic sweep of the model itself")
{
  const InstanceSpec& inst = instance("p5.48xlarge");
  Profile truth = default_profile(inst.name);
  truth.intra = ScopeParams{true, 3.0, 0.7, 4.0, 0};
  truth.network = ScopeParams{true, 12.0, 0.8, 20.0, 0};
  const std::vector<NcclLog> logs = synthetic_sweeps(inst, truth);
  const Profile fit = fit_profile(inst, logs);
  for (auto [got, want] : {std::pair{fit.intra, truth.intra}, std::pair{fit.network, truth.network}}) {
    CHECK(got.alpha_us == Approx(want.alpha_us).epsilon(1e-6));
    CHECK(got.efficiency == Approx(want.efficiency).epsilon(1e-6));
    CHECK(got.gamma_us == Approx(want.gamma_us).epsilon(1e-6));
  }
  for (const Residual& r : fit.residuals) CHECK(std::abs(r.error()) < 1e-6);
  // The profile survives a YAML round trip.
  const Profile back = app::parse_profile("p.yaml", app::profile_yaml(fit));
  CHECK(back.network.efficiency == Approx(fit.network.efficiency).epsilon(1e-4));
  CHECK(back.intra.alpha_us == Approx(fit.intra.alpha_us).margin(1e-3));
}

// Issue 18 item 4: an interval's spread from rows the fit did not see. On a sweep of the model
// itself with one multi-node row made 30 % slow, that row's held-out prediction is the truth (the
// rest fit exactly), further from its measurement than the fit that saw it; the spread over the
// held-out predictions is the wider one, and a profile without them (written before round 4
// session 29) keeps its in-sample spread.
TEST_CASE("fit: each row's held-out prediction is the fit without it, and the spread uses it")
{
  const InstanceSpec& inst = instance("p5.48xlarge");
  Profile truth = default_profile(inst.name);
  truth.intra = ScopeParams{true, 3.0, 0.7, 4.0, 0};
  truth.network = ScopeParams{true, 12.0, 0.8, 20.0, 0};
  double true_us = 0;
  const std::uint64_t slow = 4 * MiB;
  const std::vector<NcclLog> logs = synthetic_sweeps(inst, truth, slow, &true_us);
  const Profile fit = fit_profile(inst, logs);
  const Residual* odd = nullptr;
  for (const Residual& r : fit.residuals) {
    CHECK(r.held_out_us > 0);
    if (r.nodes == 2 && r.bytes == slow) odd = &r;
  }
  REQUIRE(odd);
  CHECK(odd->held_out_us == Approx(true_us).epsilon(1e-6));
  CHECK(std::abs(std::log(odd->held_out_us / odd->measured_us)) > std::abs(std::log(odd->predicted_us / odd->measured_us)) + 0.01);

  const ResidualSpread held = profile_residual_spread(fit);
  CHECK(held.held_out);
  Profile old = fit;
  for (Residual& r : old.residuals) r.held_out_us = 0;
  const ResidualSpread in_sample = profile_residual_spread(old);
  CHECK_FALSE(in_sample.held_out);
  CHECK(held.rows == in_sample.rows);
  CHECK(held.ln_sd > in_sample.ln_sd * 1.02);
  // The file keeps them.
  const Profile back = app::parse_profile("p.yaml", app::profile_yaml(fit));
  REQUIRE(back.residuals.size() == fit.residuals.size());
  CHECK(back.residuals.back().held_out_us == Approx(fit.residuals.back().held_out_us).epsilon(1e-4));
  CHECK(profile_residual_spread(back).held_out);
}

// docs/validation.md, case A: fit on the p5 one-node log and the HyperPod 2-node CSV (sizes
// >= 32 MiB only), predict the other 2-node p5 log (awsome, srun). Measured on this model:
// busbw within 8.9% from 64 MiB, 25.1% from 1 MiB; time within 44.1% below 64 KiB (at line rate,
// before link efficiency: 7.6%, 27.3%, 44.4%) (network alpha is not
// identifiable from the CSV, so NCCL's table alone prices 2-node latency).
TEST_CASE("validation A: p5 fit on 1-node + HyperPod CSV predicts the awsome 2-node log")
{
  const InstanceSpec& inst = instance("p5.48xlarge");
  const Profile prof = fit_profile(inst, {read_nccl_log(data("p5_1node_8gpu_allreduce_awsbatch.txt")),
                                          read_nccl_log(data("p5_2node_16gpu_allreduce_hyperpod_nccl2.27.7.csv"))});
  const Errors e = predict_errors(inst, prof, read_nccl_log(data("p5_2node_16gpu_allreduce_awsome.txt")));
  // With link efficiency (issue 9): 7.6%, 27.3%, 44.5%, as before it (the fit absorbs the rest).
  CHECK(e.large_busbw < 0.08);
  CHECK(e.big_busbw < 0.28);
  CHECK(e.small_time < 0.46);
}

// Case B: fit on the p5 one-node log and the awsome 2-node log, predict the HyperPod CSV
// (newer NCCL 2.27.7): busbw within 14.8% (32 MiB .. 8 GiB), with and without link efficiency.
TEST_CASE("validation B: p5 fit on 1-node + awsome 2-node predicts the HyperPod CSV")
{
  const InstanceSpec& inst = instance("p5.48xlarge");
  const Profile prof = fit_profile(inst, {read_nccl_log(data("p5_1node_8gpu_allreduce_awsbatch.txt")),
                                          read_nccl_log(data("p5_2node_16gpu_allreduce_awsome.txt"))});
  const Errors e = predict_errors(inst, prof, read_nccl_log(data("p5_2node_16gpu_allreduce_hyperpod_nccl2.27.7.csv")));
  CHECK(e.large_busbw < 0.16);
}

// Case C: p4de from catalog facts alone (no fit). NCCL's choice at 2 nodes is the tree, at the
// catalog's achievable rates: busbw over-predicted by up to 29.1% from 128 MiB (30.9% at line rate
// before issue 9's link efficiency; 9.6% while `auto` could pick the two-level hierarchical form,
// which NCCL does not run). No software latency or pipeline term (docs/validation.md).
TEST_CASE("validation C: p4de from the catalog alone")
{
  const InstanceSpec& inst = instance("p4de.24xlarge");
  const Errors e = predict_errors(inst, default_profile(inst.name), read_nccl_log(data("p4de_2node_16gpu_allreduce_awsome.txt")));
  CHECK(e.huge_busbw < 0.30);
}

// A scenario's communication.profile (relative to the scenario file) slows communication down to
// what the profile measured.
TEST_CASE("scenario: communication.profile is resolved next to the scenario and changes communication")
{
  const app::Catalog catalog = app::builtin_catalog();
  auto scenario = [](const std::string& extra) {
    return "name: p5\ncluster: {instance: p5.48xlarge, nodes: [1, 2]}\n"
           "model: {preset: mlp, widths: [4096, 4096, 4096, 4096, 1]}\n"
           "training: {framework: pytorch-ddp, batch_per_gpu: 64, precision: fp32, samples: 1000000, epochs: 1, optimizer: sgd}\ncommunication: {algorithm: ring" + extra + "}\n";
  };
  const std::string where = std::string(DDPSIM_SOURCE_DIR) + "/scenarios/virtual.yaml";
  // profile: none is the catalog alone; without the key the shipped profile applies (issue 17).
  const sim::ScenarioSpec plain = app::parse_scenario(where, scenario(", profile: none"), catalog);
  const sim::ScenarioSpec shipped = app::parse_scenario(where, scenario(""), catalog);
  CHECK(shipped.communication.profile.network.fitted);
  CHECK(shipped.communication.profile_source.find("shipped profiles/p5.48xlarge.yaml") != std::string::npos);
  CHECK_FALSE(plain.communication.profile.network.fitted);
  const sim::ScenarioSpec fitted = app::parse_scenario(where, scenario(", profile: ../profiles/p5.48xlarge.yaml"), catalog);
  CHECK(fitted.communication.profile_path == std::string(DDPSIM_SOURCE_DIR) + "/profiles/p5.48xlarge.yaml");
  // The profile is data: the loader no longer patches the catalog's links.
  CHECK(fitted.cluster.instance.nic.bandwidth == plain.cluster.instance.nic.bandwidth);
  CHECK(fitted.communication.profile.network.fitted);
  const sim::ScenarioReport a = sim::run_scenario(plain), b = sim::run_scenario(fitted);
  for (std::size_t i = 0; i < a.results.size(); ++i) CHECK(b.results[i].comm_s != Approx(a.results[i].comm_s));
  CHECK_THROWS_WITH(app::parse_scenario(where, scenario(", profile: nope.yaml"), catalog),
                    Catch::Contains("communication.profile") && Catch::Contains("no such file"));
}

TEST_CASE("calibrate fit: implausible profiles are refused, fuzzed logs that fit load back", "[jobfit]")
{
  const std::string dir = std::string(DDPSIM_SOURCE_DIR) + "/tests/data/";
  const NcclLog p5 = read_nccl_log(dir + "p5_2node_16gpu_allreduce_awsome.txt");
  // A p5 (3.2 Tbps EFA) log read as a p3.16xlarge (25 Gbps): efficiency far above 1.
  const auto bad = implausible(fit_profile(test::instance("p3.16xlarge"), {p5}));
  REQUIRE(bad.has_value());
  CHECK(bad->reason.find("multi-node fit: efficiency") == 0);
  CHECK(bad->where.file == p5.file);
  CHECK(bad->where.line > 0);
  CHECK_FALSE(implausible(fit_profile(test::instance("p5.48xlarge"), {p5})).has_value());
  // Fuzz: scale every time by a seeded factor in [0.5, 2); whatever is written loads back.
  SplitMix64 rng(42);  // the project's one generator (core/random.hpp)
  int written = 0;
  for (int trial = 0; trial < 20; ++trial) {
    NcclLog log = p5;
    for (LogRow& r : log.rows) r.time_us *= 0.5 + 1.5 * rng.uniform();
    sim::Profile prof;
    try {
      prof = fit_profile(test::instance("p5.48xlarge"), {log});
    } catch (const UserError&) {
      continue;  // refused with a message: nothing written
    }
    if (implausible(prof)) continue;
    const sim::Profile back = app::parse_profile("fuzz.yaml", app::profile_yaml(prof));
    CHECK(back.network.efficiency == Approx(prof.network.efficiency).epsilon(1e-3));
    ++written;
  }
  CHECK(written > 0);
}
