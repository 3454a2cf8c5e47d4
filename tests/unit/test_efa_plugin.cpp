// What aws-ofi-nccl, AWS's libfabric plugin for NCCL, decides on EFA (issue 18, topology/transport.hpp):
// NCCL_PROTO=simple on first-generation EFA and NCCL's flush, by release (platform-aws.c); the
// 1.7.0-1.7.3 releases' striping of small messages over a p5 GPU's NICs; and SMDDP, which drives EFA
// itself, against NCCL without the plugin; GPU messages above one eager packet on its SENDRECV protocol
// (libfabric's read protocols, not priced). Moved from test_transport.cpp in round 4 session 31.
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "app/input/transport_loader.hpp"
#include "support.hpp"
#include "sim/study/twin.hpp"
#include "topology/transport.hpp"

using namespace ddpsim;
using ddpsim::test::catalog;
using ddpsim::test::instance;

namespace {

Version v(const char* s) { return test::version(s); }

}  // namespace

TEST_CASE("transport: aws-ofi-nccl sets NCCL_PROTO=simple on first-generation EFA, by release (platform-aws.c)")
{
  const NicSpec efa = instance("p4de.24xlarge").nic;
  SoftwareSpec sw;  // NCCL 2.21.5, the plugin of its era (1.13.2)
  CHECK(aws_ofi_nccl_release(sw) == kDefaultAwsOfiNccl);
  CHECK(net_plugin_forces_simple("p4de.24xlarge", efa, sw));
  CHECK(net_plugin_forces_simple("p4d.24xlarge", efa, sw));
  CHECK(net_plugin_forces_simple("p3dn.24xlarge", instance("p3dn.24xlarge").nic, sw));
  CHECK_FALSE(net_plugin_forces_simple("p5.48xlarge", instance("p5.48xlarge").nic, sw));
  CHECK_FALSE(net_plugin_forces_simple("p5en.48xlarge", instance("p5en.48xlarge").nic, sw));
  CHECK_FALSE(net_plugin_forces_simple("ml.p5.48xlarge", instance("p5.48xlarge").nic, sw));  // SageMaker's name
  CHECK(net_plugin_forces_simple("ml.p4d.24xlarge", efa, sw));
  InstanceSpec p5 = instance("p5.48xlarge");
  p5.name = "ml.p5.48xlarge";
  sw.nccl = v("2.18.5");
  sw.aws_ofi_nccl = "1.8.0";  // sets NCCL_NET_FORCE_FLUSH=0 on p5 (74fd41a6)
  CHECK_FALSE(nccl_flushes(p5, sw));
  sw.aws_ofi_nccl = "1.7.3";  // before it: NCCL 2.18's default flush on Hopper
  CHECK(nccl_flushes(p5, sw));
  sw.nccl = v("2.19.1");
  CHECK_FALSE(nccl_flushes(p5, sw));
  CHECK(nccl_flushes(instance("p4d.24xlarge"), sw));  // A100: always
  sw = SoftwareSpec{};
  // p5 before its exemption (1.7.3-aws), p5en before its own (1.13.0).
  sw.aws_ofi_nccl = "1.7.2";
  CHECK(net_plugin_forces_simple("p5.48xlarge", efa, sw));
  sw.aws_ofi_nccl = "1.12.1";
  CHECK_FALSE(net_plugin_forces_simple("p5.48xlarge", efa, sw));
  CHECK(net_plugin_forces_simple("p5en.48xlarge", efa, sw));
  // Before 1.6.0 the plugin set nothing; without the plugin there is none to set it.
  sw.aws_ofi_nccl = "1.5.0";
  CHECK_FALSE(net_plugin_forces_simple("p4de.24xlarge", efa, sw));
  sw.aws_ofi_nccl = "none";
  CHECK(aws_ofi_nccl_release(sw) == Version{});
  CHECK_FALSE(net_plugin_forces_simple("p4de.24xlarge", efa, sw));
  // Unset with a 2019 NCCL: the plugin of that era (before 1.6.0); NCCL before 2.5.6 reads no NCCL_PROTO.
  sw = SoftwareSpec{};
  sw.nccl = v("2.4.8");
  CHECK(aws_ofi_nccl_release(sw) < kOfiSetsProtoSimple);
  CHECK_FALSE(net_plugin_forces_simple("p3dn.24xlarge", efa, sw));
  sw.aws_ofi_nccl = "1.9.1";
  CHECK_FALSE(net_plugin_forces_simple("p3dn.24xlarge", efa, sw));
  // A scenario's stack reaches the instance; ENA never has the plugin.
  InstanceSpec p4de = instance("p4de.24xlarge");
  CHECK(p4de.nccl_proto_simple);  // the catalog's default stack
  TransportSpec t;
  t.software.aws_ofi_nccl = "1.5.0";
  apply_transport(p4de, t);
  CHECK_FALSE(p4de.nccl_proto_simple);
  CHECK_FALSE(instance("p3.16xlarge").nccl_proto_simple);
}

TEST_CASE("transport: aws-ofi-nccl 1.7.0-1.7.3 stripes every message above 8 KiB over a p5 GPU's four NICs, and says so")
{
  const InstanceSpec p5 = instance("p5.48xlarge");
  CHECK(efa_devices_per_gpu("p5.48xlarge") == 4);
  CHECK(efa_devices_per_gpu("ml.p5en.48xlarge") == 2);
  CHECK(efa_devices_per_gpu("p4d.24xlarge") == 1);
  SoftwareSpec sw;
  sw.nccl = v("2.18.5");
  for (const char* striping : {"1.7.0", "1.7.3"}) {
    sw.aws_ofi_nccl = striping;
    CHECK(net_plugin_stripes_small_messages(p5, sw));
  }
  for (const char* whole : {"1.6.0", "1.7.4", "1.8.0", "none"}) {  // before the rails, after 256 KiB, no plugin
    sw.aws_ofi_nccl = whole;
    CHECK_FALSE(net_plugin_stripes_small_messages(p5, sw));
  }
  sw.aws_ofi_nccl = "1.7.3";
  CHECK_FALSE(net_plugin_stripes_small_messages(instance("p4de.24xlarge"), sw));  // one NIC per two GPUs: no rails
  TransportSpec t;
  t.software = sw;
  const std::string note = app::rail_striping_note(t, p5);
  CHECK(note.find("aws-ofi-nccl 1.7.3 stripes every message above 8 KiB over a GPU's 4 EFA NICs") != std::string::npos);
  CHECK(note.find("not priced") != std::string::npos);
  t.software.aws_ofi_nccl = "1.8.0";
  CHECK(app::rail_striping_note(t, p5).empty());
}

TEST_CASE("transport: SMDDP drives EFA itself, so a stack without aws-ofi-nccl moves NCCL to sockets, not SMDDP")
{
  // p4d has GPUDirect RDMA over EFA: NCCL without the plugin runs TCP sockets (host-staged, a
  // per-flow cap); the EFA path a libfabric library sees keeps the device's GPUDirect, no cap.
  InstanceSpec p4d = instance("p4d.24xlarge");
  TransportSpec t;
  t.software.aws_ofi_nccl = "none";
  apply_transport(p4d, t);
  CHECK_FALSE(p4d.nic.gpudirect);
  CHECK(p4d.nic.flow_cap.bytes_per_s > 0);
  CHECK(p4d.nic.nccl_sockets_on_efa);
  const NicSpec efa = libfabric_nic(p4d.nic);
  CHECK(efa.gpudirect);
  CHECK(efa.flow_cap.bytes_per_s == 0);
  CHECK(efa.flows_per_connection == 1);
  CHECK(efa.spinning_threads == 0);
  // Applying a plugin afterwards restores the device's own path; ENA is never EFA.
  apply_transport(p4d, TransportSpec{});
  CHECK(p4d.nic.gpudirect);
  CHECK_FALSE(p4d.nic.nccl_sockets_on_efa);
  InstanceSpec p3 = instance("p3.16xlarge");
  apply_transport(p3, t);
  CHECK_FALSE(p3.nic.nccl_sockets_on_efa);
  CHECK(libfabric_nic(p3.nic).flow_cap.bytes_per_s == p3.nic.flow_cap.bytes_per_s);

  // Through a scenario on 2 x p4d: `aws_ofi_nccl: none` reprices PyTorch DDP's collectives (NCCL
  // over TCP: no plugin forcing Simple, a per-flow cap, host staging) and leaves SMDDP's step as
  // it was with the plugin (SageMaker's PyTorch 1.6 DLC shipped SMDDP and no plugin).
  auto run = [](const std::string& framework, const std::string& software) {
    const std::string text = "name: t\ncluster: {instance: p4d.24xlarge, nodes: [2]}\nmodel: {preset: bert-large, seq_len: 128}\n"
                             "training: {framework: " + framework + ", batch_per_gpu: 32, precision: fp16, samples: 100000}\n" + software;
    return sim::predict(app::parse_scenario("s.yaml", text, catalog())).results.at(0);
  };
  const std::string none = "software: {aws_ofi_nccl: none}\n";
  CHECK(run("smddp", none).step_time_s == run("smddp", "").step_time_s);
  CHECK(run("smddp", none).comm_s == run("smddp", "").comm_s);
  CHECK(run("pytorch-ddp", none).comm_s != Approx(run("pytorch-ddp", "").comm_s).epsilon(0.01));
}

TEST_CASE("transport: GPU messages above one eager packet cross EFA by libfabric's read protocols on SENDRECV, not priced")
{
  const InstanceSpec p4de = instance("p4de.24xlarge"), p5 = instance("p5.48xlarge"), p3dn = instance("p3dn.24xlarge");
  SoftwareSpec sw;
  sw.libfabric = "1.19.0";
  CHECK(efa_mid_size_read_unpriced(p4de, sw));  // SENDRECV on p4de in every release
  CHECK_FALSE(efa_mid_size_read_unpriced(p3dn, sw));  // no GPUDirect: host memory, 1 MiB read threshold
  sw.aws_ofi_nccl = "1.7.0";
  CHECK_FALSE(efa_mid_size_read_unpriced(p5, sw));  // RDMA protocol: writes, no read
  sw.aws_ofi_nccl = "1.6.0";
  CHECK(efa_mid_size_read_unpriced(p5, sw));  // before the RDMA protocol
  sw.libfabric = "1.16.0";  // medium and long-CTS packets up to 1 MiB
  CHECK_FALSE(efa_mid_size_read_unpriced(p4de, sw));
  sw.libfabric = "1.17.0";
  CHECK(efa_mid_size_read_unpriced(p4de, sw));
  sw.aws_ofi_nccl = "none";  // NCCL's sockets
  CHECK_FALSE(efa_mid_size_read_unpriced(p4de, sw));
  TransportSpec t;
  t.software.libfabric = "1.19.0";
  t.libfabric_stated = true;
  const std::string note = app::mid_size_read_note(t, p4de);
  CHECK(note.find("libfabric 1.19.0 (stated) sends a message from GPU memory larger than one eager packet") != std::string::npos);
  CHECK(note.find("not priced") != std::string::npos);
  CHECK(app::mid_size_read_note(t, p5).empty());
}
