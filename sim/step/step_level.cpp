#include "sim/step/step_level.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

void StepLevelTimer::apply(PricedCollective& p, algo::CollectiveOp op, Bytes bytes, bool staged)
{
  DDPSIM_CHECK(p.algorithm, "a priced collective without its algorithm");
  const std::pair<int, std::uint64_t> key{static_cast<int>(op), bytes.n};
  auto it = memo_.find(key);
  if (it == memo_.end()) {
    const CollectiveOptions& o = model_.options();
    // NCCL's per-step costs are in its latency formula, not in the schedule: none here.
    const algo::LatencyParams latency = o.nccl ? algo::LatencyParams{} : o.software;
    const auto& orders = model_.channel_orders();
    const bool own = orders && static_cast<int>(orders->size()) == p.channels;
    const algo::Request req{op, bytes, &model_.topology(), model_.ranks(), latency, p.channels, own ? orders : nullptr};
    it = memo_.emplace(key, network_.run_steps(p.algorithm->steps(req))).first;
  }
  algo::CoarseSchedule s;
  if (staged && p.schedule.phases.size() >= 2) {
    s.phases = {p.schedule.phases.front(), p.schedule.phases.back()};
    s.wire_factor = p.schedule.wire_factor;
    s.route_latency = p.schedule.route_latency;
  }
  s.fixed_latency = it->second;
  p.schedule = std::move(s);
}

}  // namespace ddpsim::sim
