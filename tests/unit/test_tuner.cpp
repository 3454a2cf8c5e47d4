// Issue 18: NCCL's choice as AWS makes it (aws-ofi-nccl's tuner regions as data, the log's
// environment) and fits that warn when they land on a bound or outside the plausible range.
#include <catch2/catch.hpp>

#include "support.hpp"

#include "algorithms/aws_ofi_tuner.hpp"
#include "app/input/profile_io.hpp"
#include "app/input/scenario_loader.hpp"
#include "calibrate/log_env.hpp"
#include "calibrate/plausibility.hpp"
#include "sim/network/collective_model.hpp"
#include "topology/transport.hpp"

using namespace ddpsim;

namespace {

const auto any = [](const algo::TunerChoice&) { return true; };

std::string choice(const char* inst, int nodes, std::uint64_t bytes)
{
  const auto c = algo::aws_ofi_choice(inst, algo::CollectiveOp::all_reduce, Bytes{bytes}, nodes, 8 * nodes, any);
  return c ? std::string(c->algorithm) + " " + std::string(to_string(c->protocol)) : "nccl";
}

}  // namespace

TEST_CASE("aws-ofi tuner: p5 regions by nodes x size, NCCL's own choice at 2 nodes and elsewhere", "[tuner]")
{
  // 32 ranks (4 nodes): Tree/LL128 below the vertex (37748736, 32), Ring/LL128 up to the edge
  // (1 GiB, 17)-(2 GiB, 64), nothing up to (1.5 GiB, 32), Ring/Simple beyond (nccl_ofi_regions.cpp).
  CHECK(choice("p5.48xlarge", 4, 8 * MiB) == "tree LL128");
  CHECK(choice("p5.48xlarge", 4, 32 * MiB) == "tree LL128");
  CHECK(choice("p5.48xlarge", 4, 64 * MiB) == "ring LL128");
  CHECK(choice("p5.48xlarge", 4, 1024 * MiB) == "ring LL128");
  CHECK(choice("p5.48xlarge", 4, 1434 * MiB) == "nccl");
  CHECK(choice("p5.48xlarge", 4, 2048 * MiB) == "ring Simple");
  CHECK(choice("p5.48xlarge", 4, 8192 * MiB) == "ring Simple");
  CHECK(choice("ml.p5.48xlarge", 4, 8192 * MiB) == "ring Simple");  // SageMaker's name
  // 128 ranks (16 nodes): the tree holds up to 288 MiB, then ring LL128, NVLSTree from 2 GiB.
  CHECK(choice("p5.48xlarge", 16, 256 * MiB) == "tree LL128");
  CHECK(choice("p5.48xlarge", 16, 512 * MiB) == "ring LL128");
  CHECK(choice("p5.48xlarge", 16, 4096 * MiB) == "nvls Simple");
  // "Skip when two nodes or lesser": NCCL decides; no tables for p4d (NCCL's model there).
  CHECK(choice("p5.48xlarge", 2, 8192 * MiB) == "nccl");
  CHECK(choice("p5.48xlarge", 1, 8192 * MiB) == "nccl");
  CHECK(choice("p4d.24xlarge", 8, 256 * MiB) == "nccl");
  CHECK(algo::aws_ofi_has_regions("p5en.48xlarge"));
  CHECK_FALSE(algo::aws_ofi_has_regions("p3dn.24xlarge"));
  // NCCL_PROTO=Simple disables Tree/LL128: the point is on no allowed region, NCCL decides.
  const auto simple = [](const algo::TunerChoice& c) { return c.protocol == algo::Protocol::simple; };
  CHECK_FALSE(algo::aws_ofi_choice("p5.48xlarge", algo::CollectiveOp::all_reduce, Bytes{8 * MiB}, 4, 32, simple));
}

TEST_CASE("aws-ofi tuner: the CollectiveModel follows it above 2 nodes and only there", "[tuner]")
{
  const InstanceSpec& p5 = test::instance("p5.48xlarge");
  for (const int nodes : {2, 4}) {
    const Topology topo(p5, nodes, 8);
    sim::CollectiveOptions aws, nccl;
    nccl.tuner = algo::Tuner::nccl;
    const auto a = sim::CollectiveModel(topo, aws).price(algo::CollectiveOp::all_reduce, Bytes{256 * MiB});
    const auto n = sim::CollectiveModel(topo, nccl).price(algo::CollectiveOp::all_reduce, Bytes{256 * MiB});
    if (nodes == 2) {
      CHECK(a.algorithm == n.algorithm);
      CHECK(a.protocol == n.protocol);
    } else {
      CHECK(a.algorithm->name() == "ring");
      CHECK(a.protocol == algo::Protocol::ll128);
      CHECK(n.algorithm->name() == "nvls");  // NCCL's model as ddpsim has it
    }
  }
  // NCCL_ALGO=Ring with the tuner: the tuner still picks the ring's protocol.
  const Topology topo(p5, 4, 8);
  sim::CollectiveOptions ring;
  ring.algorithm = "ring";
  CHECK(sim::CollectiveModel(topo, ring).price(algo::CollectiveOp::all_reduce, Bytes{256 * MiB}).protocol ==
        algo::Protocol::ll128);
}

TEST_CASE("aws-ofi tuner: only a plugin that carries the region tuner (v1.10.0 on) chooses", "[tuner]")
{
  // p5 at 4 nodes, 256 MiB: the region tuner picks ring LL128 (above); aws-ofi-nccl 1.9.x shipped a
  // model-based tuner as its own library that NCCL loads only when NCCL_TUNER_PLUGIN names it.
  const auto priced = [](const std::string& ofi) {
    InstanceSpec p5 = test::instance("p5.48xlarge");
    TransportSpec t;
    t.software.aws_ofi_nccl = ofi;
    apply_transport(p5, t);
    const Topology topo(p5, 4, 8);
    return std::pair{p5.nccl_net_tuner, sim::CollectiveModel(topo, {}).price(algo::CollectiveOp::all_reduce, Bytes{256 * MiB})};
  };
  const auto [tuner_new, with] = priced("1.10.0");
  const auto [tuner_old, without] = priced("1.9.1");
  CHECK(tuner_new);
  CHECK_FALSE(tuner_old);
  CHECK(with.algorithm->name() == "ring");
  CHECK(without.algorithm->name() == "nvls");  // NCCL's model, as with tuner: nccl
  CHECK_FALSE(priced("none").first);           // no plugin at all: sockets
}

TEST_CASE("plausibility: each bound and plausible range warns with the mechanism", "[tuner]")
{
  using calibrate::knob_warning;
  // scenarios/p3_8node_fitted.yaml's network_efficiency: a 25 Gbps link at 1 Gbps.
  const std::string slow = knob_warning("network_efficiency", 0.041, 1);
  CHECK(slow.find("probably missing") != std::string::npos);
  CHECK(slow.find("TCP") != std::string::npos);
  CHECK(knob_warning("network_efficiency", 0.8, 1).empty());
  CHECK(knob_warning("network_efficiency", 1.0, 1).find("at or above 1") != std::string::npos);
  CHECK(knob_warning("network_scale", 1.33, 1).empty());  // the median of the 255 measured collectives
  CHECK(knob_warning("network_scale", 2.2, 1).empty());   // inside 2 sd of 0.408 (round 4 session 35)
  CHECK(knob_warning("network_scale", 3.0, 1).find("0.44-2.3") != std::string::npos);
  CHECK_FALSE(knob_warning("network_scale", 0.2, 1).empty());
  CHECK_FALSE(knob_warning("compute_efficiency", 0.999, 0.5).empty());
  CHECK_FALSE(knob_warning("compute_efficiency", 0.02, 0.5).empty());
  CHECK(knob_warning("compute_efficiency", 0.4, 0.5).empty());
  CHECK_FALSE(knob_warning("compute_scale", 6, 1).empty());
  CHECK(knob_warning("compute_scale", 1.3, 1).empty());
  CHECK_FALSE(knob_warning("network_latency", 5e-6, 20e-6).empty());  // below the catalog's floor
  CHECK(knob_warning("network_latency", 30e-6, 20e-6).empty());
  CHECK_FALSE(knob_warning("step_overhead", 2, 0).empty());
  CHECK_FALSE(knob_warning("loader_cpu", 3, 1e-4).empty());
  CHECK(knob_warning("loader_cpu", 3e-4, 1e-4).empty());

  sim::Profile p = sim::default_profile("p5.48xlarge");
  p.network.fitted = true;
  p.network.efficiency = 1.08;
  p.intra.fitted = true;
  p.intra.efficiency = 0.9;
  p.intra.alpha_us = -2;
  p.intra.gamma_us = p.network.gamma_us = 10;  // off its bound
  p.residuals.push_back(sim::Residual{"f", 1, 2, 1, 1, 1, "nvls", "Simple"});
  auto w = calibrate::profile_warnings(p);
  REQUIRE(w.size() == 2);
  CHECK(w[0].find("one-node alpha") != std::string::npos);
  CHECK(w[1].find("multi-node efficiency 1.08") != std::string::npos);
  CHECK(w[1].find("nvls Simple") != std::string::npos);
  CHECK(w[1].find("NIC_DUP_CONNS") == std::string::npos);  // p5 has GPUDirect RDMA: no host staging
  // Without GPUDirect RDMA (p3dn) the staging's spread over the plugin's devices is named too.
  CHECK(calibrate::profile_warnings(p, /*host_staged=*/true)[1].find("NIC_DUP_CONNS") != std::string::npos);
  // A gamma the fit dropped (the rows wanted it negative) sits on its bound: warned, with the choice assumed.
  p.network.gamma_us = 0;
  w = calibrate::profile_warnings(p);
  REQUIRE(w.size() == 3);
  CHECK(w[2].find("multi-node gamma is on its bound 0") != std::string::npos);
  CHECK(w[2].find("assumed: nvls Simple") != std::string::npos);
  // Recorded in the profile file and read back.
  p.provenance.assumed = {"f: tuner aws-ofi"};
  const sim::Profile back = app::parse_profile("p.yaml", app::profile_yaml(p));
  CHECK(back.warnings == p.warnings);
  CHECK(back.provenance.assumed == p.provenance.assumed);
}

TEST_CASE("scenario: communication.nccl_algo, nccl_proto and tuner", "[tuner]")
{
  const std::string base = "name: t\ncluster: {instance: p5.48xlarge, nodes: [4]}\nmodel: {preset: resnet50}\n"
                           "training: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 1000}\n";
  const auto s = app::parse_scenario("s.yaml", base + "communication: {nccl_algo: Ring, nccl_proto: LL128, tuner: nccl}\n",
                                     test::catalog());
  CHECK(s.communication.algorithm == "ring");
  REQUIRE(s.communication.protocol);
  CHECK(*s.communication.protocol == algo::Protocol::ll128);
  CHECK(s.communication.tuner == algo::Tuner::nccl);
  CHECK(app::parse_scenario("s.yaml", base, test::catalog()).communication.tuner == algo::Tuner::aws_ofi);
  const auto error_of = [&](const std::string& comm) -> std::string {
    try {
      app::parse_scenario("s.yaml", base + comm, test::catalog());
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of("communication: {tuner: aws}\n").find("communication.tuner") != std::string::npos);
  CHECK(error_of("communication: {algorithm: ring, nccl_algo: Tree}\n").find("contradicts") != std::string::npos);
  CHECK(error_of("communication: {nccl_proto: simple}\n").find("s.yaml:5") != std::string::npos);
}

TEST_CASE("model error: the leave-one-out errors of a job fit, as an ln-space sd", "[tuner]")
{
  calibrate::JobFit fit;
  calibrate::RowFit a, b, held;
  a.fitted = b.fitted = true;
  a.obs.value = b.obs.value = held.obs.value = 100;
  a.loo_predicted = 110.0;
  b.loo_predicted = 100.0 / 1.1;
  held.loo_predicted = 200.0;  // held-back rows never count
  fit.rows = {a, b, held};
  int rows = 0;
  CHECK(calibrate::loo_model_error(fit, rows) == Approx(std::log(1.1)));
  CHECK(rows == 2);
  fit.rows = {held};
  CHECK(calibrate::loo_model_error(fit, rows) == 0);
  CHECK(rows == 0);
}
