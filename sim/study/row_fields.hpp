// The one field list of a finished result row: what a configuration's run produces (fields() of
// ConfigResult, scenario.hpp) and what the parent fills in after it (what-ifs, compiler, intervals,
// calibration). Walked by the child-process codec (sweep.cpp) and the shard files' JSON
// (row_json.hpp); found by ADL, so in this namespace. A field added to a result is one line here
// or in scenario.hpp, and both codecs carry it.
#pragma once

#include <type_traits>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, ResilienceResult> void fields(T& x, F& f)
{
  f(x.node_mtbf_s), f(x.job_mtbf_s), f(x.checkpoint_bytes), f(x.checkpoint_write_s), f(x.checkpoint_read_s);
  f(x.restart_s), f(x.young_interval_s), f(x.daly_interval_s), f(x.interval_s), f(x.work_s), f(x.expected_time_s);
  f(x.expected_failures), f(x.checkpoint_overhead_s), f(x.lost_s), f(x.efficiency), f(x.storage_survives);
  f(x.storage), f(x.mtbf_source), f(x.expected_total_time_s), f(x.expected_cost_usd), f(x.trials);
  f(x.mc_mean_s), f(x.mc_p10_s), f(x.mc_p50_s), f(x.mc_p90_s);
}

template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, ConfigResult::Band> void fields(T& b, F& f)
{
  f(b.set), f(b.p10), f(b.p90);
}

// A whole row: the run's fields, then the parent's.
template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, ConfigResult> void row_fields(T& r, F& f)
{
  f(r);
  f(r.resilience), f(r.degraded), f(r.compiler), f(r.compiler_compute_scale), f(r.compiler_memory_scale);
  f(r.step_band), f(r.samples_band), f(r.total_band), f(r.speedup_band), f(r.cost_band);
  f(r.uncalibrated_step_s), f(r.uncalibrated_total_s), f(r.fit_role);
}

}  // namespace ddpsim::sim
