#include "app/input/scenario_checks.hpp"

#include <algorithm>
#include <string>

#include "algorithms/registry.hpp"
#include "sim/network/collective_model.hpp"
#include "topology/topology.hpp"

namespace ddpsim::app {

void check_cross_fields(Reader& r, const YAML::Node& root, const sim::ScenarioSpec& s)
{
  // Gloo implements ring and halving-doubling all-reduces on host ranks (gloo/allreduce_ring.h,
  // allreduce_halving_doubling.h); NCCL's, SMDDP's and the switches' algorithms do not apply
  // (issue 21: herring with gloo ended in an internal error, "route from a device to itself").
  const std::string& algorithm = s.communication.algorithm;
  const bool gloo = s.training.framework == sim::Framework::gloo ||
                    std::count(s.training.compare.begin(), s.training.compare.end(), sim::Framework::gloo) > 0;
  if (gloo && algorithm != "auto" && algorithm != "ring" && algorithm != "rhd")
    r.error(root["communication"]["algorithm"], "communication.algorithm",
            "\"" + algorithm + "\" does not run on Gloo, which implements ring and rhd (halving-doubling) only");

  // NCCL's releases (docs/model.md): an algorithm or protocol that software.nccl does not have is
  // refused at its key, before anything is priced.
  // Only on a scenario read without errors: a missing or refused cluster.instance leaves an
  // instance with no links to build a topology from (fuzz_scenario, 2026-11-28).
  if (!sim::uses_nccl(s) || !r.ok()) return;
  const YAML::Node comm = root["communication"];
  const InstanceSpec& inst = s.cluster.instance;
  const YAML::Node software = root["software"];
  const bool dated = software.IsDefined() && software.IsMap() && software["as_of"].IsDefined();
  const std::string release = "NCCL " + to_string(inst.nccl) + (dated ? " (software.nccl or software.as_of)" : " (software.nccl)");
  if (const algo::Algorithm* a = algo::Registry::instance().find(algorithm); a && a->nccl_selectable())
    for (int nodes : {1, 2}) {  // what a release runs differs between one node and several
      if (std::none_of(s.cluster.nodes.begin(), s.cluster.nodes.end(), [&](int n) { return std::min(n, 2) == nodes; })) continue;
      const Topology topo(inst, nodes, inst.gpus);
      if (!a->available(topo) || sim::nccl_runs(*a, topo)) continue;
      const char* key = comm["nccl_algo"] ? "nccl_algo" : "algorithm";
      r.error(comm[key], std::string("communication.") + key,
              sim::nccl_lacks(release, algorithm + (nodes > 1 ? " across nodes" : ""), a->nccl_since(topo)));
      break;
    }
  if (s.communication.protocol && algo::nccl_since(*s.communication.protocol) > inst.nccl)
    r.error(comm["nccl_proto"], "communication.nccl_proto",
            sim::nccl_lacks(release, std::string(algo::to_string(*s.communication.protocol)), algo::nccl_since(*s.communication.protocol)));
}

}  // namespace ddpsim::app
