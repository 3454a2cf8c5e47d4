// The NCCL runner: on a machine without a GPU (or a build without NCCL) it must refuse with a
// user error, never crash; with GPUs it must produce a monotone, well-formed sweep.
#include <catch2/catch.hpp>

#include "calibrate/nccl_log.hpp"
#include "calibrate/nccl_runner.hpp"
#include "core/error.hpp"

using namespace ddpsim;
using namespace ddpsim::calibrate;

TEST_CASE("the NCCL runner measures on GPUs or says clearly why it cannot")
{
  NcclSweep sweep;
  sweep.min_bytes = 1024;
  sweep.max_bytes = 1 << 20;
  sweep.warmup = 1;
  sweep.iters = 2;
  NcclRun run;
  try {
    run = run_nccl_allreduce(sweep);
  } catch (const UserError& e) {
    INFO(e.what());
    const std::string what = e.what();
    CHECK((what.find("CUDA") != std::string::npos || what.find("without CUDA/NCCL") != std::string::npos));
    return;
  }
  REQUIRE(run.points.size() == 11);
  for (const NcclPoint& p : run.points) CHECK(p.time_us > 0);
  CHECK(run.points.back().bytes == sweep.max_bytes);
}

TEST_CASE("runner output uses nccl-tests' all_reduce_perf columns")
{
  NcclRun run{8, "Tesla V100-SXM2-16GB", "2.28.9", {{1048576, 100.0, 10.48576, 18.35008}}};
  const std::string text = format_nccl_tests(run);
  CHECK(text.find("#       size         count      type   redop    root     time   algbw   busbw #wrong") !=
        std::string::npos);
  CHECK(text.find("     1048576        262144     float     sum      -1   100.00   10.49   18.35      0") !=
        std::string::npos);
}

TEST_CASE("runner output reads back through the nccl-tests parser used by calibrate fit")
{
  NcclRun run{8, "NVIDIA H100 80GB HBM3", "2.28.9", {}};
  for (std::uint64_t b = 1024; b <= (1u << 20); b *= 4) {
    const double us = 20 + static_cast<double>(b) / 1e5;
    run.points.push_back({b, us, static_cast<double>(b) / (us * 1e3), static_cast<double>(b) / (us * 1e3) * 1.75});
  }
  const calibrate::NcclLog log = calibrate::parse_nccl_log("run.txt", format_nccl_tests(run));
  REQUIRE(log.rows.size() == run.points.size());
  CHECK(log.ranks == 8);
  for (std::size_t i = 0; i < log.rows.size(); ++i) {
    CHECK(log.rows[i].bytes.n == run.points[i].bytes);
    CHECK(log.rows[i].time_us == Approx(run.points[i].time_us).margin(0.005));
  }
}

TEST_CASE("the runner's log from a real one-GPU H100 is read, and refused for fitting with the reason")
{
  // validation/device/h100_20261125: `ddpsim calibrate run` on one H100 (NCCL 2.28.9): an
  // all-reduce among 1 rank is a local copy, busbw 0. The parser names that instead of a ratio.
  const std::string file = std::string(DDPSIM_SOURCE_DIR) + "/validation/device/h100_20261125/h100_allreduce.nccl-tests.txt";
  try {
    (void)calibrate::read_nccl_log(file);
    FAIL("a one-GPU log was accepted");
  } catch (const UserError& e) {
    const std::string what = e.what();
    CHECK(what.find("h100_allreduce.nccl-tests.txt:26:1") != std::string::npos);
    CHECK(what.find("a one-GPU log") != std::string::npos);
  }
}
