#include "sim/step/framework_comm.hpp"

#include <map>

#include "core/error.hpp"
#include "topology/rings.hpp"

namespace ddpsim::sim {
namespace {

std::vector<VertexId> gloo_ranks(const Topology& topo, const std::vector<VertexId>& gpu_ranks)
{
  std::vector<VertexId> out;
  const int sockets = topo.instance().cpu_sockets;
  std::map<int, int> position;  // next position in the ring, per node
  for (VertexId g : gpu_ranks) {
    const int node = topo.device(g).node;
    out.push_back(topo.cpu(node, position[node]++ % sockets));
  }
  for (std::size_t i = 0; out.size() > 1 && i < out.size(); ++i)
    if (out[i] == out[(i + 1) % out.size()])
      throw UserError(SourceLocation{}, "cluster.gpus_per_node", "gloo: ranks " + std::to_string(i) + " and " + std::to_string((i + 1) % out.size()) +
                      " would share a CPU socket in the ring; use an even gpus_per_node");
  return out;
}

}  // namespace

FrameworkComm framework_comm(Framework f, const Topology& topo, const std::string& algorithm, const Profile& profile,
                             Time gloo_step_overhead)
{
  FrameworkComm fc;
  fc.collective.profile = profile;
  const std::string_view forced = forced_algorithm(f);
  fc.collective.algorithm = forced.empty() ? algorithm : std::string(forced);
  fc.collective.nccl = backend_of(f) == "nccl";
  if (traits(f).host_ring) {
    if (fc.collective.algorithm == "auto") fc.collective.algorithm = "ring";  // Gloo's ring all-reduce
    fc.staged_from = ring_order(topo);
    fc.collective.ranks = gloo_ranks(topo, fc.staged_from);
    fc.collective.software.intra_step = gloo_step_overhead;
    fc.collective.software.inter_step = gloo_step_overhead;
    fc.collective.channels = 1;
  }
  return fc;
}

PricedCollective framework_reduce(const FrameworkComm& fc, const CollectiveModel& model, Bytes bytes)
{
  PricedCollective p = model.price(algo::CollectiveOp::all_reduce, bytes);
  if (fc.staged_from.empty() || bytes.n == 0) return p;
  const std::vector<VertexId>& hosts = model.ranks();
  algo::Phase down{"gpu to host", {}, 1}, up{"host to gpu", {}, 1};
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    down.flows.push_back({algo::TaskKind::send, fc.staged_from[i], hosts[i], bytes, Time{0}});
    up.flows.push_back({algo::TaskKind::send, hosts[i], fc.staged_from[i], bytes, Time{0}});
  }
  p.schedule.phases.insert(p.schedule.phases.begin(), std::move(down));
  p.schedule.phases.push_back(std::move(up));
  return p;
}

Time framework_step_overhead(Framework f, Time lightning_overhead)
{
  return traits(f).lightning_overhead ? lightning_overhead : Time{0};
}

std::vector<std::string> framework_warnings(Framework f, const InstanceSpec& inst)
{
  if (f == Framework::smddp && !inst.smddp_supported)
    return {"SMDDP does not list " + inst.name + " as supported (`ddpsim catalog` marks the instances it lists)"};
  return {};
}

}  // namespace ddpsim::sim
