#include "algorithms/allreduce_sharp.hpp"

#include "algorithms/common.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

struct Send {
  VertexId src, dst;
  Bytes bytes;
};
struct Stage {
  std::string name;
  std::vector<std::vector<Send>> steps;
};

std::size_t chunk_at(std::size_t r, std::size_t k, std::size_t p) { return (r + p - k % p) % p; }

void ring_steps(std::vector<std::vector<Send>>& into, const std::vector<VertexId>& ring,
                const std::vector<Bytes>& chunks, std::size_t first, std::size_t nsteps)
{
  const std::size_t p = ring.size();
  if (into.size() < nsteps) into.resize(nsteps);
  for (std::size_t k = 0; k < nsteps; ++k)
    for (std::size_t r = 0; r < p; ++r)
      into[k].push_back({ring[r], ring[(r + 1) % p], chunks[chunk_at(r, first + k, p)]});
}

std::vector<Stage> plan(const Request& req)
{
  const auto nodes = ranks_by_node(req);
  const std::size_t n = nodes.size(), g = nodes.front().size();
  for (const auto& node : nodes) DDPSIM_CHECK(node.size() == g, "sharp needs the same GPU count per node");
  const std::vector<Bytes> shard = split_even(req.bytes, g);
  Stage rs{"intra-node reduce-scatter", {}}, net{"switch reduction", {}}, ag{"intra-node all-gather", {}};
  if (g > 1)
    for (const auto& node : nodes) {
      ring_steps(rs.steps, node, shard, 0, g - 1);
      ring_steps(ag.steps, node, shard, g - 1, g - 1);
    }
  if (n > 1) {
    // After the ring reduce-scatter local position i owns shard (i + 1) mod G; GPUs sharing a
    // NIC send their shards as one flow (nic_groups). One step: up to the switch and back.
    net.steps.resize(1);
    for (const auto& group : nic_groups(req, nodes.front())) {
      Bytes bytes;
      for (std::size_t i : group) bytes += shard[(i + 1) % g];
      for (std::size_t m = 0; m < n; ++m) net.steps[0].push_back({nodes[m][group.front()], nodes[(m + 1) % n][group.front()], bytes});
    }
  }
  std::vector<Stage> out;
  for (Stage* s : {&rs, &net, &ag})
    if (!s->steps.empty()) out.push_back(std::move(*s));
  return out;
}

}  // namespace

bool SharpAllReduce::available(const Topology& topo) const { return topo.fabric().in_network_reduction; }

StepSchedule SharpAllReduce::steps(const Request& req) const
{
  check_request(req, *this);
  StepBuilder b(req);
  for (const Stage& stage : plan(req))
    for (const auto& step : stage.steps) {
      for (const Send& s : step) b.send(s.src, s.dst, s.bytes, Bytes{0});  // load only: not data-checked (docs/algorithms.md)
      b.next_step();
    }
  return b.build();
}

CoarseSchedule SharpAllReduce::phases(const Request& req) const
{
  check_request(req, *this);
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  for (const Stage& stage : plan(req)) {
    PhaseBuilder ph(req, stage.name, static_cast<int>(stage.steps.size()));
    for (const auto& step : stage.steps)
      for (const Send& s : step) ph.send(s.src, s.dst, s.bytes);
    c.phases.push_back(ph.build());
  }
  return c;
}

HopCount SharpAllReduce::latency_hops(const Request& req) const
{
  check_request(req, *this);
  const auto nodes = ranks_by_node(req);
  const int g = static_cast<int>(nodes.front().size());
  return HopCount{2 * (g - 1), nodes.size() > 1 ? 2 : 0};
}

}  // namespace ddpsim::algo
