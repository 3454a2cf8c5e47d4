// One host thread driving several GPUs (nccl-tests -g G, ddpsim's own runner): the log's header
// says how many, each iteration costs at least G NCCL host calls, and compare, fit and expect
// --check price the log with that floor (calibrate/nccl_log.hpp launch_floor_us).
#include <catch2/catch.hpp>
#include <algorithm>

#include "calibrate/collective_sweep.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/launch_floor.hpp"
#include "calibrate/nccl_log.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/collective_model.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::calibrate;

namespace {

const char* kColumns =
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
const char* kRow = "     1048576        262144     float     sum      -1    89.27   11.75   20.56  2e-07    88.45   11.85   20.75  2e-07\n";

std::string data(const char* file) { return std::string(DDPSIM_SOURCE_DIR) + "/tests/data/" + file; }

}  // namespace

TEST_CASE("launch floor: the header says how many GPUs one host thread drove")
{
  CHECK(parse_nccl_log("g8.txt", std::string("# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor)\n") +
                                     kColumns + kRow)
            .gpus_per_thread == 8);
  CHECK(parse_nccl_log("runner.txt", std::string("# ddpsim-nccl-runner: nGpus 4, device NVIDIA H100 80GB HBM3, NCCL version "
                                                 "2.28.9\n") +
                                         kColumns + kRow)
            .gpus_per_thread == 4);
  const NcclLog none = parse_nccl_log("none.txt", std::string(kColumns) + kRow);
  CHECK(none.gpus_per_thread == 1);  // the log does not say: one
  CHECK(launch_floor_us(none) == 0);  // and one GPU per thread has no floor of its own
  CHECK(launch_floor_us(read_nccl_log(data("v100x8_cubemesh_1node_allreduce_g8_blog2019.txt"))) == Approx(8 * 6.29));
  // An impossible count is the user's error, located at the number.
  CHECK_THROWS_WITH(parse_nccl_log("bad.txt", std::string("# nThread 1 nGpus 0 minBytes 8\n") + kColumns + kRow),
                    Catch::StartsWith("bad.txt:1:19: error: nGpus 0 is out of range"));
  CHECK_THROWS_WITH(parse_nccl_log("big.txt", std::string("# nThread 1 nGpus 99999999999 minBytes 8\n") + kColumns + kRow),
                    Catch::StartsWith("big.txt:1:19: error: nGpus 99999999999 is out of range"));
}

TEST_CASE("launch floor: --compare prices a -g 8 log's small rows at 8 host calls, large rows as before")
{
  const InstanceSpec& inst = test::instance("dgx1-v100");
  const Topology topo(inst, 1, 8);
  sim::AnalyticalBackend net(topo);
  const sim::CollectiveModel model(topo, sim::CollectiveOptions{});
  NcclLog log = read_nccl_log(data("v100x8_cubemesh_1node_allreduce_g8_blog2019.txt"));
  REQUIRE(log.gpus_per_thread == 8);
  const auto floored = compare_log(model, net, algo::CollectiveOp::all_reduce, 8, log, "--compare");
  log.gpus_per_thread = 1;
  const auto alone = compare_log(model, net, algo::CollectiveOp::all_reduce, 8, log, "--compare");
  REQUIRE(floored.size() == alone.size());
  int bound = 0;
  for (std::size_t i = 0; i < floored.size(); ++i) {
    CHECK(floored[i].time_us == Approx(std::max(alone[i].time_us, 8 * kNcclHostCallUs)));
    CHECK(floored[i].launch_bound == (alone[i].time_us < 8 * kNcclHostCallUs));
    CHECK(floored[i].busbw * floored[i].time_us == Approx(alone[i].busbw * alone[i].time_us));  // busbw ~ 1 / time
    bound += floored[i].launch_bound;
  }
  CHECK(floored.front().time_us == Approx(50.32));  // 8 B: measured 48.46 us, the collective alone ~15
  CHECK(floored.front().measured_us == Approx(48.46));
  CHECK(bound >= 11);                                   // at least 8 B - 8 KiB, whose times are flat in the log
  CHECK(!floored.back().launch_bound);                  // 128 MiB: the collective's own time
}

TEST_CASE("launch floor: a fit leaves out rows at the floor and still recovers the collective")
{
  // A synthetic one-node sweep of the model with known parameters, timed as one host thread
  // driving 8 GPUs would print it: every row at least 8 x kNcclHostCallUs.
  const InstanceSpec& inst = test::instance("p5.48xlarge");
  sim::Profile truth = sim::default_profile(inst.name);
  // alpha 0: the rows the floor leaves are all >= 1 MiB, where the fit keeps alpha at 0 (fit.hpp).
  truth.intra = sim::ScopeParams{true, 0.0, 0.7, 4.0, 0};
  const Topology topo(inst, 1, 8);
  sim::AnalyticalBackend net(topo);
  sim::CollectiveOptions o;
  o.profile = truth;
  const sim::CollectiveModel model(topo, o);
  NcclLog log;
  log.file = "g8.txt";
  log.ranks = 8;
  log.gpus_per_thread = 8;
  int line = 1, floored = 0;
  for (std::uint64_t b = 8; b <= 8 * GiB; b *= 2) {
    const double t = sim::time_alone_us(model.price(algo::CollectiveOp::all_reduce, Bytes{b}), net);
    floored += t < 8 * kNcclHostCallHighUs;
    log.rows.push_back(LogRow{line++, Bytes{b}, std::max(t, 8 * kNcclHostCallUs), 0, 0});
  }
  REQUIRE(floored >= 10);
  const sim::Profile fit = fit_profile(inst, {log});
  CHECK(fit.intra.efficiency == Approx(truth.intra.efficiency).epsilon(1e-6));
  CHECK(fit.intra.gamma_us == Approx(truth.intra.gamma_us).epsilon(1e-6));
  CHECK(fit.intra.points == static_cast<int>(log.rows.size()) - floored);
  const auto& assumed = fit.provenance.assumed;
  CHECK(std::any_of(assumed.begin(), assumed.end(), [](const std::string& a) {
    return a.find("g8.txt: ") == 0 && a.find("at the launch floor") != std::string::npos;
  }));
  // Without the floor the same rows would be read as a collective: its latency absorbs the host calls.
  log.gpus_per_thread = 1;
  const sim::Profile naive = fit_profile(inst, {log});
  CHECK(naive.intra.alpha_us > fit.intra.alpha_us + 10);
}
