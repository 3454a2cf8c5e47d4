// libfabric under aws-ofi-nccl (issue 18, topology/transport.hpp efa_gpu_read_protocol): before 1.15
// its EFA provider sent GPU memory by a read-message protocol and copied GPU-bound arrivals with a
// local RDMA read, so on EFA with GPUDirect RDMA a network hop costs NIC latencies that later
// releases (gdrcopy) do not; the release a stack runs, stated or of NCCL's era or of a date.
#include <catch2/catch.hpp>

#include "algorithms/nccl_tuning.hpp"
#include "app/input/scenario_loader.hpp"
#include "app/input/transport_loader.hpp"
#include "core/error.hpp"
#include "support.hpp"
#include "topology/software_era.hpp"
#include "topology/topology.hpp"
#include "topology/transport.hpp"

using namespace ddpsim;
using namespace ddpsim::algo;
using ddpsim::test::catalog;
using ddpsim::test::instance;

namespace {

Version v(const char* s) { return test::version(s); }

Date date(const char* s)
{
  Date d;
  REQUIRE(parse_date(s, d));
  return d;
}

InstanceSpec with(const char* name, const SoftwareSpec& sw)
{
  InstanceSpec inst = instance(name);
  apply_nccl_software(inst, sw);
  return inst;
}

}  // namespace

TEST_CASE("libfabric: its release tags, and the release a stack runs (stated, or of NCCL's era)")
{
  REQUIRE(libfabric_releases().size() > 30);
  const auto lf = [](const char* d) { return release_as_of(libfabric_releases(), date(d))->version; };
  CHECK_FALSE(release_as_of(libfabric_releases(), date("2019-11-19")));
  CHECK(lf("2021-02-24") == Version{1, 11, 2});  // aws-efa-eks's first p4d log
  CHECK(lf("2022-04-28") == Version{1, 14, 1});
  CHECK(lf("2022-04-29") == kLibfabricGdrcopy);  // "Added support of using gdrcopy"
  CHECK(lf("2023-12-01") == Version{1, 20, 0});  // branches interleave: the highest by then

  SoftwareSpec sw;  // the current stack: NCCL 2.21.5's era
  CHECK(libfabric_release(sw) >= kLibfabricGdrcopy);
  for (const char* old : {"2.7.8", "2.8.3", "2.9.9", "2.12.10"}) {
    sw.nccl = v(old);
    CHECK(libfabric_release(sw) < kLibfabricGdrcopy);
  }
  sw.nccl = v("2.12.12");  // tagged 2022-05-13, after 1.15.0 and 1.15.1
  CHECK(libfabric_release(sw) == Version{1, 15, 1});
  sw = SoftwareSpec{};
  sw.libfabric = "1.13.2";  // a stated release wins over NCCL's era
  CHECK(libfabric_release(sw) == Version{1, 13, 2});
}

TEST_CASE("libfabric before 1.15: GPU memory over EFA costs LL128 and Simple two more NIC latencies a hop, LL one")
{
  SoftwareSpec old;
  old.nccl = v("2.7.8");
  SoftwareSpec fixed = old;
  fixed.libfabric = "1.15.0";
  const InstanceSpec p4d_old = with("p4d.24xlarge", old), p4d_new = with("p4d.24xlarge", fixed);
  CHECK(p4d_old.efa_gpu_read_protocol);
  CHECK_FALSE(p4d_new.efa_gpu_read_protocol);
  CHECK(p4d_old.nccl_net_flush == p4d_new.nccl_net_flush);  // the flush is NCCL's, apart from this

  const Topology t_old(p4d_old, 2, 8), t_new(p4d_new, 2, 8);
  const HopCount hops{28, 2};  // a ring all-reduce over 2 x 8 GPUs
  const double L = p4d_old.nic.latency.us();
  REQUIRE(L > 0);
  const auto extra = [&](Protocol p) {
    return nccl_latency(NcclFamily::ring, p, hops, t_old).us() - nccl_latency(NcclFamily::ring, p, hops, t_new).us();
  };
  CHECK(extra(Protocol::ll) == Approx(2 * L));          // a local read per arrival
  CHECK(extra(Protocol::ll128) == Approx(2 * 2 * L));   // the receiver's RDMA read: request and response
  CHECK(extra(Protocol::simple) == Approx(2 * 2 * L));
  // NCCL's estimate, by which it chooses, knows nothing of it: the choice stays NCCL's.
  for (Protocol p : {Protocol::ll, Protocol::ll128, Protocol::simple})
    CHECK(nccl_estimated_latency(NcclFamily::ring, p, hops, t_old) == nccl_estimated_latency(NcclFamily::ring, p, hops, t_new));

  // Only GPU memory over EFA: not p3dn (no GPUDirect RDMA: NCCL's buffers are in host memory), not
  // NCCL's sockets, not InfiniBand.
  SoftwareSpec p3dn = old;
  p3dn.nccl = v("2.4.8");
  CHECK_FALSE(with("p3dn.24xlarge", p3dn).efa_gpu_read_protocol);
  SoftwareSpec sockets = old;
  sockets.aws_ofi_nccl = "none";
  CHECK_FALSE(efa_gpu_read_protocol(instance("p4d.24xlarge").nic, sockets));
  CHECK_FALSE(with("dgx-a100", old).efa_gpu_read_protocol);
  CHECK_FALSE(with("p5.48xlarge", SoftwareSpec{}).efa_gpu_read_protocol);  // today's stack
  // A log whose EFA connections lack /GDRDMA is priced host-staged after the software is applied:
  // no GPU memory on the wire, so no read protocol either.
  InstanceSpec staged = p4d_old;
  staged.nic.gpudirect = false;
  InstanceSpec staged_new = p4d_new;
  staged_new.nic.gpudirect = false;
  CHECK(nccl_latency(NcclFamily::ring, Protocol::ll128, hops, Topology(staged, 2, 8)) ==
        nccl_latency(NcclFamily::ring, Protocol::ll128, hops, Topology(staged_new, 2, 8)));
}

TEST_CASE("software.libfabric: the scenario key, --software and as_of, and bad values as errors at their field")
{
  const TransportSpec t = app::parse_transport_option("--software", "nccl=2.21.5,libfabric=1.13.2");
  CHECK(t.software.libfabric == "1.13.2");
  CHECK(t.libfabric_stated);
  // The report says so where it prices it, and names the release and where it came from.
  InstanceSpec p4d = instance("p4d.24xlarge");
  apply_transport(p4d, t);
  CHECK(app::libfabric_note(t, p4d).find("libfabric 1.13.2 (stated)") != std::string::npos);
  const TransportSpec era = app::parse_transport_option("--software", "nccl=2.9.9");
  InstanceSpec p4d_era = instance("p4d.24xlarge");
  apply_transport(p4d_era, era);
  CHECK(app::libfabric_note(era, p4d_era).find("of NCCL 2.9.9's era") != std::string::npos);
  InstanceSpec today = instance("p4d.24xlarge");
  apply_transport(today, TransportSpec{});
  CHECK(app::libfabric_note(TransportSpec{}, today).empty());
  CHECK_THROWS_WITH(app::parse_transport_option("--software", "libfabric=new"),
                    Catch::Contains("--software") && Catch::Contains("libfabric=new") && Catch::Contains("not a version"));

  const std::string base = "name: t\ncluster:\n  instance: p4d.24xlarge\n  nodes: [2]\nmodel:\n  preset: resnet50\n"
                           "training:\n  framework: pytorch-ddp\n  batch_per_gpu: 64\n  samples: 128000\n";
  const auto load = [&](const std::string& software) { return app::parse_scenario("s.yaml", base + "software:\n" + software, catalog()); };
  CHECK(load("  nccl: 2.21.5\n  libfabric: 1.14.1\n").cluster.instance.efa_gpu_read_protocol);
  CHECK_FALSE(load("  nccl: 2.21.5\n").cluster.instance.efa_gpu_read_protocol);
  CHECK_FALSE(load("  nccl: 2.9.9\n  libfabric: 1.15.0\n").cluster.instance.efa_gpu_read_protocol);
  CHECK_THROWS_WITH(load("  libfabric: latest\n"), Catch::Contains("s.yaml:") && Catch::Contains("software.libfabric") &&
                                                      Catch::Contains("not a version"));
  // A date fills it, and the report says which it took.
  const sim::ScenarioSpec dated = load("  as_of: 2021-06\n");
  CHECK(dated.cluster.instance.efa_gpu_read_protocol);
  std::string notes;
  for (const std::string& n : dated.cluster.software_notes) notes += n + "\n";
  CHECK(notes.find("libfabric 1.12.1") != std::string::npos);
  CHECK(notes.find("read-message protocol") != std::string::npos);
}

TEST_CASE("software.efa_installer: AWS's lists say which libfabric an installer put on the nodes")
{
  // The list: installers in order, and the libfabric they install never goes back.
  const auto list = efa_installer_releases();
  REQUIRE(list.size() > 25);
  for (std::size_t i = 1; i < list.size(); ++i) {
    CHECK(list[i - 1].installer < list[i].installer);
    CHECK(list[i - 1].libfabric <= list[i].libfabric);
  }
  // Rows as their sources give them (aws-parallelcluster-cookbook CHANGELOG.md; aws-ofi-nccl #33).
  CHECK(libfabric_of_efa_installer(v("1.7.0")).libfabric == Version{1, 8, 1});
  CHECK(libfabric_of_efa_installer(v("1.11.2")).libfabric == Version{1, 11, 1});
  CHECK(libfabric_of_efa_installer(v("1.14.1")).libfabric == Version{1, 13, 2});
  CHECK(libfabric_of_efa_installer(v("1.17.2")).libfabric == Version{1, 16, 0});
  // An installer not listed takes the nearest listed below it, and says which.
  const InstallerLibfabric eks = libfabric_of_efa_installer(v("1.28.0"));  // the EKS p5 log's
  CHECK(eks.listed == Version{1, 26, 1});
  CHECK(eks.libfabric == Version{1, 18, 2});
  CHECK(libfabric_of_efa_installer(v("1.5.0")).listed == Version{1, 7, 0});  // older than any: the oldest

  // It decides the price where libfabric is not named: p4d with an installer before 1.17 (libfabric
  // before 1.15) pays the read protocol, after it not, whatever NCCL's era says; a named libfabric wins.
  const auto p4d = [](const char* software) {
    const TransportSpec t = app::parse_transport_option("--software", software);
    InstanceSpec inst = instance("p4d.24xlarge");
    apply_transport(inst, t);
    return std::pair{t, inst};
  };
  CHECK(p4d("efa_installer=1.12.2").second.efa_gpu_read_protocol);          // NCCL 2.21.5's era alone would not
  CHECK_FALSE(p4d("nccl=2.8.3,efa_installer=1.18.0").second.efa_gpu_read_protocol);  // NCCL's era alone would
  CHECK_FALSE(p4d("efa_installer=1.12.2,libfabric=1.15.0").second.efa_gpu_read_protocol);
  // ... and over a date, which is a coarser statement of the same thing.
  CHECK_FALSE(p4d("as_of=2021-06,efa_installer=1.22.0").second.efa_gpu_read_protocol);
  // The notes say where the release came from.
  const auto [listed, listed_inst] = p4d("efa_installer=1.11.2");
  CHECK(app::libfabric_note(listed, listed_inst).find("libfabric 1.11.1 (of EFA installer 1.11.2;") != std::string::npos);
  const auto [near, near_inst] = p4d("efa_installer=1.16.0");
  CHECK(app::libfabric_note(near, near_inst).find("not listed: that of the nearest listed below it, 1.14.1") != std::string::npos);
  const auto [dated, dated_inst] = p4d("as_of=2021-03,efa_installer=1.12.2");
  CHECK(app::as_of_note(dated).find("libfabric 1.11.2 (of EFA installer 1.12.2;") != std::string::npos);
  CHECK_THROWS_WITH(app::parse_transport_option("--software", "efa_installer=latest"),
                    Catch::Contains("efa_installer=latest") && Catch::Contains("not a version"));

  // The scenario key, with a located error for a bad value.
  const std::string base = "name: t\ncluster:\n  instance: p4d.24xlarge\n  nodes: [2]\nmodel:\n  preset: resnet50\n"
                           "training:\n  framework: pytorch-ddp\n  batch_per_gpu: 64\n  samples: 128000\n";
  const auto load = [&](const std::string& software) { return app::parse_scenario("s.yaml", base + "software:\n" + software, catalog()); };
  CHECK(load("  efa_installer: 1.11.2\n").cluster.instance.efa_gpu_read_protocol);
  CHECK_FALSE(load("  efa_installer: 1.30.0\n").cluster.instance.efa_gpu_read_protocol);
  CHECK_THROWS_WITH(load("  efa_installer: latest\n"), Catch::Contains("s.yaml:") && Catch::Contains("software.efa_installer") &&
                                                          Catch::Contains("not a version"));
}
