// Fan-out of a scenario's configurations over processes (--jobs N). Each configuration runs in
// its own child (core/subprocess.hpp) and its result crosses the pipe in a small binary format
// (doubles bit for bit), so a parallel sweep returns exactly what a serial one does, in order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

// Serialization of what a configuration produces. A field added to ConfigResult must be added
// here too (tests compare parallel against serial runs field by field through the reporters).
std::string encode(const ConfigResult& r, const Timeline* timeline);
ConfigResult decode(const std::string& bytes, Timeline* timeline);

// A finished row as a report holds it (row_fields.hpp): encode()'s fields plus those the parent
// fills in after the children return (what-ifs, compiler, intervals, calibration), between the
// processes of one plan run (plan.cpp). Shard files carry rows as JSON instead (row_json.hpp).
std::string encode_row(const ConfigResult& r);
ConfigResult decode_row(const std::string& bytes);

// Runs work(i) for i in [0, n) in up to `jobs` child processes at a time; results in index order.
// Each child also returns what work(i) recorded on its timeline when timelines[i] is set.
// `collected(k)`, when given, is called in the parent after k results came back (progress).
std::vector<ConfigResult> fan_out(std::size_t n, int jobs, const std::function<ConfigResult(std::size_t, Timeline*)>& work,
                                  const std::vector<Timeline*>& timelines,
                                  const std::function<void(std::size_t)>& collected = {});

}  // namespace ddpsim::sim
