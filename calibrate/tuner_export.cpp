#include "calibrate/tuner_export.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "calibrate/collective_sweep.hpp"
#include "calibrate/nccl_tests.hpp"
#include "core/text.hpp"
#include "sim/network/backends.hpp"
#include "sim/network/collective_model.hpp"

namespace ddpsim::calibrate {
namespace {

// ddpsim's names -> the example plugin's (plugin.c parseCollType / parseAlgorithm / parseProtocol).
std::string plugin_collective(algo::CollectiveOp op)
{
  switch (op) {
    case algo::CollectiveOp::all_reduce: return "allreduce";
    case algo::CollectiveOp::all_gather: return "allgather";
    case algo::CollectiveOp::reduce_scatter: return "reducescatter";
    case algo::CollectiveOp::broadcast: return "broadcast";
    case algo::CollectiveOp::reduce: return "reduce";
  }
  return "";
}

// "" for an algorithm the plugin cannot name (it would silently become ring).
std::string plugin_algorithm(std::string_view ddpsim_name, int nodes)
{
  if (ddpsim_name == "ring") return "ring";
  if (ddpsim_name == "tree") return "tree";
  if (ddpsim_name == "nvls") return nodes > 1 ? "nvls_tree" : "nvls";  // NVLSTree across nodes (docs/algorithms.md)
  if (ddpsim_name == "sharp") return "collnet_direct";                 // CollNet
  return "";
}

std::string plugin_protocol(algo::Protocol p)
{
  return p == algo::Protocol::ll ? "ll" : p == algo::Protocol::ll128 ? "ll128" : "simple";
}

struct Choice {
  std::string algorithm, protocol;  // plugin spellings
  double time_us = 0;
};

}  // namespace

TunerExport export_nccl_tuner(const InstanceSpec& inst, const sim::Profile& prof, const TunerExportInput& in)
{
  std::vector<int> nodes = in.nodes;
  if (nodes.empty()) {
    std::set<int> fitted;
    for (const sim::Residual& r : prof.residuals) fitted.insert(r.nodes);
    nodes.assign(fitted.begin(), fitted.end());
    if (nodes.empty()) nodes = {2};
  }
  const int gpn = in.gpus_per_node > 0 ? std::min(in.gpus_per_node, inst.gpus) : inst.gpus;
  TunerExport out;
  out.header = {"NCCL example tuner plugin config (NVIDIA/nccl plugins/tuner/example): NCCL_TUNER_CONFIG_FILE=this file",
                "collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff",
                "written by ddpsim calibrate export: rows only where the fitted model's fastest algorithm/protocol",
                "beats NCCL's default choice (tuning.cc's model on the catalog) by " + fmt("%.0f", in.min_gain * 100) +
                    "% or more; channels, numPipeOps, regBuff: -1",
                "instance " + inst.name + ", " + std::to_string(gpn) + " GPUs per node; profile " + printable(in.profile),
                "profile fitted on: " + (prof.provenance.inputs.empty() ? std::string("-") : printable(prof.provenance.inputs.front())) +
                    (prof.provenance.inputs.size() > 1 ? " and " + std::to_string(prof.provenance.inputs.size() - 1) + " more" : "") +
                    (prof.provenance.algorithm != "auto" ? " (logs forced " + prof.provenance.algorithm +
                                                               "; other algorithms priced with the same fitted terms)"
                                                         : "")};
  for (const std::string& op_name : in.ops) {
    const algo::CollectiveOp op = parse_op(op_name);
    for (int n : nodes) {
      const Topology topo(inst, n, gpn);
      const auto net = sim::make_backend(sim::EngineKind::analytical, topo);
      const sim::CollectiveModel nccl_default(topo, sim::CollectiveOptions{"auto", std::nullopt, sim::default_profile(inst.name), {}, {}, 0});
      auto timed = [&](const std::string& algo_name, std::optional<algo::Protocol> proto, Bytes b) -> std::optional<Choice> {
        try {
          const sim::CollectiveModel m(topo, sim::CollectiveOptions{algo_name, proto, prof, {}, {}, 0});
          const sim::PricedCollective c = m.price(op, b);
          const std::string a = plugin_algorithm(c.algorithm->name(), n);
          if (a.empty() || !c.protocol) return std::nullopt;
          return Choice{a, plugin_protocol(*c.protocol), sim::time_alone_us(c, *net)};
        } catch (const UserError&) {
          return std::nullopt;  // not run on this machine, or not with this protocol
        }
      };
      std::uint64_t prev = 0;
      for (std::uint64_t s : sweep_sizes(in.min_bytes, in.max_bytes, 2)) {
        const Bytes b{s};
        const sim::PricedCollective d = nccl_default.price(op, b);
        const std::string da = plugin_algorithm(d.algorithm->name(), n);
        std::optional<Choice> best;
        for (const algo::Algorithm* a : sim::nccl_candidates(topo, op))
          for (algo::Protocol p : algo::all_protocols())
            if (auto c = timed(std::string(a->name()), p, b); c && (!best || c->time_us < best->time_us)) best = c;
        // NCCL's default under the fitted terms: the same algorithm and protocol, timed with the profile.
        const std::optional<Choice> dflt =
            d.protocol && !da.empty() ? timed(std::string(d.algorithm->name()), d.protocol, b) : std::nullopt;
        const std::uint64_t lo = prev == 0 ? 0 : prev + 1;
        prev = s;
        if (!best || !dflt || (best->algorithm == dflt->algorithm && best->protocol == dflt->protocol) ||
            best->time_us > dflt->time_us * (1 - in.min_gain))
          continue;
        const std::string why = std::to_string(n) + " node(s), " + op_name + " " + std::to_string(s) + " B: fitted " +
                                best->algorithm + "/" + best->protocol + " " + fmt("%.1f", best->time_us) + " us vs default " +
                                dflt->algorithm + "/" + dflt->protocol + " " + fmt("%.1f", dflt->time_us) + " us";
        std::vector<TunerRow>& rows = out.rows;
        if (!rows.empty() && rows.back().collective == plugin_collective(op) && rows.back().nodes == n &&
            rows.back().algorithm == best->algorithm && rows.back().protocol == best->protocol && rows.back().max_bytes + 1 == lo) {
          rows.back().max_bytes = s;  // the same choice over the next size: one range
          if (rows.back().why.size() < 160)
            rows.back().why += "; " + std::to_string(s) + " B: " + fmt("%.1f", best->time_us) + " vs " + fmt("%.1f", dflt->time_us) + " us";
        } else {
          rows.push_back(TunerRow{plugin_collective(op), best->algorithm, best->protocol, lo, s, n, n * gpn, why});
        }
      }
    }
  }
  return out;
}

}  // namespace ddpsim::calibrate
