// The one field list of a finished result row: what a configuration's run produces (fields() of
// ConfigResult, scenario.hpp) and what the parent fills in after it (after_run what-ifs in r.whatifs,
// compiler, intervals, calibration). Walked by the child-process codec (sweep.cpp) and the shard files' JSON
// (row_json.hpp); found by ADL, so in this namespace. A field added to a result is one line here
// or in scenario.hpp, and both codecs carry it.
#pragma once

#include <type_traits>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

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
  f(r.degraded), f(r.compiler), f(r.compiler_compute_scale), f(r.compiler_memory_scale);
  f(r.step_band), f(r.samples_band), f(r.total_band), f(r.speedup_band), f(r.cost_band);
  f(r.uncalibrated_step_s), f(r.uncalibrated_total_s), f(r.fit_role);
}

}  // namespace ddpsim::sim
