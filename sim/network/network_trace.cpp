#include "sim/network/network_trace.hpp"

#include <set>

namespace ddpsim::sim {

void record_phase(Timeline& timeline, const Topology& topo, const Router& router, const CollectiveJob& job,
                  const algo::Phase& phase, Time start, Time end)
{
  std::set<LinkClass> classes;
  std::uint64_t bytes = 0;
  for (const algo::Flow& f : phase.flows) {
    if (topo.device(f.src).node != 0) continue;
    bytes += f.bytes.n;
    if (f.kind != algo::TaskKind::send) continue;
    for (EdgeId e : router.route(f.src, f.dst).links) classes.insert(topo.link(e).cls);
  }
  for (LinkClass c : classes)
    timeline.add({0, -1, Stream::link, std::string(to_string(c)), job.label + " " + phase.name, start, end,
                  {{"bucket", job.label}, {"phase", phase.name}, {"node0_bytes", std::to_string(bytes)},
                   {"flows", std::to_string(phase.flows.size())}}});
}

}  // namespace ddpsim::sim
