// What a nccl-tests log says NCCL ran (calibrate/log_env.hpp): its environment's choice (issue 18
// item 2), and since round 4 session 30 the channels, the socket transport, GPUDirect RDMA, and
// NCCL's own "set by environment" INFO lines; calibrate fit, expect --check and collective
// --compare price a log so.
#include <catch2/catch.hpp>

#include "support.hpp"

#include "app/input/transport_loader.hpp"
#include "calibrate/log_env.hpp"

using namespace ddpsim;

namespace {

calibrate::LogChoice from_env(const std::string& env, const std::string& version = "")
{
  calibrate::NcclLog log;
  log.environment = env;
  log.nccl_version = version;
  return calibrate::log_choice(log);
}

}  // namespace

TEST_CASE("calibrate fit: the log's environment sets the choice it assumes", "[tuner]")
{
  CHECK(from_env("").tuner == algo::Tuner::aws_ofi);
  CHECK(from_env("", "2.18.5").tuner == algo::Tuner::nccl);  // before NCCL 2.21 a tuner must be named
  CHECK(from_env("# ENV: NCCL_TUNER_PLUGIN=libnccl-ofi-tuner.so", "2.18.5").tuner == algo::Tuner::aws_ofi);
  CHECK(from_env("NCCL_TUNER_PLUGIN=libmytuner.so").tuner == algo::Tuner::nccl);
  CHECK(from_env("-x NCCL_ALGO=Ring").algorithm == "ring");
  CHECK(from_env("NCCL_TREE_THRESHOLD=0 (=> RING)").algorithm == "ring");
  CHECK(from_env("NCCL_ALGO=NVLSTree").algorithm == "nvls");
  CHECK(from_env("NCCL_ALGO=CollNetDirect").algorithm == "auto");
  const auto p = from_env("NCCL_PROTO=simple");
  REQUIRE(p.protocol);
  CHECK(*p.protocol == algo::Protocol::simple);
  CHECK(p.why.find("NCCL_PROTO=simple") != std::string::npos);
  // The environment lines kept from a log: NCCL_ALGO/PROTO "not set" is not a setting.
  CHECK(calibrate::environment_lines({"# ENV: NCCL_ALGO/PROTO not set", "x"}).empty());
}

// Round 4 session 30: NCCL prints the channels it runs at init ("N coll channels", per rank, with
// NCCL_DEBUG=INFO); `calibrate fit`, `expect --check` and `collective --compare` price a log with
// them across nodes, and the fit records that it read them.
TEST_CASE("a log's NCCL INFO channel count is read, kept through its NCCL banner, and named in the fit's choice")
{
  const std::vector<std::string> lines{
      "ip-10-216-178-255:416481:416522 [3] NCCL INFO threadThresholds 8/8/64 | 256/8/64 | 8/8/512",
      "ip-10-216-178-255:416481:416522 [3] NCCL INFO 6 coll channels, 8 p2p channels, 2 p2p channels per peer",
      "h:1:2 [0] NCCL INFO 32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer"};
  calibrate::NcclLog log;
  log.environment = calibrate::environment_lines(lines);
  CHECK(log.environment.find("threadThresholds") == std::string::npos);
  REQUIRE(calibrate::log_channels(log));
  CHECK(*calibrate::log_channels(log) == 6);  // the first a rank prints
  log.nccl_version = "2.13.4";                // a banner: the release's stack, the channels kept
  CHECK(calibrate::as_run(test::instance("p4d.24xlarge"), log).nccl_channels == 6);
  CHECK(calibrate::log_choice(log).why.find("6 coll channels") != std::string::npos);
  log.environment = calibrate::environment_lines({"h:1:2 [0] NCCL INFO 32 coll channels, 0 nvls channels"});
  CHECK(*calibrate::log_channels(log) == 32);
  log.environment = "NCCL_PROTO=simple\n";
  CHECK_FALSE(calibrate::log_channels(log));
  CHECK(calibrate::as_run(test::instance("p4d.24xlarge"), log).nccl_channels == 0);
}

// What the user states (--software, or a scenario's software section) wins over what the log says:
// TransportSpec records each stated key, and take_log_software leaves those alone.
TEST_CASE("a channel count or NCCL_BUFFSIZE the user states is kept over the log's")
{
  calibrate::NcclLog log;
  log.environment = "NCCL_BUFFSIZE=8388608\n" + calibrate::environment_lines({"h:1:2 [0] NCCL INFO 6 coll channels, 8 p2p channels"});
  const NicSpec nic = test::instance("p4d.24xlarge").nic;
  TransportSpec from_log;
  const calibrate::LogSoftware took = calibrate::take_log_software(log, nic, from_log);
  CHECK(took.changed);
  CHECK(from_log.software.nccl_channels == 6);
  CHECK(from_log.software.nccl_buffsize.n == 8388608);
  TransportSpec stated = app::parse_transport_option("--software", "nccl_channels=8,nccl_buffsize=2MiB");
  CHECK(stated.nccl_channels_stated);
  CHECK(stated.nccl_buffsize_stated);
  CHECK_FALSE(calibrate::take_log_software(log, nic, stated).changed);
  CHECK(stated.software.nccl_channels == 8);
  CHECK(stated.software.nccl_buffsize.n == 2 * 1024 * 1024);
  // A key the user did not name is still the log's.
  TransportSpec half = app::parse_transport_option("--software", "nccl_channels=8");
  CHECK_FALSE(half.nccl_buffsize_stated);
  CHECK(calibrate::take_log_software(log, nic, half).changed);
  CHECK(half.software.nccl_channels == 8);
  CHECK(half.software.nccl_buffsize.n == 8388608);
}

// Round 4 session 30: a log whose NCCL connected the nodes over its socket transport did not use
// EFA (no aws-ofi-nccl found or loaded, aws/aws-ofi-nccl #67): the fit prices it so, and says so.
TEST_CASE("a log that ran NCCL's socket transport on an EFA instance is priced over sockets and a plugin log is not")
{
  calibrate::NcclLog log;
  log.environment = calibrate::environment_lines(
      {"ip-10-3-35-83:362:420 [0] NCCL INFO Channel 00 : 15[a01c0] -> 0[101c0] [receive] via NET/Socket/0", "x"});
  CHECK(calibrate::log_ran_sockets(log));
  const InstanceSpec p4d = test::instance("p4d.24xlarge");
  REQUIRE(p4d.nic.gpudirect);
  const InstanceSpec ran = calibrate::as_run(p4d, log);
  CHECK(ran.nic.nccl_sockets_on_efa);
  CHECK_FALSE(ran.nic.gpudirect);  // through host memory, as NCCL's sockets go
  CHECK(calibrate::log_choice(log).why.find("network Socket") != std::string::npos);
  log.nccl_version = "2.10.3";  // a banner too: still sockets
  CHECK(calibrate::as_run(p4d, log).nic.nccl_sockets_on_efa);

  log.environment = calibrate::environment_lines({"h:1:2 [0] NCCL INFO Using network AWS Libfabric",
                                                  "h:1:2 [0] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/AWS Libfabric/0/GDRDMA"});
  CHECK_FALSE(calibrate::log_ran_sockets(log));
  CHECK(calibrate::as_run(p4d, log).nic.gpudirect);
  log.environment = calibrate::environment_lines({"h:1:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>"});  // bootstrap only
  CHECK_FALSE(calibrate::log_ran_sockets(log));
}

// Round 4 session 30: NCCL appends /GDRDMA to a network connection that registers GPU memory with
// the NIC; a GPUDirect instance's log whose plugin connections lack it staged through host memory.
TEST_CASE("a log whose EFA connections lack GDRDMA is priced host-staged and one with it keeps GPUDirect")
{
  calibrate::NcclLog log;
  const InstanceSpec p4d = test::instance("p4d.24xlarge");
  log.environment = calibrate::environment_lines({"h:1:2 [7] NCCL INFO Channel 00 : 7[a01c0] -> 8[101c0] [send] via NET/AWS Libfabric/3"});
  REQUIRE(calibrate::log_gpudirect(log));
  CHECK_FALSE(*calibrate::log_gpudirect(log));
  CHECK_FALSE(calibrate::as_run(p4d, log).nic.gpudirect);
  CHECK(calibrate::log_choice(log).why.find("without /GDRDMA") != std::string::npos);
  log.environment += "h:1:2 [0] NCCL INFO Channel 00 : 15[a01c0] -> 0[101c0] [receive] via NET/AWS Libfabric/0/GDRDMA\n";
  CHECK(*calibrate::log_gpudirect(log));
  CHECK(calibrate::as_run(p4d, log).nic.gpudirect);
  log.environment = "NCCL_PROTO=simple\n";  // nothing said: the catalog's
  CHECK_FALSE(calibrate::log_gpudirect(log));
  CHECK(calibrate::as_run(p4d, log).nic.gpudirect);
}

// Round 4 session 30: NCCL reports a setting it read from the environment in its INFO log ("NCCL
// INFO NCCL_ALGO set by environment to Ring.", src/misc/param.cc); a log that prints those lines
// and not the environment itself (the 2019 p3dn cybertronai log: NCCL_TREE_THRESHOLD) says the same.
TEST_CASE("NCCL's own set-by-environment INFO lines say the choice as the environment lines do")
{
  const std::vector<std::string> lines{"ip-172-31-41-105:1:1 [0] NCCL INFO NCCL_TREE_THRESHOLD set by environment to 0.", "x"};
  CHECK(calibrate::environment_lines(lines) == lines[0] + "\n");
  CHECK(from_env(lines[0], "2.4.6").algorithm == "ring");
  CHECK(from_env("h:1:1 [0] NCCL INFO NCCL_ALGO set by environment to Tree.").algorithm == "tree");
  const calibrate::LogChoice p = from_env("h:1:1 [0] NCCL INFO NCCL_PROTO set by environment to LL128.");
  REQUIRE(p.protocol);
  CHECK(*p.protocol == algo::Protocol::ll128);
  const calibrate::LogChoice t = from_env("h:1:1 [0] NCCL INFO NCCL_TUNER_PLUGIN set by environment to libmy-tuner.so.");
  CHECK(t.tuner == algo::Tuner::nccl);
  CHECK(t.why.find("libmy-tuner.so (not modelled") != std::string::npos);  // the sentence's full stop is not the name's
  CHECK(from_env("h:1:1 [0] NCCL INFO NCCL_TREE_THRESHOLD set by environment to 4194304.").algorithm == "auto");
}

// Round 4 session 31: the readings above on two real logs that print those lines (AWS's
// aws-samples/aws-efa-eks README, 2 x p4d on EKS, NCCL 2.8.3 and 2.9.9): "8 coll channels" and
// every network connection "via NET/AWS Libfabric/<0-3>/GDRDMA". The fit and `collective
// --compare` take the banner's release and the 8 channels, keep GPUDirect, and see no sockets.
TEST_CASE("the aws-efa-eks p4d logs: their banner, 8 channels and GDRDMA connections are read as they ran")
{
  const InstanceSpec p4d = test::instance("p4d.24xlarge");
  for (const char* file : {"p4d_2node_16gpu_allreduce_efa_nccl2.8.3_eks_awsefaeks.txt", "p4d_2node_16gpu_allreduce_efa_nccl2.9.9_eks_awsefaeks.txt"}) {
    INFO(file);
    const calibrate::NcclLog log = calibrate::read_nccl_log(std::string(DDPSIM_SOURCE_DIR) + "/tests/data/" + file);
    CHECK(log.ranks == 16);
    CHECK(log.rows.size() >= 28);
    REQUIRE(calibrate::log_channels(log));
    CHECK(*calibrate::log_channels(log) == 8);
    REQUIRE(calibrate::log_gpudirect(log));
    CHECK(*calibrate::log_gpudirect(log));
    CHECK_FALSE(calibrate::log_ran_sockets(log));
    const InstanceSpec ran = calibrate::as_run(p4d, log);
    CHECK(ran.nccl_channels == 8);
    CHECK(ran.nic.gpudirect);
    CHECK_FALSE(ran.nic.nccl_sockets_on_efa);
    CHECK(ran.nccl.major == 2);
    CHECK(ran.nccl.minor == (std::string(file).find("2.8.3") != std::string::npos ? 8 : 9));
  }
}
