#include "algorithms/allreduce_hierarchical.hpp"

#include <deque>

#include "algorithms/common.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

std::size_t chunk_at(std::size_t r, std::size_t k, std::size_t p) { return (r + p - k % p) % p; }

// A send and the data it carries (chunk ranges live in the plan's table; computed once per ring).
struct Send {
  VertexId src, dst;
  Bytes bytes;
  const std::vector<ByteRange>* data;
};
struct Stage {
  std::string name;
  std::vector<std::vector<Send>> steps;
};
struct Plan {
  std::vector<Stage> stages;
  std::deque<std::vector<ByteRange>> ranges;  // stable addresses for Send::data
};

// A ring over `ring` moving `chunks` (one per position, carrying `data[i]`) for `nsteps` steps.
std::vector<std::vector<Send>> ring_steps(const std::vector<VertexId>& ring, const std::vector<Bytes>& chunks,
                                          const std::vector<const std::vector<ByteRange>*>& data,
                                          std::size_t first_step, std::size_t nsteps)
{
  std::vector<std::vector<Send>> out;
  const std::size_t p = ring.size();
  for (std::size_t k = first_step; k < first_step + nsteps; ++k) {
    std::vector<Send> step;
    for (std::size_t r = 0; r < p; ++r) {
      const std::size_t c = chunk_at(r, k, p);
      step.push_back({ring[r], ring[(r + 1) % p], chunks[c], data[c]});
    }
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

Plan plan(const Request& req)
{
  const auto nodes = ranks_by_node(req);
  const std::size_t n = nodes.size(), g = nodes.front().size();
  for (const auto& node : nodes) DDPSIM_CHECK(node.size() == g, "hierarchical needs the same GPU count per node");
  const std::vector<Bytes> shard = split_even(req.bytes, g);
  const std::vector<Bytes> shard_at = offsets_of(shard);
  Plan out;
  std::vector<const std::vector<ByteRange>*> shard_data;
  for (std::size_t i = 0; i < g; ++i) shard_data.push_back(&out.ranges.emplace_back(std::vector<ByteRange>{{shard_at[i], shard[i]}}));
  if (g > 1) {
    Stage rs{"intra-node reduce-scatter", {}}, ag{"intra-node all-gather", {}};
    for (const auto& node : nodes) {
      merge(rs.steps, ring_steps(node, shard, shard_data, 0, g - 1));
      merge(ag.steps, ring_steps(node, shard, shard_data, g - 1, g - 1));
    }
    out.stages.push_back(rs);
    out.stages.push_back(ag);
  }
  if (n > 1) {
    // After the ring reduce-scatter, local position i owns shard (i + 1) mod G.
    // GPUs sharing a NIC send their shards as one flow from the first of them (nic_groups): a
    // drawing of the NIC's load, whose data the first GPU does not hold when the group has more
    // than one GPU (docs/algorithms.md, "Data-level check").
    Stage inter{"inter-node all-reduce", {}};
    for (const auto& group : nic_groups(req, nodes.front())) {
      std::vector<VertexId> ring;
      for (const auto& node : nodes) ring.push_back(node[group.front()]);
      Bytes bytes;
      std::vector<ByteRange> held;
      for (std::size_t i : group) {
        bytes += shard[(i + 1) % g];
        held.push_back({shard_at[(i + 1) % g], shard[(i + 1) % g]});
      }
      const std::vector<Bytes> chunks = split_even(bytes, n);
      std::vector<const std::vector<ByteRange>*> data;
      for (auto& part : cut_ranges(held, chunks)) data.push_back(&out.ranges.emplace_back(std::move(part)));
      merge(inter.steps, ring_steps(ring, chunks, data, 0, 2 * (n - 1)));
    }
    out.stages.insert(out.stages.begin() + (g > 1 ? 1 : 0), inter);
  }
  return out;
}

}  // namespace

StepSchedule HierarchicalAllReduce::steps(const Request& req) const
{
  check_request(req, *this);
  StepBuilder b(req);
  const Plan p = plan(req);
  for (const Stage& stage : p.stages)
    for (const auto& step : stage.steps) {
      for (const Send& s : step) b.send(s.src, s.dst, *s.data);
      b.next_step();
    }
  return b.build();
}

CoarseSchedule HierarchicalAllReduce::phases(const Request& req) const
{
  check_request(req, *this);
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  for (const Stage& stage : plan(req).stages) {
    PhaseBuilder ph(req, stage.name, static_cast<int>(stage.steps.size()));
    for (const auto& step : stage.steps)
      for (const Send& s : step) ph.send(s.src, s.dst, s.bytes);
    c.phases.push_back(ph.build());
  }
  return c;
}

}  // namespace ddpsim::algo
