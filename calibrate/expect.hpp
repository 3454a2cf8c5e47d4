// `ddpsim expect` (issue 20): the nccl-tests bus bandwidth a cluster should reach, per size and node
// count, as p10/p50/p90 with where the numbers come from, and the check of a fresh log against it.
// The printed table and JSON are app/output/expect_report.hpp; the profile is resolved by the app
// (app/input/profile_io.hpp, the one default rule) and handed in here as data.
//
// The model is the CollectiveModel `ddpsim collective` uses (analytical, idle network), with the
// instance's profile (the shipped one, a given file, or none: the catalog alone). The spread:
//   - a profile with measured points: t x exp(q) for q the 10th/50th/90th percentile of
//     ln(measured / predicted) over the fit's points of the same scope (one node, or the network)
//     within a factor 4 of the size, or over all of them where fewer than 4 are that close;
//     Across nodes beyond the fit's nodes it widens by the drift (sim/study/model_error.hpp);
//   - the catalog's price (no profile, or a scope the profile did not fit), and below the sizes a
//     profile without a fitted latency measured: the catalog price's measured error by scope
//     (sim/study/collective_band.hpp: 0.119 on one node, 0.410 across nodes with the drift).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/nccl_log.hpp"
#include "sim/network/profile.hpp"
#include "sim/study/scenario.hpp"
#include "topology/instance.hpp"

namespace ddpsim::calibrate {

struct ExpectInput {
  std::string instance;             // as the user named it
  std::vector<int> nodes;
  int gpus_per_node = 0;            // 0: all of the instance's
  std::string op = "all_reduce";
  std::vector<std::uint64_t> sizes;
};

// What the expectation stands on: the catalog's instance and the profile.
struct ExpectBasis {
  InstanceSpec instance;
  sim::Profile profile;
  std::string profile_name;                // "": the catalog alone
};

struct ExpectRow {
  int nodes = 0, ranks = 0;
  std::uint64_t bytes = 0;
  double p10 = 0, p50 = 0, p90 = 0;  // busbw, GB/s (p10 the slow end)
  std::string algorithm, protocol;
  int points = 0;                    // the profile's points behind the spread (0: the catalog price's error)
};

struct Expectation {
  std::string instance, op, algorithm;
  int gpus_per_node = 0;
  std::vector<std::string> provenance;  // lines: catalog, profile, its fit data, the spread's rule
  std::vector<ExpectRow> rows;
};

class Expecter {
 public:
  Expecter(const ExpectBasis& basis, const ExpectInput& in);
  ExpectRow at(int nodes, std::uint64_t bytes) const;
  const Expectation& header() const { return header_; }

 private:
  ExpectInput in_;
  InstanceSpec inst_;
  sim::Profile prof_;
  Expectation header_;
};

Expectation expect_busbw(const ExpectBasis& basis, const ExpectInput& in);

// One verdict per row of a fresh nccl-tests log: "slow" below p10, "fast" above p90, else "pass"
// (the log's printed rounding counts in its favour).
struct CheckRow {
  ExpectRow expected;
  double measured_busbw = 0;
  int line = 0;
  std::string verdict;
};
std::vector<CheckRow> check_log(const ExpectBasis& basis, ExpectInput in, const NcclLog& log, Expectation& header);

}  // namespace ddpsim::calibrate
