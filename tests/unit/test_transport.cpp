// Transports as they run on AWS (issue 18, topology/transport.hpp): NCCL's sockets per connection
// by version, EC2's per-flow limit and the placement group, host-staged routes without GPUDirect,
// and the scenario's `software:` section (what aws-ofi-nccl decides on EFA: test_efa_plugin.cpp).
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "app/input/transport_loader.hpp"
#include "support.hpp"
#include "sim/study/twin.hpp"
#include "topology/routing.hpp"
#include "topology/transport.hpp"

using namespace ddpsim;
using ddpsim::test::catalog;
using ddpsim::test::instance;

namespace {

Version v(const char* s) { return test::version(s); }

bool crosses_cpu(const Topology& topo, const Route& r)
{
  for (EdgeId e : r.links) {
    const Link& l = topo.link(e);
    if (topo.device(l.from).kind == DeviceKind::cpu || topo.device(l.to).kind == DeviceKind::cpu) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("transport: versions parse and compare")
{
  CHECK(v("2.4.8") == Version{2, 4, 8});
  CHECK(v("2.4.7ms1") == Version{2, 4, 7});
  CHECK(v("2.18.5-1") == Version{2, 18, 5});
  CHECK(v("2.3") < v("2.4.8"));
  Version out;
  CHECK_FALSE(parse_version("two", out));
  CHECK_FALSE(parse_version("2", out));
  CHECK(to_string(v("2.21.5")) == "2.21.5");
}

TEST_CASE("transport: NCCL's sockets and helper threads per connection, by version and NIC (net_socket.cc)")
{
  NicSpec ena;
  ena.kind = "ena";
  NicSpec ib;
  ib.kind = "ib";
  SoftwareSpec sw;
  sw.nccl = v("2.4.6");  // before the multi-socket transport (v2.4.8-1, NVIDIA/nccl #209)
  CHECK(nccl_sockets_per_connection(sw, ena) == 1);
  CHECK(nccl_socket_helper_threads(sw, ena) == 0);  // the proxy thread drives the one socket
  sw.nccl = v("2.4.8");  // AWS vendor 0x1d0f: 2 threads x 8 sockets
  CHECK(nccl_sockets_per_connection(sw, ena) == 16);
  CHECK(nccl_socket_helper_threads(sw, ena) == 2);
  CHECK(nccl_sockets_per_connection(sw, ib) == 1);
  CHECK(nccl_socket_helper_threads(sw, ib) == 0);  // "we only use the main thread" elsewhere
  sw.socket_nthreads = 4;
  CHECK(nccl_socket_helper_threads(sw, ib) == 4);  // NCCL_SOCKET_NTHREADS wins
  sw.nsocks_perthread = 32;  // 128 > MAX_SOCKETS 64: nsocks cut to 64 / 4
  CHECK(nccl_sockets_per_connection(sw, ena) == 64);
  CHECK(ec2_flow_limit(false).bytes_per_s == Approx(5e9 / 8));
  CHECK(ec2_flow_limit(true).bytes_per_s == Approx(10e9 / 8));
}

TEST_CASE("transport: NCCL's socket helper threads per node, which spin while a collective crosses nodes")
{
  // On the instance: 2 channels (one per NIC, doubled: connect.cc) x send and receive x 2 threads.
  InstanceSpec p3 = instance("p3.16xlarge");
  TransportSpec t;
  apply_transport(p3, t);
  CHECK(p3.nic.spinning_threads == 8);
  t.software.min_nrings = 4;  // NCCL_MIN_NRINGS=4: 4 channels
  p3 = instance("p3.16xlarge");
  apply_transport(p3, t);
  CHECK(p3.nic.spinning_threads == 16);
  t = TransportSpec{};
  t.software.nccl = v("2.4.6");
  p3 = instance("p3.16xlarge");
  apply_transport(p3, t);
  CHECK(p3.nic.spinning_threads == 0);
  InstanceSpec p4d = instance("p4d.24xlarge");  // aws-ofi-nccl over EFA: the proxy polls libfabric
  apply_transport(p4d, TransportSpec{});
  CHECK(p4d.nic.spinning_threads == 0);
}

TEST_CASE("transport: sockets on p3dn without aws-ofi-nccl, EFA with it, p3.16xlarge in a placement group")
{
  InstanceSpec p3dn = instance("p3dn.24xlarge");
  CHECK(p3dn.nic.flow_cap.bytes_per_s == 0);  // EFA/SRD: no per-flow cap
  TransportSpec t;
  t.software.aws_ofi_nccl = "none";
  t.software.nccl = v("2.4.6");
  apply_transport(p3dn, t);
  CHECK(p3dn.nic.flows_per_connection == 1);
  CHECK(p3dn.nic.flow_cap.bytes_per_s == Approx(5e9 / 8));
  CHECK_FALSE(p3dn.nic.gpudirect);
  InstanceSpec p3 = instance("p3.16xlarge");
  t = TransportSpec{};
  t.placement_group = true;
  apply_transport(p3, t);
  CHECK(p3.nic.flow_cap.bytes_per_s == Approx(10e9 / 8));
  CHECK(p3.nic.flows_per_connection == 16);
}

TEST_CASE("transport: without GPUDirect, inter-node routes bounce through host memory and pay the PCIe uplink twice")
{
  const InstanceSpec& p3dn = instance("p3dn.24xlarge");
  REQUIRE_FALSE(p3dn.nic.gpudirect);
  Topology topo(p3dn, 2, 8);
  Router router(topo);
  // GPU 0 shares PCIe switch 0 with the NIC: GPU -> switch -> CPU -> switch -> NIC. While the node
  // stages out, it also stages in through the same switch uplink: half the achievable PCIe rate.
  const Route r = router.route(topo.gpu(0, 0), topo.gpu(1, 0));
  CHECK(crosses_cpu(topo, r));
  const double pcie = p3dn.pcie.bytes_per_s * p3dn.efficiency.pcie;
  CHECK(r.bottleneck.bytes_per_s == Approx(pcie / 2));
  CHECK(r.bottleneck.bytes_per_s < p3dn.nic.bandwidth.bytes_per_s * p3dn.efficiency.nic);
  // p4d has GPUDirect RDMA: GPU -> switch -> NIC, the NIC is the limit.
  const InstanceSpec& p4d = instance("p4d.24xlarge");
  Topology t4(p4d, 2, 8);
  const Route r4 = Router(t4).route(t4.gpu(0, 0), t4.gpu(1, 0));
  CHECK_FALSE(crosses_cpu(t4, r4));
  CHECK(r4.bottleneck.bytes_per_s == Approx(p4d.nic.bandwidth.bytes_per_s * p4d.efficiency.nic));
  // Same p3dn with GPUDirect (what-if): no host bounce, no halving.
  InstanceSpec gdr = p3dn;
  gdr.nic.gpudirect = true;
  Topology tg(gdr, 2, 8);
  CHECK(Router(tg).route(tg.gpu(0, 0), tg.gpu(1, 0)).bottleneck.bytes_per_s > r.bottleneck.bytes_per_s * 1.5);
}

TEST_CASE("transport: the scenario's software section and placement group reach the instance")
{
  const std::string base = "name: t\ncluster:\n  instance: p3dn.24xlarge\n  nodes: 2\n  placement_group: true\n"
                           "model:\n  preset: resnet50\ntraining:\n  framework: pytorch-ddp\n  batch_per_gpu: 32\n  steps: 10\n";
  sim::ScenarioSpec s = app::parse_scenario("s.yaml", base + "software:\n  nccl: 2.4.6\n  aws_ofi_nccl: none\n", catalog());
  CHECK(s.cluster.instance.nic.flows_per_connection == 1);
  CHECK(s.cluster.instance.nic.flow_cap.bytes_per_s == Approx(10e9 / 8));
  s = app::parse_scenario("s.yaml", base, catalog());
  CHECK(s.cluster.instance.nic.flow_cap.bytes_per_s == 0);  // default stack: aws-ofi-nccl over EFA
  CHECK_THROWS_WITH(app::parse_scenario("s.yaml", base + "software:\n  nccl: latest\n", catalog()),
                    Catch::Contains("software.nccl") && Catch::Contains("not a version"));
  CHECK_THROWS_WITH(app::parse_scenario("s.yaml", base + "software:\n  ncl: 2.4.6\n", catalog()),
                    Catch::Contains("ncl"));
}

TEST_CASE("transport: a TCP scenario that states no NCCL says which stack it was priced with")
{
  const auto note = [&](const std::string& instance, const std::string& nodes, const std::string& extra) {
    const std::string text = "name: t\ncluster: {instance: " + instance + ", nodes: " + nodes + "}\nmodel: {preset: resnet50}\n" +
                             "training: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 1000}\n" + extra;
    const sim::ScenarioReport rep = sim::predict(app::parse_scenario("s.yaml", text, catalog()));
    for (const std::string& n : rep.notes)
      if (n.rfind("software: not stated", 0) == 0) return n;
    return std::string();
  };
  CHECK(note("p3.16xlarge", "[1, 2]", "").find("NCCL 2.21.5, whose socket transport gives a connection 16 TCP flow(s) of "
                                               "at most 5 Gbps") != std::string::npos);
  CHECK(note("p3.16xlarge", "[1, 2]", "software: {nccl: 2.21.5}\n").empty());  // stated, even as the default
  CHECK(note("p3.16xlarge", "[1]", "").empty());                                // no TCP between nodes
  CHECK(note("p4d.24xlarge", "[1, 2]", "").empty());                            // EFA: no flows to count
}

TEST_CASE("transport: in a Kubernetes pod NCCL sees a veth, detects no AWS NIC and opens one socket per connection")
{
  NicSpec ena;
  ena.kind = "ena";
  SoftwareSpec sw;  // NCCL 2.21.5
  CHECK(nccl_sockets_per_connection(sw, ena) == 16);
  CHECK(nccl_sockets_per_connection(sw, ena, /*vendor_visible=*/false) == 1);
  CHECK(nccl_socket_helper_threads(sw, ena, false) == 0);
  sw.nsocks_perthread = 4;  // NCCL_NSOCKS_PERTHREAD alone: no helper threads, so the control socket carries it
  CHECK(nccl_sockets_per_connection(sw, ena, false) == 1);
  sw.socket_nthreads = 2;  // the job's environment sets both: as on the host
  CHECK(nccl_sockets_per_connection(sw, ena, false) == 8);
  CHECK(nccl_socket_helper_threads(sw, ena, false) == 2);
  InstanceSpec p3 = instance("p3.16xlarge");
  TransportSpec t;
  t.pod_network = true;
  apply_transport(p3, t);
  CHECK(p3.nic.flows_per_connection == 1);
  CHECK(p3.nic.flow_cap.bytes_per_s == Approx(5e9 / 8));  // still EC2's per-flow limit underneath
  CHECK(p3.nic.spinning_threads == 0);
  InstanceSpec p4d = instance("p4d.24xlarge");  // EFA reaches the pod through its device plugin: no sockets
  apply_transport(p4d, t);
  CHECK(p4d.nic.flows_per_connection == 1);
  CHECK(p4d.nic.flow_cap.bytes_per_s == 0);

  // A scenario: ResNet-50 on 4 p3.16xlarge, the pod network against the host's.
  const std::string base = "name: t\ncluster: {instance: p3.16xlarge, nodes: [4]";
  const std::string rest = "}\nmodel: {preset: resnet50}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 32, precision: fp32, samples: 100000}\n";
  const sim::ScenarioReport host = sim::predict(app::parse_scenario("s.yaml", base + rest, catalog()));
  const sim::ScenarioReport pod = sim::predict(app::parse_scenario("s.yaml", base + ", pod_network: true" + rest, catalog()));
  REQUIRE(host.results.size() == 1);
  REQUIRE(pod.results.size() == 1);
  CHECK(pod.results[0].comm_s > 2.5 * host.results[0].comm_s);  // one 5 Gbps flow against the 25 Gbps ENA
  CHECK(pod.results[0].step_time_s > host.results[0].step_time_s);
  bool said = false, release = false;
  for (const std::string& n : pod.notes) {
    said = said || n.find("pod network") != std::string::npos;
    release = release || n.rfind("software: not stated", 0) == 0;  // the release opens one flow here either way
  }
  CHECK(said);
  CHECK_FALSE(release);
  // With a dated stack too, the date and the pod network are two notes of the report, not one line.
  const sim::ScenarioSpec both = app::parse_scenario("s.yaml", base + ", pod_network: true" + rest + "software: {as_of: 2021-01}\n", catalog());
  REQUIRE(both.cluster.software_notes.size() == 2);
  CHECK(both.cluster.software_notes[0].find("as of 2021-01") != std::string::npos);
  CHECK(both.cluster.software_notes[1].find("pod network") != std::string::npos);
  CHECK(both.cluster.software_notes[1].find("as of") == std::string::npos);
  CHECK_THROWS_WITH(app::parse_scenario("s.yaml", base + ", pod_network: maybe" + rest, catalog()),
                    Catch::Contains("cluster.pod_network"));
}

TEST_CASE("transport: Gloo runs the kernel's TCP with one socket per peer, EC2's per-flow limit on every AWS NIC")
{
  // p3dn's EFA, aws-ofi-nccl loaded (the default): NCCL has no per-flow cap, Gloo's one socket does.
  const InstanceSpec& p3dn = instance("p3dn.24xlarge");
  REQUIRE(p3dn.nic.flow_cap.bytes_per_s == 0);
  CHECK(p3dn.nic.tcp_flow_cap.bytes_per_s == Approx(5e9 / 8));
  NicSpec gloo = tcp_nic(p3dn.nic);
  CHECK(gloo.flow_cap.bytes_per_s == Approx(5e9 / 8));
  CHECK(gloo.flows_per_connection == 1);
  CHECK_FALSE(gloo.gpudirect);
  InstanceSpec pg = instance("p4d.24xlarge");  // inside a cluster placement group: 10 Gbps
  TransportSpec t;
  t.placement_group = true;
  apply_transport(pg, t);
  CHECK(tcp_nic(pg.nic).flow_cap.bytes_per_s == Approx(10e9 / 8));
  CHECK(tcp_nic(instance("dgx-a100").nic).flow_cap.bytes_per_s == 0);  // InfiniBand: no EC2 limit

  // Through a scenario: a Gloo ring on 2 p3dn crosses nodes on one 5 Gbps flow per hop, so its
  // all-reduce time is at least 2(n-1)/n of the gradient bytes at 5 Gbps; a placement group
  // (10 Gbps) makes it faster; NCCL's DDP does not move with the placement group (EFA/SRD).
  auto run = [](const std::string& framework, bool placement_group) {
    const std::string text = std::string("name: t\ncluster: {instance: p3dn.24xlarge, nodes: [2], placement_group: ") +
                             (placement_group ? "true" : "false") + "}\nmodel: {preset: resnet50}\n"
                             "training: {framework: " + framework + ", batch_per_gpu: 64, precision: fp16, samples: 100000}\n";
    return sim::predict(app::parse_scenario("s.yaml", text, catalog())).results.at(0);
  };
  const double bytes = 2.0 * 15.0 / 16.0 * 25'557'032 * 2;  // ResNet-50's fp16 gradients, ring
  CHECK(run("gloo", false).comm_s >= bytes / (5e9 / 8));
  CHECK(run("gloo", true).comm_s < run("gloo", false).comm_s * 0.6);
  CHECK(run("pytorch-ddp", true).comm_s == run("pytorch-ddp", false).comm_s);
}

TEST_CASE("transport: the parameter server runs ps-lite's ZeroMQ, one TCP flow per worker and server")
{
  // Each GPU is a worker with its own socket to each server: a node's 8 workers are 8 flows to a
  // server on another node, each at EC2's per-flow limit.
  const InstanceSpec& p3dn = instance("p3dn.24xlarge");
  const NicSpec ps = nic_for_library("ps", p3dn.nic, 8);
  CHECK(ps.flow_cap.bytes_per_s == Approx(5e9 / 8));
  CHECK(ps.flows_per_connection == 8);
  CHECK_FALSE(ps.gpudirect);
  CHECK(nic_for_library("ps", p3dn.nic, 2).flows_per_connection == 2);
  CHECK(nic_for_library("nccl", p3dn.nic, 8).flow_cap.bytes_per_s == 0);  // aws-ofi-nccl's EFA

  // Two p3dn: every push and pull crosses on 8 x 5 Gbps = 40 Gbps, under the NIC's 100, so a
  // placement group (10 Gbps a flow) is faster; at 4 nodes three peers at once fill the NIC either way.
  auto run = [](int nodes, bool placement_group) {
    const std::string text = "name: t\ncluster: {instance: p3dn.24xlarge, nodes: [" + std::to_string(nodes) +
                             "], placement_group: " + (placement_group ? "true" : "false") +
                             "}\nmodel: {preset: resnet50}\n"
                             "training: {framework: parameter-server, batch_per_gpu: 64, precision: fp16, samples: 100000}\n";
    return sim::predict(app::parse_scenario("s.yaml", text, catalog())).results.at(0);
  };
  const double pushed = 8 * 25'557'032 * 2 / 2.0;  // 8 workers' fp16 copies of the other node's half
  CHECK(run(2, false).comm_s >= 2 * pushed / (40e9 / 8));
  CHECK(run(2, true).comm_s < run(2, false).comm_s * 0.75);
  CHECK(run(4, true).comm_s == Approx(run(4, false).comm_s).epsilon(0.02));
}
