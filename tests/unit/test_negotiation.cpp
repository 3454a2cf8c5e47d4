// Horovod's negotiation priced by the CollectiveModel (issue 17, item 4): one bit-vector AND per
// cycle, recursive doubling between the host processes (sim/step/framework_comm.hpp), and the
// recursive-doubling schedule itself (algorithms/allreduce_rd.hpp).
#include <catch2/catch.hpp>

#include "support.hpp"

#include "algorithms/registry.hpp"
#include "sim/step/framework_comm.hpp"
#include "topology/rings.hpp"
#include "topology/routing.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

TEST_CASE("negotiation: Horovod's bit vector is one bit per tensor plus 4 status bits, in 64-bit words")
{
  CHECK(horovod_bit_vector(0).n == 8);
  CHECK(horovod_bit_vector(60).n == 8);    // 64 bits
  CHECK(horovod_bit_vector(61).n == 16);   // 65 bits: a second word
  CHECK(horovod_bit_vector(314).n == 40);  // ResNet-101's 314 tensors: 5 words
}

TEST_CASE("negotiation: recursive doubling sends the whole buffer to one partner per step")
{
  const Topology topo(test::instance("p4d.24xlarge"), 1, 6);
  const algo::Algorithm& rd = algo::Registry::instance().get("rd");
  CHECK_FALSE(rd.nccl_selectable());  // never NCCL's choice: only run when named
  const algo::Request req{algo::CollectiveOp::all_reduce, Bytes{1000}, &topo, ring_order(topo), {}, 1, nullptr};
  const algo::CoarseSchedule c = rd.phases(req);
  // 6 ranks: 2 fold into the 4 active ones, log2 4 = 2 exchanges, 2 results back.
  REQUIRE(c.phases.size() == 4);
  CHECK(c.phases[0].flows.size() == 2);
  CHECK(c.phases[1].flows.size() == 4);
  CHECK(c.phases[3].flows.size() == 2);
  for (const algo::Phase& p : c.phases)
    for (const algo::Flow& f : p.flows) CHECK(f.bytes.n == 1000);
}

TEST_CASE("negotiation: one AND per cycle, in-node rounds pay the TCP message, the network round its route")
{
  const InstanceSpec& inst = test::instance("p4d.24xlarge");  // 2 sockets, 8 GPUs
  const Time tcp = Time::from_us(20);
  const Topology one(inst, 1, 8), two(inst, 2, 8);
  const Time t1 = horovod_negotiation(one, 314, tcp), t2 = horovod_negotiation(two, 314, tcp);
  // One node: log2 8 = 3 rounds; rank r XOR 1 sits on the other socket (one socket-to-socket
  // route), r XOR 2 and r XOR 4 on the same one (a copy through host memory). The 40 bytes
  // themselves take well under 0.1 us on any of these links.
  const Time socket_hop = Router(one).route(one.cpu(0, 0), one.cpu(0, 1)).latency;
  CHECK(t1.us() == Approx((tcp * 3 + socket_hop).us()).margin(0.1));
  // Two nodes: one more round, across the network: the NIC's latency and a TCP message at least.
  const Time network_hop = Router(two).route(two.cpu(0, 0), two.cpu(1, 0)).latency;
  CHECK(network_hop >= inst.nic.latency);
  CHECK((t2 - t1).us() == Approx((tcp + network_hop).us()).margin(0.1));
  // Half the former closed form's AND + OR at one node (2 x 3 x 20 us).
  CHECK(t1.us() < 0.6 * 120);
  // One rank alone negotiates with nobody.
  CHECK(horovod_negotiation(Topology(inst, 1, 1), 314, tcp) == Time{0});
}

TEST_CASE("negotiation: host ranks alternate sockets within each node")
{
  const Topology topo(test::instance("p4d.24xlarge"), 2, 4);
  const std::vector<VertexId> hosts = host_ranks(topo, algo::all_gpus(topo));
  REQUIRE(hosts.size() == 8);
  CHECK(hosts[0] == topo.cpu(0, 0));
  CHECK(hosts[1] == topo.cpu(0, 1));
  CHECK(hosts[2] == topo.cpu(0, 0));
  CHECK(hosts[4] == topo.cpu(1, 0));
}
