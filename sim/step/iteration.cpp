#include "sim/step/iteration.hpp"

#include "core/error.hpp"
#include "sim/network/analytical.hpp"
#include "sim/step/step_run.hpp"

namespace ddpsim::sim {
namespace {

// At most this many batches on a link-sharing backend before the step takes the last one.
constexpr int kMaxRounds = 8;

}  // namespace

IterationResult simulate_iteration(const IterationSetup& setup, Timeline* timeline)
{
  DDPSIM_CHECK(setup.model && setup.network && setup.collective, "incomplete iteration setup");
  DDPSIM_CHECK(setup.accum_steps >= 1, "gradient accumulation needs at least one micro-step");
  const std::size_t nlayers = setup.model->layers.size();
  DDPSIM_CHECK(setup.times.forward.size() == nlayers && setup.times.backward.size() == nlayers,
               "layer times do not match the model");
  NetworkBackend& net = *setup.network;
  // A backend that shares nothing (analytical): every collective timed alone when it is released (exact).
  if (dynamic_cast<const AnalyticalBackend*>(&net)) return StepRun(setup, timeline, nullptr).run();

  // A backend that shares links: the fixed point of comm_streams.hpp. Run the step with the
  // timings of the previous batch (none at first: collectives instantaneous), time its releases
  // together in one batch, and repeat until the releases are those the batch timed. Where compute
  // never waits for a collective before the optimizer (every non-sharded framework) the releases
  // do not depend on the timings, so the second run confirms the first batch: one batch, as the
  // network would see it. The trace keeps only the final run's spans and batch: the network
  // records into `timeline` (scenario.cpp) only for that batch.
  std::vector<JobTiming> planned;
  std::vector<CollectiveJob> timed;
  Timeline net_spans;
  for (int round = 0;; ++round) {
    Timeline step_spans;
    StepRun run(setup, timeline ? &step_spans : nullptr, &planned);
    IterationResult r = run.run();
    const bool converged = round > 0 && same_releases(run.jobs(), timed);
    if (converged || round == kMaxRounds) {
      r.network_rounds = round;
      if (timeline) {
        for (Span& s : step_spans.spans) timeline->add(std::move(s));
        for (Span& s : net_spans.spans) timeline->add(std::move(s));
      }
      return r;
    }
    timed = run.jobs();
    net_spans.spans.clear();
    net.set_timeline(timeline ? &net_spans : nullptr);
    planned = net.run(timed);
    net.set_timeline(timeline);
    DDPSIM_CHECK(planned.size() == timed.size(), "network backend lost jobs");
  }
}

}  // namespace ddpsim::sim
