// Fan-out of a scenario's configurations over processes (--jobs N). Each configuration runs in
// its own child (sim/subprocess.hpp) and its result crosses the pipe in a small binary format
// (doubles bit for bit), so a parallel sweep returns exactly what a serial one does, in order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/training/scenario.hpp"

namespace ddpsim::sim {

// Serialization of what a configuration produces. A field added to ConfigResult must be added
// here too (tests compare parallel against serial runs field by field through the reporters).
std::string encode(const ConfigResult& r, const Timeline* timeline);
ConfigResult decode(const std::string& bytes, Timeline* timeline);

// Runs work(i) for i in [0, n) in up to `jobs` child processes at a time; results in index order.
// Each child also returns what work(i) recorded on its timeline when timelines[i] is set.
std::vector<ConfigResult> fan_out(std::size_t n, int jobs, const std::function<ConfigResult(std::size_t, Timeline*)>& work,
                                  const std::vector<Timeline*>& timelines);

}  // namespace ddpsim::sim
