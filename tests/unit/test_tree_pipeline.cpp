// A Simple tree's chunk fill (sim/network/tree_pipeline.hpp) and NCCL_BUFFSIZE, which sizes its
// chunk: a scenario key, a --software key and a log's environment (round 4 session 12, issue 18).
#include <catch2/catch.hpp>

#include "support.hpp"

#include "app/input/scenario_loader.hpp"
#include "app/input/transport_loader.hpp"
#include "calibrate/log_env.hpp"
#include "sim/network/backends.hpp"
#include "sim/network/collective_model.hpp"
#include "topology/transport.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {
// The price of NCCL's tree all-reduce with `protocol` on `nodes` x `name`, NCCL_BUFFSIZE `buffsize`
// and NCCL release `nccl`, timed alone on the analytical backend.
double tree_us(const char* name, int nodes, std::uint64_t bytes, algo::Protocol protocol, std::uint64_t buffsize,
               Version nccl = kDefaultNccl)
{
  InstanceSpec inst = test::instance(name);
  TransportSpec t;
  t.software.nccl = nccl;
  t.software.nccl_buffsize = Bytes{buffsize};
  apply_transport(inst, t);
  const Topology topo(inst, nodes, inst.gpus);
  CollectiveOptions o;
  o.algorithm = "tree";
  o.protocol = protocol;
  const CollectiveModel model(topo, o);
  const auto net = make_backend(EngineKind::analytical, topo);
  return time_alone_us(model.price(algo::CollectiveOp::all_reduce, Bytes{bytes}), *net);
}
}  // namespace

TEST_CASE("a Simple tree across nodes forwards whole chunks of NCCL_BUFFSIZE / 8: its pipeline fill")
{
  using algo::Protocol;
  const std::uint64_t mib4 = 4 * MiB, mib8 = 8 * MiB;
  // p4de (Simple only under aws-ofi-nccl), 2 nodes, 4 MiB: each of the 4 channels carries one
  // 1 MiB chunk; with 8 MiB of buffer (the awsome scripts' NCCL_BUFFSIZE) it is one chunk through
  // all 16 hops, with 4 MiB two chunks of 512 KiB: less fill, a shorter time.
  const double big = tree_us("p4de.24xlarge", 2, 4 * MiB, Protocol::simple, mib8);
  const double small = tree_us("p4de.24xlarge", 2, 4 * MiB, Protocol::simple, mib4);
  CHECK(big > small * 1.2);
  // The fill is the first chunk's: it stops growing once a channel has a whole chunk, so at 2 GiB
  // (512 chunks of 1 MiB per channel) the buffer size no longer matters beyond 1 %.
  CHECK(tree_us("p4de.24xlarge", 2, 2 * GiB, Protocol::simple, mib8) ==
        Approx(tree_us("p4de.24xlarge", 2, 2 * GiB, Protocol::simple, mib4)).epsilon(0.01));
  // Never below NCCL's own treeCorrectionFactor price, and never shorter for more bytes.
  double last = 0;
  for (std::uint64_t b = 4 * KiB; b <= GiB; b *= 2) {
    const double t = tree_us("p4de.24xlarge", 2, b, Protocol::simple, mib8);
    INFO("bytes=" << b);
    CHECK(t >= last);
    last = t;
  }
  // LL and LL128 forward each line as it arrives: the buffer size changes nothing.
  CHECK(tree_us("dgx-a100", 2, 16 * MiB, Protocol::ll128, mib8) == tree_us("dgx-a100", 2, 16 * MiB, Protocol::ll128, mib4));
  // One node: no network hop, no NCCL tree pipeline priced.
  CHECK(tree_us("p4de.24xlarge", 1, 16 * MiB, Protocol::simple, mib8) ==
        tree_us("p4de.24xlarge", 1, 16 * MiB, Protocol::simple, mib4));
  // Before NCCL 2.20.3 the chunk was halved until each channel had depth x 8 of them (down to
  // 128 KiB): at 4 MiB a 2.19 tree carries 128 KiB chunks and fills far less than 2.20's 1 MiB.
  CHECK(tree_us("p4de.24xlarge", 2, 4 * MiB, Protocol::simple, mib8, Version{2, 19, 3}) < big * 0.8);
}

TEST_CASE("NCCL_BUFFSIZE: a scenario key, a --software key and a log's environment")
{
  const std::string base = "name: t\ncluster:\n  instance: p4de.24xlarge\n  nodes: 2\n"
                           "model:\n  preset: resnet50\ntraining:\n  framework: pytorch-ddp\n  batch_per_gpu: 32\n  steps: 10\n";
  CHECK(app::parse_scenario("s.yaml", base, test::catalog()).cluster.instance.nccl_buffsize.n == 4 * MiB);
  CHECK(app::parse_scenario("s.yaml", base + "software:\n  nccl_buffsize: 8MiB\n", test::catalog()).cluster.instance.nccl_buffsize.n ==
        8 * MiB);
  CHECK_THROWS_WITH(app::parse_scenario("s.yaml", base + "software:\n  nccl_buffsize: 16KiB\n", test::catalog()),
                    Catch::Contains("s.yaml:12") && Catch::Contains("software.nccl_buffsize") && Catch::Contains("64KiB..1GiB"));
  CHECK(app::parse_transport_option("--software", "nccl_buffsize=8M").software.nccl_buffsize.n == 8 * MiB);
  CHECK_THROWS_WITH(app::parse_transport_option("--software", "nccl_buffsize=lots"), Catch::Contains("--software"));
  CHECK_THROWS_WITH(app::parse_transport_option("--software", "nccl_buffsize=2G"), Catch::Contains("64KiB..1GiB"));
  // A log's environment, as a script prints it or as NCCL's INFO line says it.
  calibrate::NcclLog log;
  log.environment = "# ENV: FI_PROVIDER=efa NCCL_BUFFSIZE=8388608 NCCL_P2P_NET_CHUNKSIZE=524288\n";
  REQUIRE(calibrate::log_buffsize(log));
  CHECK(calibrate::log_buffsize(log)->n == 8 * MiB);
  log.environment = "ip-10-1-2-3:123:123 [0] NCCL INFO NCCL_BUFFSIZE set by environment to 2097152.\n";
  REQUIRE(calibrate::log_buffsize(log));
  CHECK(calibrate::log_buffsize(log)->n == 2 * MiB);
  CHECK(calibrate::as_run(test::instance("p4de.24xlarge"), log).nccl_buffsize.n == 2 * MiB);
  log.environment = "NCCL_PROTO=simple\n";
  CHECK_FALSE(calibrate::log_buffsize(log));
  CHECK(calibrate::environment_lines({"x", "export NCCL_BUFFSIZE=8388608", "NCCL INFO NCCL_BUFFSIZE set by environment to 1"}) ==
        "export NCCL_BUFFSIZE=8388608\nNCCL INFO NCCL_BUFFSIZE set by environment to 1\n");
}

TEST_CASE("a log's NCCL_BUFFSIZE outside 64KiB..1GiB is refused where the log is read, with its line")
{
  // parse_nccl_log checks it, so `collective --compare`, `calibrate fit` (as_run) and
  // `expect --check` refuse it alike (they took any value before round 4 session 13).
  const std::string table = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                            "     1048576        262144     float     sum      -1    100.0   10.49   19.66      0    100.0   10.49   19.66      0\n";
  CHECK(calibrate::log_buffsize(calibrate::parse_nccl_log("ok.txt", "# NCCL_BUFFSIZE=8388608\n" + table))->n == 8 * MiB);
  CHECK(calibrate::log_buffsize(calibrate::parse_nccl_log("edge.txt", "# NCCL_BUFFSIZE=65536\n" + table))->n == 64 * KiB);
  CHECK_THROWS_WITH(calibrate::parse_nccl_log("small.txt", "# x\n# ENV: NCCL_BUFFSIZE=4096\n" + table),
                    Catch::Contains("small.txt:2:") && Catch::Contains("NCCL_BUFFSIZE 4096") && Catch::Contains("64KiB..1GiB"));
  CHECK_THROWS_WITH(calibrate::parse_nccl_log("info.txt", "h:1:1 [0] NCCL INFO NCCL_BUFFSIZE set by environment to 2147483648.\n" + table),
                    Catch::Contains("info.txt:1:") && Catch::Contains("out of range"));
  CHECK_THROWS_WITH(calibrate::parse_nccl_log("huge.txt", "NCCL_BUFFSIZE=99999999999999999999999\n" + table),
                    Catch::Contains("huge.txt:1:"));
}
