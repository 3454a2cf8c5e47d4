#include "sim/step/framework_comm.hpp"

#include <map>

#include "core/error.hpp"
#include "topology/rings.hpp"

namespace ddpsim::sim {
namespace {

// Gloo's ring puts neighbours on different sockets (two on one would talk through no link).
void check_gloo_ring(const std::vector<VertexId>& hosts)
{
  for (std::size_t i = 0; hosts.size() > 1 && i < hosts.size(); ++i)
    if (hosts[i] == hosts[(i + 1) % hosts.size()])
      throw UserError(SourceLocation{}, "cluster.gpus_per_node", "gloo: ranks " + std::to_string(i) + " and " + std::to_string((i + 1) % hosts.size()) +
                      " would share a CPU socket in the ring; use an even gpus_per_node");
}

}  // namespace

std::vector<VertexId> host_ranks(const Topology& topo, const std::vector<VertexId>& gpu_ranks)
{
  std::vector<VertexId> out;
  const int sockets = topo.instance().cpu_sockets;
  std::map<int, int> position;  // next position in the rank order, per node
  for (VertexId g : gpu_ranks) {
    const int node = topo.device(g).node;
    out.push_back(topo.cpu(node, position[node]++ % sockets));
  }
  return out;
}

Bytes horovod_bit_vector(std::size_t tensors)
{
  constexpr std::size_t kStatusBits = 4, kWordBits = 64;  // response_cache.h StatusBit; long long
  return Bytes{(tensors + kStatusBits + kWordBits - 1) / kWordBits * (kWordBits / 8)};
}

Time horovod_negotiation(const Topology& topo, std::size_t tensors, Time tcp_message)
{
  CollectiveOptions o;  // the catalog alone: a profile is fitted to NCCL's collectives, not MPI's
  o.algorithm = "rd";
  o.nccl = false;
  o.ranks = host_ranks(topo, ring_order(topo));
  o.software.intra_step = tcp_message;
  o.software.inter_step = tcp_message;
  o.channels = 1;
  const CollectiveModel model(topo, std::move(o));
  AnalyticalBackend timer(topo);  // one small message alone: no other traffic to share links with
  return timer.duration(model.price(algo::CollectiveOp::all_reduce, horovod_bit_vector(tensors)).schedule);
}

FrameworkComm framework_comm(Framework f, const Topology& topo, const std::string& algorithm, const Profile& profile,
                             Time gloo_step_overhead)
{
  FrameworkComm fc;
  fc.collective.profile = profile;
  const std::string_view forced = forced_algorithm(f);
  fc.collective.algorithm = forced.empty() ? algorithm : std::string(forced);
  fc.collective.nccl = backend_of(f) == "nccl";
  if (f == Framework::gloo) {
    if (fc.collective.algorithm == "auto") fc.collective.algorithm = "ring";  // Gloo's ring all-reduce
    fc.staged_from = ring_order(topo);
    fc.collective.ranks = host_ranks(topo, fc.staged_from);
    check_gloo_ring(fc.collective.ranks);
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
  return f == Framework::lightning ? lightning_overhead : Time{0};
}

std::vector<std::string> framework_warnings(Framework f, const InstanceSpec& inst)
{
  if (f == Framework::smddp && !inst.smddp_supported)
    return {"SMDDP does not list " + inst.name + " as supported (`ddpsim catalog` marks the instances it lists)"};
  return {};
}

}  // namespace ddpsim::sim
