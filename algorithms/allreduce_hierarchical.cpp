#include "algorithms/allreduce_hierarchical.hpp"

#include "algorithms/common.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

std::size_t chunk_at(std::size_t r, std::size_t k, std::size_t p) { return (r + p - k % p) % p; }

struct Send {
  VertexId src, dst;
  Bytes bytes;
};
struct Stage {
  std::string name;
  std::vector<std::vector<Send>> steps;
};

// A ring over `ring` moving `chunks` (one per position) for `nsteps` steps.
std::vector<std::vector<Send>> ring_steps(const std::vector<VertexId>& ring, const std::vector<Bytes>& chunks,
                                          std::size_t first_step, std::size_t nsteps)
{
  std::vector<std::vector<Send>> out;
  const std::size_t p = ring.size();
  for (std::size_t k = first_step; k < first_step + nsteps; ++k) {
    std::vector<Send> step;
    for (std::size_t r = 0; r < p; ++r) step.push_back({ring[r], ring[(r + 1) % p], chunks[chunk_at(r, k, p)]});
    out.push_back(step);
  }
  return out;
}

// Appends `part`'s steps to `into`, step by step (rings of different nodes run together).
void merge(std::vector<std::vector<Send>>& into, const std::vector<std::vector<Send>>& part)
{
  if (into.size() < part.size()) into.resize(part.size());
  for (std::size_t i = 0; i < part.size(); ++i) into[i].insert(into[i].end(), part[i].begin(), part[i].end());
}

std::vector<Stage> plan(const Request& req)
{
  const auto nodes = ranks_by_node(req);
  const std::size_t n = nodes.size(), g = nodes.front().size();
  for (const auto& node : nodes) DDPSIM_CHECK(node.size() == g, "hierarchical needs the same GPU count per node");
  const std::vector<Bytes> shard = split_even(req.bytes, g);
  std::vector<Stage> out;
  if (g > 1) {
    Stage rs{"intra-node reduce-scatter", {}}, ag{"intra-node all-gather", {}};
    for (const auto& node : nodes) {
      merge(rs.steps, ring_steps(node, shard, 0, g - 1));
      merge(ag.steps, ring_steps(node, shard, g - 1, g - 1));
    }
    out.push_back(rs);
    out.push_back(ag);
  }
  if (n > 1) {
    // After the ring reduce-scatter, local position i owns shard (i + 1) mod G.
    // GPUs sharing a NIC send their shards as one flow from the first of them (nic_groups).
    Stage inter{"inter-node all-reduce", {}};
    for (const auto& group : nic_groups(req, nodes.front())) {
      std::vector<VertexId> ring;
      for (const auto& node : nodes) ring.push_back(node[group.front()]);
      Bytes bytes;
      for (std::size_t i : group) bytes += shard[(i + 1) % g];
      merge(inter.steps, ring_steps(ring, split_even(bytes, n), 0, 2 * (n - 1)));
    }
    out.insert(out.begin() + (g > 1 ? 1 : 0), inter);
  }
  return out;
}

}  // namespace

StepSchedule HierarchicalAllReduce::steps(const Request& req) const
{
  check_request(req, *this);
  StepBuilder b(req);
  for (const Stage& stage : plan(req))
    for (const auto& step : stage.steps) {
      for (const Send& s : step) b.send(s.src, s.dst, s.bytes);
      b.next_step();
    }
  return b.build();
}

CoarseSchedule HierarchicalAllReduce::phases(const Request& req) const
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

}  // namespace ddpsim::algo
