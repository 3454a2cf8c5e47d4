// CollectiveModel::explain: the candidates behind price()'s choice, each priced the same way, and
// who chooses (aws-ofi-nccl's tuner, NCCL's model, or the user's NCCL_ALGO / NCCL_PROTO).
#include "sim/network/collective_model.hpp"

#include "algorithms/registry.hpp"

namespace ddpsim::sim {

CollectiveModel::Explanation CollectiveModel::explain(algo::CollectiveOp op, Bytes bytes) const
{
  Explanation out;
  const bool nccl_chooses = options_.nccl && (!named_ || named_->nccl_selectable());
  if (!nccl_chooses) out.chooser = "the named algorithm (not NCCL: no per-size choice)";
  else if (plugin_choice(op, bytes)) out.chooser = "aws-ofi-nccl's tuner plugin (its region tables)";
  else if (named_ && options_.protocol) out.chooser = "the named algorithm and protocol (NCCL_ALGO, NCCL_PROTO)";
  else if (named_) out.chooser = "NCCL's estimate among the named algorithm's protocols (NCCL_ALGO)";
  else if (options_.protocol && *options_.protocol == algo::Protocol::simple && topo_.instance().nccl_proto_simple)
    out.chooser = "NCCL's estimate among the algorithms, Simple only (aws-ofi-nccl sets NCCL_PROTO=simple here)";
  else if (options_.protocol) out.chooser = "NCCL's estimate among the algorithms (NCCL_PROTO named)";
  else out.chooser = "NCCL's estimate (tuning.cc)";
  std::vector<const algo::Algorithm*> algorithms;
  if (named_) algorithms.push_back(named_);
  else algorithms = nccl_candidates(topo_, op);
  if (algorithms.empty())  // e.g. broadcast: price() takes any registered algorithm that implements it
    for (const auto& a : algo::Registry::instance().all())
      if (a->supports(op) && a->available(topo_)) algorithms.push_back(a.get());
  for (const algo::Algorithm* a : algorithms) {
    if (!options_.nccl || !a->nccl_selectable()) {
      PricedCollective c = plain(*a, op, bytes);
      apply_profile(c, bytes);
      out.candidates.push_back(std::move(c));
      continue;
    }
    for (const algo::Protocol p : options_.protocol ? std::vector<algo::Protocol>{*options_.protocol} : algo::all_protocols()) {
      if (a->nccl_family() == algo::NcclFamily::nvls && p != algo::Protocol::simple) continue;  // as nccl() does
      if (!nccl_runs(p, topo_)) continue;
      PricedCollective c = nccl(*a, op, bytes, p);
      apply_profile(c, bytes);
      out.candidates.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace ddpsim::sim
