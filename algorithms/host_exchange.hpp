// Building blocks shared by the host-side algorithms (Herring, the classic parameter server): a
// schedule made of stages run one after another, built at both granularities at once so they
// agree by construction. A stage is a set of lanes running in parallel; a lane is a sequence of
// transfers run one after another (rounds). Coarse: one flow per lane carrying the lane's bytes,
// paying `rounds` latencies. Steps: one task per transfer, chained within its lane, with a
// zero-cost barrier between stages.
// Host servers: the CPU sockets of each node, striped: a node uses min(sockets, NICs) server
// sockets, so that every stripe leaves through its own NIC (topology/routing: socket s uses NIC
// s x NICs / sockets). More stripes would share a NIC, which the analytical backend cannot see.
#pragma once

#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

struct Transfer {
  TaskKind kind = TaskKind::send;
  VertexId src = 0, dst = 0;
  Bytes bytes;
  Time overhead{0};
  std::vector<ByteRange> data;  // the buffer ranges a send carries (lengths sum to bytes)
};
using Lane = std::vector<Transfer>;

class StagedSchedule {
 public:
  // `with_steps` false builds only the coarse schedule (the training model needs only that).
  StagedSchedule(const Request& req, bool with_steps);

  // GPUs of each node in rank order, and the node count.
  const std::vector<std::vector<VertexId>>& local() const { return local_; }
  int nodes() const { return static_cast<int>(local_.size()); }
  int stripes() const { return stripes_; }
  // The server socket stripe s of `node`.
  VertexId server(int node, int stripe) const;
  // The stripe that serves local GPU j.
  int stripe_of(std::size_t j) const;
  Time step_overhead(VertexId a, VertexId b) const;

  // A ring reduce-scatter or all-gather over each node's GPUs, all nodes in parallel.
  void add_local_ring(CollectiveOp op);
  // Lanes must all have the same number of transfers (the phase's step count). The coarse form
  // is one flow per lane (its bytes on the route of its first transfer) or, with `per_round`,
  // one phase per round with every transfer on its own route.
  // `on_host`: the stage runs in the host servers (Phase::on_host), not on the GPUs' stream.
  void add_stage(const std::string& name, const std::vector<Lane>& lanes, bool per_round = false, bool on_host = false);
  // An all-to-all exchange between the nodes' stripe-s servers: node n sends `bytes_to(n, m, s)`
  // (the ranges `data_to(n, m, s)`, asked only when steps are built) to node m for every m != n,
  // every stripe in parallel, either in N-1 rounds (round k: n -> n+k) or `at_once` (every
  // transfer starts together and they share the NICs: a sender that posts to all peers before
  // waiting, as ps-lite's KVWorker does). Up to kRoundsMax rounds the coarse form keeps each
  // transfer on its own route (routes matter on a leaf/spine fabric, and a per-connection cap
  // binds each transfer alone); beyond, rounds with one flow per lane (N(N-1) flows per exchange
  // would cost too much), `at_once` included.
  static constexpr int kRoundsMax = 64;
  enum class Order { rounds, at_once };
  template <class F, class D>
  void add_exchange(const std::string& name, F&& bytes_to, D&& data_to, Order order = Order::rounds);

  StepSchedule take_steps() { return std::move(steps_); }
  CoarseSchedule take_phases() { return std::move(coarse_); }

 private:
  Request req_;
  bool with_steps_;
  std::vector<std::vector<VertexId>> local_;
  int stripes_ = 1;
  StepSchedule steps_;
  CoarseSchedule coarse_;
  std::vector<std::uint32_t> frontier_;  // tasks the next stage waits for
  void barrier();
};

// Both granularities of a staged algorithm from one `build(req, schedule)` function, so the
// step DAG and the coarse phases can never describe different stages.
template <class Build>
StepSchedule staged_steps(const Request& req, Build&& build)
{
  StagedSchedule s(req, /*with_steps=*/true);
  build(req, s);
  return s.take_steps();
}

template <class Build>
CoarseSchedule staged_phases(const Request& req, Build&& build)
{
  StagedSchedule s(req, /*with_steps=*/false);
  build(req, s);
  return s.take_phases();
}

template <class F, class D>
void StagedSchedule::add_exchange(const std::string& name, F&& bytes_to, D&& data_to, Order order)
{
  const int n = nodes();
  if (n < 2) return;
  const bool at_once = order == Order::at_once && n - 1 <= kRoundsMax;
  std::vector<Lane> lanes;
  for (int s = 0; s < stripes_; ++s)
    for (int a = 0; a < n; ++a) {
      Lane lane;
      for (int k = 1; k < n; ++k) {
        const int b = (a + k) % n;
        const VertexId src = server(a, s), dst = server(b, s);
        lane.push_back({TaskKind::send, src, dst, bytes_to(a, b, s), step_overhead(src, dst), {}});
        if (with_steps_) lane.back().data = data_to(a, b, s);
        if (at_once) lanes.push_back(std::move(lane)), lane = {};
      }
      if (!at_once) lanes.push_back(std::move(lane));
    }
  add_stage(name, lanes, /*per_round=*/!at_once && n - 1 <= kRoundsMax, /*on_host=*/true);
}

}  // namespace ddpsim::algo
