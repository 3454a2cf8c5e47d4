#include "sim/network/collective_model.hpp"

#include <cmath>

#include "algorithms/bus_bandwidth.hpp"
#include "algorithms/registry.hpp"
#include "core/error.hpp"
#include "sim/network/nvls_pipeline.hpp"
#include "sim/network/tree_pipeline.hpp"
#include "topology/rings.hpp"

namespace ddpsim::sim {

std::vector<const algo::Algorithm*> nccl_candidates(const Topology& topo, algo::CollectiveOp op)
{
  std::vector<const algo::Algorithm*> out;
  for (const auto& a : algo::Registry::instance().all())
    if (a->nccl_selectable() && a->supports(op) && a->available(topo) && nccl_runs(*a, topo)) out.push_back(a.get());
  return out;
}

bool nccl_runs(const algo::Algorithm& a, const Topology& topo) { return a.nccl_since(topo) <= topo.instance().nccl; }

std::string nccl_lacks(const std::string& release, const std::string& what, const Version& since)
{
  return release + " has no " + what + " (first in NCCL " + to_string(since) + ")";
}

bool nccl_runs(algo::Protocol p, const Topology& topo) { return algo::nccl_since(p) <= topo.instance().nccl; }

int nccl_channels(const Topology& topo)
{
  if (topo.nodes() <= 1) return 1;
  return topo.instance().nccl_channels > 0 ? topo.instance().nccl_channels : topo.instance().nic.count;
}

double profile_time_us(const CostTerms& terms, const ScopeParams& scope, Bytes bytes)
{
  DDPSIM_CHECK(scope.efficiency > 0, "profile efficiency must be positive");
  return scope.alpha_us + terms.latency_us + terms.bandwidth_us / scope.efficiency +
         scope.gamma_us * std::sqrt(bytes.as_double() / static_cast<double>(MiB));
}

CollectiveModel::CollectiveModel(const Topology& topo, CollectiveOptions options)
    : topo_(topo),
      options_(std::move(options)),
      ranks_(options_.ranks.empty() ? ring_order(topo) : options_.ranks),
      channels_(options_.channels > 0 ? options_.channels : nccl_channels(topo)),
      timer_(std::make_unique<AnalyticalBackend>(topo))
{
  // One node of an NVLink mesh: NCCL runs a ring per NVLink brick and direction
  // (topology/rings.hpp mesh_rings), not one ring over the widest cycle.
  if (options_.ranks.empty() && options_.channels <= 0 && topo.nodes() == 1) {
    const std::vector<std::vector<int>> rings = mesh_rings(topo);
    if (rings.size() > 1) {
      auto orders = std::make_shared<std::vector<std::vector<VertexId>>>();
      for (const std::vector<int>& ring : rings) {
        orders->emplace_back();
        for (int l : ring) orders->back().push_back(topo.gpu(0, l));
      }
      channels_ = static_cast<int>(rings.size());
      channel_orders_ = std::move(orders);
    }
  }
  if (options_.algorithm != "auto") named_ = &algo::Registry::instance().get(options_.algorithm);
  // The net plugin's NCCL_PROTO=simple (aws-ofi-nccl on p3dn, p4d, p4de: topology/transport.hpp),
  // as NCCL sees it: the Simple protocol only, unless the user set NCCL_PROTO first.
  if (options_.nccl && !options_.protocol && topo.instance().nccl_proto_simple) options_.protocol = algo::Protocol::simple;
  DDPSIM_CHECK(named_ || options_.nccl, "only NCCL chooses its algorithm per size: name one");
  if (ShapeScope* s = options_.shapes.get()) {
    const std::vector<std::vector<VertexId>> orders = channel_orders_ ? *channel_orders_ : std::vector<std::vector<VertexId>>{};
    if (s->ranks.empty()) {
      s->ranks = ranks_;
      s->channels = channels_;
      s->channel_orders = orders;
    } else if (s->ranks != ranks_ || s->channels != channels_ || s->channel_orders != orders) {
      options_.shapes = nullptr;  // another rank order (a latency moved a route): build afresh
    }
  }
}

algo::Request CollectiveModel::request(algo::CollectiveOp op, Bytes bytes, const algo::LatencyParams& latency) const
{
  return algo::Request{op, bytes, &topo_, ranks_, latency, channels_, channel_orders_};
}

// What NCCL's model takes from `a`'s schedule: kept in the scope when its routes still have the
// same bottlenecks (shape_cache.hpp), else built and timed into `fresh` (and kept).
const NcclShape& CollectiveModel::shape(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes, NcclShape& fresh) const
{
  ShapeScope* scope = options_.shapes.get();
  const auto key = std::tuple{&a, static_cast<int>(op), bytes.n};
  if (scope) {
    const auto it = scope->shapes.find(key);
    if (it != scope->shapes.end() && timer_->same_bottlenecks(it->second.routes)) {
      ++scope->reused;
      return it->second;
    }
  }
  const algo::Request req = request(op, bytes, {});
  fresh.schedule = a.phases(req);
  fresh.schedule.fixed_latency = Time{0};
  fresh.schedule.route_latency = false;
  fresh.line_us = timer_->duration(fresh.schedule).us();  // B_line: transfers only
  fresh.hops = a.latency_hops(req);
  if (!scope) return fresh;
  std::optional<std::vector<PricedRoute>> routes = timer_->priced_routes();
  if (!routes) return fresh;
  fresh.routes = std::move(*routes);
  NcclShape& kept = scope->shapes[key];
  kept = std::move(fresh);
  return kept;
}

namespace {
// Bus bytes per algorithm byte in NCCL's model (tuning.cc's busBw-to-algBw ratio): a ring's is
// nccl-tests' factor, a tree's 2 (its ratio 0.5).
double bus_per_alg(const algo::Algorithm& a, algo::CollectiveOp op, int ranks)
{
  return a.nccl_family() == algo::NcclFamily::tree ? 2.0 : algo::bus_factor(op, ranks);
}
}  // namespace

// The channels NCCL's per-channel ceilings count: across nodes those the log says NCCL ran where
// stated (software.nccl_channels: NCCL's own nChannels), else the CTAs it launches on this GPU
// where the catalog knows them, else the model's channels.
int CollectiveModel::nccl_model_channels() const
{
  if (topo_.nodes() > 1 && topo_.instance().nccl_channels > 0) return channels_;
  const int ctas = topo_.instance().gpu.nccl_ctas;
  return ctas > 0 ? ctas : channels_;
}

// NCCL's model for one algorithm: its best protocol (or `only`), with L and B as tuning.cc has them.
PricedCollective CollectiveModel::nccl(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes,
                                       std::optional<algo::Protocol> only) const
{
  NcclShape fresh;
  const NcclShape& sh = shape(a, op, bytes, fresh);
  PricedCollective out;
  out.algorithm = &a;
  out.channels = channels_;
  if (&sh == &fresh)
    out.schedule = std::move(fresh.schedule);
  else
    out.schedule = sh.schedule;
  const double line_us = sh.line_us;
  const algo::HopCount hops = sh.hops;
  const int ranks = static_cast<int>(ranks_.size());
  double best = 0;
  for (algo::Protocol p : only ? std::vector<algo::Protocol>{*only} : algo::all_protocols()) {
    // NCCL runs NVLS with the Simple protocol only (tuning.cc disables LL/LL128 for it).
    if (a.nccl_family() == algo::NcclFamily::nvls && p != algo::Protocol::simple) continue;
    if (!only && !nccl_runs(p, topo_)) continue;  // LL128 before NCCL 2.5.6
    const bool tree = a.nccl_family() == algo::NcclFamily::tree && op == algo::CollectiveOp::all_reduce;
    const double ring = a.nccl_family() == algo::NcclFamily::ring ? algo::ring_plateau(p, op, bytes, channels_, topo_, ranks) : 1.0;
    // NCCL's bus bandwidth for this protocol: the schedule's, refined and capped as tuning.cc does
    // it, then (trees) its treeCorrectionFactor.
    const algo::NcclBandwidth bw = algo::nccl_bandwidth(a.nccl_family(), p, op, topo_, nccl_model_channels());
    const double correction = tree ? algo::tree_correction(p, bytes) : 1.0;
    double bandwidth_us = line_us / (bw.factor * correction);
    if (bw.cap_busbw > 0 && bytes.n > 0 && ranks > 1)  // one rank moves nothing
      bandwidth_us = std::max(bandwidth_us, bytes.as_double() * bus_per_alg(a, op, ranks) / (bw.cap_busbw * 1e3) / correction);
    // NCCL chooses by its own estimate (its latencies, the plugin's network latency); the price is
    // the physical latency with the same bandwidth; a Simple tree across nodes pays the larger of
    // treeCorrectionFactor's bandwidth term and the uncorrected one plus its chunk fill
    // (tree_pipeline.hpp), and NVLS inside one node its three-stage pipeline (nvls_pipeline.hpp).
    double price_bandwidth_us = bandwidth_us;
    if (tree && a.name() == "tree" && p == algo::Protocol::simple && topo_.nodes() > 1) {
      const double raw_us = bandwidth_us * correction;
      price_bandwidth_us = std::max(bandwidth_us, raw_us + simple_tree_fill_us(raw_us, bytes, channels_, hops, topo_));
    }
    if (a.name() == "nvls" && op == algo::CollectiveOp::all_reduce && topo_.nodes() == 1)
      price_bandwidth_us = nvls_pipelined_us(bandwidth_us, bytes, topo_);
    const CostTerms terms{algo::nccl_latency(a.nccl_family(), p, hops, topo_).us() * ring, price_bandwidth_us};
    const algo::HopCount counted = algo::nccl_estimated_hops(a.nccl_family(), op, ranks, topo_.nodes(), hops, topo_.instance().nccl);
    const double t = algo::nccl_estimated_latency(a.nccl_family(), p, counted, topo_).us() * ring + bandwidth_us;
    if (!out.protocol || t < best) {
      out.protocol = p;
      out.terms = terms;
      out.nccl_estimate_us = t;
      out.schedule.wire_factor = line_us > 0 ? price_bandwidth_us / line_us : 1.0 / (bw.factor * correction);
      best = t;
    }
  }
  return out;
}

// An algorithm NCCL does not run: its own schedule, route latency per step and the caller's
// software latency; the latency part is the schedule's time at zero bytes.
PricedCollective CollectiveModel::plain(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes) const
{
  PricedCollective out;
  out.algorithm = &a;
  out.channels = channels_;
  out.schedule = a.phases(request(op, bytes, options_.software));
  const double latency_us = timer_->duration(a.phases(request(op, Bytes{0}, options_.software))).us();
  out.terms = CostTerms{latency_us, std::max(0.0, timer_->duration(out.schedule).us() - latency_us)};
  return out;
}

// aws-ofi-nccl's choice (or nullopt: NCCL's model decides), among the pairs NCCL still allows:
// a named algorithm (NCCL_ALGO) or protocol (NCCL_PROTO) disables the others.
std::optional<algo::TunerChoice> CollectiveModel::plugin_choice(algo::CollectiveOp op, Bytes bytes) const
{
  if (!options_.nccl || options_.tuner != algo::Tuner::aws_ofi) return std::nullopt;
  if (topo_.instance().nccl < algo::kNcclLoadsNetPluginTuner) return std::nullopt;  // no tuner loaded
  if (!topo_.instance().nccl_net_tuner) return std::nullopt;  // a plugin without the region tuner, or none
  const auto allowed = [&](const algo::TunerChoice& c) {
    if (options_.protocol && *options_.protocol != c.protocol) return false;
    const algo::Algorithm& a = algo::Registry::instance().get(std::string(c.algorithm));
    if (named_ && named_ != &a) return false;
    return a.nccl_selectable() && a.supports(op) && a.available(topo_) && nccl_runs(a, topo_) && nccl_runs(c.protocol, topo_);
  };
  return algo::aws_ofi_choice(topo_.instance().name, op, bytes, topo_.nodes(), static_cast<int>(ranks_.size()), allowed);
}

// The profile, in the schedule: alpha and gamma join the fixed latency, 1/efficiency the wire factor.
void CollectiveModel::apply_profile(PricedCollective& p, Bytes bytes) const
{
  const ScopeParams& s = scope();
  const double efficiency = options_.profile.efficiency(topo_.nodes(), options_.nccl);  // its caps: profile.hpp
  DDPSIM_CHECK(efficiency > 0, "profile efficiency must be positive");
  const double extra_us = s.alpha_us + s.gamma_us * std::sqrt(bytes.as_double() / static_cast<double>(MiB));
  if (p.protocol) p.schedule.fixed_latency = Time::from_us(p.terms.latency_us);
  // A negative fitted alpha (NCCL's table above the machine's latency) never makes time negative.
  p.schedule.fixed_latency = max(Time{0}, p.schedule.fixed_latency + Time::from_us(extra_us));
  p.schedule.wire_factor /= efficiency;
  if (const double scale = s.scale_at(topo_.nodes(), bytes.n); scale != 1) {  // an interval's draw (profile.hpp): the fixed latency and every byte alike
    DDPSIM_CHECK(scale > 0, "profile time scale must be positive");
    p.schedule.fixed_latency = Time::from_seconds(p.schedule.fixed_latency.seconds() * scale);
    p.schedule.wire_factor *= scale;
  }
}

PricedCollective CollectiveModel::price(algo::CollectiveOp op, Bytes bytes) const
{
  const std::pair<int, std::uint64_t> key{static_cast<int>(op), bytes.n};
  if (const auto hit = memo_.find(key); hit != memo_.end()) return hit->second;
  PricedCollective best;
  if (options_.nccl && options_.protocol && !nccl_runs(*options_.protocol, topo_))
    throw UserError(nccl_lacks("NCCL " + to_string(topo_.instance().nccl), std::string(algo::to_string(*options_.protocol)) + " protocol",
                               algo::nccl_since(*options_.protocol)));
  if (named_) {
    if (!named_->supports(op))
      throw UserError("algorithm \"" + std::string(named_->name()) + "\" does not implement " + std::string(to_string(op)));
    if (!named_->available(topo_))
      throw UserError("algorithm \"" + std::string(named_->name()) + "\" is not available on " + topo_.instance().name);
    if (named_->nccl_family() == algo::NcclFamily::nvls && options_.protocol && *options_.protocol != algo::Protocol::simple)
      throw UserError("nvls runs with the Simple protocol only");
    if (options_.nccl && named_->nccl_selectable() && !nccl_runs(*named_, topo_))
      throw UserError(nccl_lacks("NCCL " + to_string(topo_.instance().nccl), std::string(named_->name()) + " on " + topo_.instance().name,
                                 named_->nccl_since(topo_)));
    const auto plugin = named_->nccl_selectable() ? plugin_choice(op, bytes) : std::nullopt;
    best = plugin ? nccl(*named_, op, bytes, plugin->protocol)
           : options_.nccl && named_->nccl_selectable() ? nccl(*named_, op, bytes, options_.protocol)
                                                        : plain(*named_, op, bytes);
  } else if (const auto plugin = plugin_choice(op, bytes)) {
    best = nccl(algo::Registry::instance().get(std::string(plugin->algorithm)), op, bytes, plugin->protocol);
  } else {
    std::vector<const algo::Algorithm*> candidates = nccl_candidates(topo_, op);
    if (candidates.empty()) {  // e.g. broadcast: any registered algorithm that implements it
      for (const auto& a : algo::Registry::instance().all())
        if (a->supports(op) && a->available(topo_)) candidates.push_back(a.get());
    }
    DDPSIM_CHECK(!candidates.empty(), "no algorithm implements " + std::string(to_string(op)));
    double best_t = 0;
    for (const algo::Algorithm* a : candidates) {
      if (options_.protocol && *options_.protocol != algo::Protocol::simple && a->nccl_family() == algo::NcclFamily::nvls)
        continue;
      PricedCollective c = a->nccl_selectable() ? nccl(*a, op, bytes, options_.protocol) : plain(*a, op, bytes);
      const double t = c.protocol ? c.nccl_estimate_us : c.terms.latency_us + c.terms.bandwidth_us;
      if (!best.algorithm || t < best_t) {
        best = std::move(c);
        best_t = t;
      }
    }
  }
  apply_profile(best, bytes);
  memo_.emplace(key, best);
  return best;
}

double time_alone_us(const PricedCollective& p, NetworkBackend& net)
{
  CollectiveJob job;
  job.schedule = p.schedule;
  const JobTiming t = net.run({job}).front();
  return (t.end - t.start).us();
}

}  // namespace ddpsim::sim
