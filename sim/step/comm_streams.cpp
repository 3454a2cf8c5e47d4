#include "sim/step/comm_streams.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

std::size_t CommStreams::submit(CollectiveJob job, std::function<void()> on_end)
{
  DDPSIM_CHECK(job.ready >= engine_.now(), "a collective released in the past");
  const std::size_t i = jobs_.size();
  Time& free = free_[job.stream];
  const Time start = max(job.ready, free);
  JobTiming t{start, start};
  if (!planned_) {
    // Timed alone, at its start: on a backend that shares nothing this is its time in any batch.
    std::vector<CollectiveJob> one;
    one.push_back(std::move(job));
    const Time ready = one.front().ready;
    one.front().ready = start;
    const std::vector<JobTiming> got = network_.run(one);
    DDPSIM_CHECK(got.size() == 1, "network backend lost a job");
    t = got.front();
    job = std::move(one.front());
    job.ready = ready;
  } else if (i < planned_->size()) {
    t = (*planned_)[i];
  }
  free = max(free, t.end);
  jobs_.push_back(std::move(job));
  timings_.push_back(t);
  engine_.at(max(t.end, engine_.now()), std::move(on_end));
  return i;
}

bool same_releases(const std::vector<CollectiveJob>& a, const std::vector<CollectiveJob>& b)
{
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].ready != b[i].ready || a[i].stream != b[i].stream || a[i].label != b[i].label) return false;
  return true;
}

}  // namespace ddpsim::sim
