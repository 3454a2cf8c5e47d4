// Issue 13: checked arithmetic, one-line valid-UTF-8 errors, strict YAML, bounded logs and fits,
// resource guards, worker isolation and signal-safe atomic writes.
#include <catch2/catch.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <filesystem>
#include <thread>

#include "app/input/catalog_loader.hpp"
#include "app/output/output.hpp"
#include "app/input/profile_io.hpp"
#include "app/input/yaml_reader.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/nccl_log.hpp"
#include "core/text.hpp"
#include "sim/network/guards.hpp"
#include "core/subprocess.hpp"
#include "support.hpp"

using namespace ddpsim;
namespace fs = std::filesystem;

namespace {

std::string user_error_of(const std::function<void()>& f)
{
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("hardening: Time and Bytes arithmetic throws OverflowError instead of wrapping")
{
  const Time big = Time::from_seconds(9e6);
  CHECK_THROWS_AS(big + big, OverflowError);
  CHECK_THROWS_AS(Time{} - big - big, OverflowError);
  CHECK_THROWS_AS(big * 2, OverflowError);
  Time t = big;
  CHECK_THROWS_AS(t += big, OverflowError);
  CHECK_THROWS_AS(Time::from_seconds(1e7), OverflowError);
  CHECK_THROWS_AS(Time::from_seconds(std::nan("")), OverflowError);
  CHECK_THROWS_AS(Time::from_seconds(-1e300), OverflowError);
  CHECK_THROWS_AS((Bytes{~0ull} + Bytes{1}), OverflowError);
  // In range, exact as before.
  CHECK((big + Time::from_seconds(1)).ps == 9'000'001'000'000'000'000);
  CHECK((Time::from_us(3) * 4).ps == 12'000'000);
  CHECK((Bytes{1} + Bytes{2}).n == 3);
  // OverflowError is a ValueError: callers that locate ValueErrors locate it too.
  CHECK_THROWS_AS(big * 3, ValueError);
}

TEST_CASE("hardening: printable keeps text on one line and valid UTF-8")
{
  CHECK(printable("a\nb\r\tc") == "a\\nb\\r\\tc");
  CHECK(printable("\xff\xfe") == "\\xFF\\xFE");
  CHECK(printable("caf\xc3\xa9 \xe2\x82\xac") == "caf\xc3\xa9 \xe2\x82\xac");  // valid UTF-8 passes
  CHECK(printable("\xc3") == "\\xC3");                                          // truncated sequence
  CHECK(printable("\xed\xa0\x80") == "\\xED\\xA0\\x80");                        // a surrogate
  CHECK(printable("\xc0\xaf") == "\\xC0\\xAF");                                 // overlong
  CHECK(valid_utf8(printable(std::string("\x80\x00\x7f", 3))));
  CHECK_FALSE(valid_utf8("\xff"));
  const UserError e(SourceLocation{"f\nile", 1, 2}, "k\ney", "bad \xff value\n");
  CHECK(std::string(e.what()) == "f\\nile:1:2: error: k\\ney: bad \\xFF value\\n");
}

TEST_CASE("hardening: duplicate keys and second documents are located errors")
{
  CHECK(user_error_of([] { app::parse_yaml("a.yaml", "x: 1\ny: 2\nx: 3\n"); }) == "a.yaml:3:1: error: x: duplicate key (it is already set above)");
  CHECK(user_error_of([] { app::parse_yaml("a.yaml", "x:\n  y: [ {z: 1, z: 2} ]\n"); }) ==
        "a.yaml:2:15: error: x.y[0].z: duplicate key (it is already set above)");
  CHECK(user_error_of([] { app::parse_yaml("a.yaml", "x: 1\n---\ny: 2\n"); })
            .find("a.yaml:2:1: error: more than one YAML document") == 0);
  // A broken second document is refused too (not silently ignored), where it starts.
  CHECK(user_error_of([] { app::parse_yaml("a.yaml", "x: 1\n---\ny: [\n"); }).find("a.yaml:2:1: error: more than one") == 0);
  CHECK(user_error_of([] { app::parse_yaml("a.yaml", "x: 1\n...\n# c\ny: 2\n"); }).find("a.yaml:4:1: error: more than one") == 0);
  CHECK_NOTHROW(app::parse_yaml("a.yaml", "%YAML 1.2\n---\nx: 1\n...\n# trailing comment\n"));
  // yaml-cpp 0.7's LoadAll never returned on a lone "," (fuzz_catalog); it must now end at once.
  CHECK(user_error_of([] { app::parse_yaml("a.yaml", ","); }) == "a.yaml:1:1: error: the document has no value (it reads as null)");
  CHECK(user_error_of([] { app::parse_catalog("c.yaml", ","); }).find("c.yaml:") == 0);
  // fuzz_catalog: maps given as lists (and the reverse) are located errors, not yaml-cpp's InvalidNode.
  CHECK(user_error_of([] { app::parse_catalog("c.yaml", "instances:\n  [ec2]\n"); }) ==
        "c.yaml:2:3: error: instances: expected a map of keys to values");
  CHECK(user_error_of([] { app::parse_catalog("c.yaml", "gpus: [a, b]\n"); }).find("c.yaml:1:7: error: gpus: expected a map") == 0);
  CHECK(user_error_of([] { app::parse_catalog("c.yaml", "assumed_ranges: [{field: nic.latency, instances: {a: 1}, factor: [0.5, 2], why: x}]\n"); })
            .find("c.yaml:") == 0);
  CHECK_NOTHROW(app::parse_yaml("a.yaml", "---\nx: 1\n"));  // one document with its marker is fine
}

TEST_CASE("hardening: a directory or a missing file says what it is")
{
  CHECK(user_error_of([] { app::read_text_file(DDPSIM_SOURCE_DIR "/scenarios"); }).find("is a directory") != std::string::npos);
  CHECK(user_error_of([] { app::read_text_file(DDPSIM_SOURCE_DIR "/no/such"); }).find("cannot read") != std::string::npos);
}

TEST_CASE("hardening: nccl-tests logs bound the rank count they imply")
{
  const std::string near2 = "8388608 2097152 float sum -1 93.89 1.00 1.9999 0\n";
  CHECK(user_error_of([&] { calibrate::parse_nccl_log("l.txt", near2); }).find("l.txt:1:1: error: busbw/algbw") == 0);
  // Enough digits make a large count exact: 2(n-1)/n for n = 1024 is 1.998046875.
  const std::string exact = "8388608 2097152 float sum -1 93.89 100.000000 199.8046875 0\n";
  CHECK(calibrate::parse_nccl_log("l.txt", exact).ranks == 1024);
  const std::string csv = "Nodes,GPUs,size(MB),out algbw(GB/s),out busbw(GB/s)\n2,2147483648,1,10,18\n";
  CHECK(user_error_of([&] { calibrate::parse_nccl_log("c.csv", csv); }).find("c.csv:2:1: error: column \"GPUs\"") == 0);
  CHECK(user_error_of([&] { calibrate::parse_nccl_log("e.txt", "# nothing\n"); }).find("e.txt:1:1: error: no nccl-tests") == 0);
}

TEST_CASE("hardening: nccl-tests' device list states the rank count where the digits cannot")
{
  // 3.41 / 1.82 = 1.8736: 15 and 16 ranks both fit two printed decimals, so the ratio alone is refused...
  const std::string table = "8388608 2097152 float sum 4615.5 1.82 3.41 5e-07 4614.6 1.82 3.41 5e-07\n";
  CHECK(user_error_of([&] { calibrate::parse_nccl_log("l.txt", table); }).find("does not determine the rank count") !=
        std::string::npos);
  // ... and the list of ranks 0..15 (old form, and the newer one with a Group) names 16.
  std::string listed = "# Using devices\n", grouped = listed;
  for (int r = 0; r < 16; ++r) {
    listed += "#   Rank " + std::to_string(r) + " Pid 9" + std::to_string(r) + " on host-" + std::to_string(r / 8) + " device " +
              std::to_string(r % 8) + " [0x00] Tesla V100-SXM2-32GB\n";
    grouped += "#  Rank " + std::to_string(r) + " Group  0 Pid 9" + std::to_string(r) + " on host device " + std::to_string(r % 8) +
               " [0x53] NVIDIA H100 80GB HBM3\n";
  }
  CHECK(calibrate::parse_nccl_log("l.txt", listed + table).ranks == 16);
  CHECK(calibrate::parse_nccl_log("l.txt", grouped + table).ranks == 16);
  // A list that the table contradicts (8 ranks: 2 x 7 / 8 = 1.75) is an error at the row that shows it.
  std::string eight = "# Using devices\n";
  for (int r = 0; r < 8; ++r) eight += "#   Rank " + std::to_string(r) + " Pid 1 on h device " + std::to_string(r) + " [0x00] V100\n";
  CHECK(user_error_of([&] { calibrate::parse_nccl_log("l.txt", eight + table); }).find("l.txt:10:1: error: busbw/algbw") == 0);
  // An excerpt of the list (ranks 3..4) names nothing: the ratio decides, here refused.
  const std::string part = "#   Rank 3 Pid 1 on h device 3 [0x00] V100\n#   Rank 4 Pid 1 on h device 4 [0x00] V100\n";
  CHECK(user_error_of([&] { calibrate::parse_nccl_log("l.txt", part + table); }).find("does not determine") != std::string::npos);
}

TEST_CASE("hardening: a fitted profile loads back, an absurd fit is refused with a location")
{
  const InstanceSpec& p5 = test::instance("p5.48xlarge");
  const std::string log = DDPSIM_SOURCE_DIR "/tests/data/p5_2node_16gpu_allreduce_awsome.txt";
  const sim::Profile prof = calibrate::fit_profile(p5, {calibrate::parse_nccl_log(log, app::read_text_file(log))});
  const sim::Profile back = app::parse_profile("p.yaml", app::profile_yaml(prof));
  CHECK(back.network.efficiency == Approx(prof.network.efficiency).epsilon(1e-3));

  // Times that do not grow with size: no bandwidth can explain them.
  std::string flat = "#       size count type redop root time algbw busbw #wrong\n";
  for (std::uint64_t s = 1 << 20; s <= (1u << 26); s *= 2)
    flat += std::to_string(s) + " " + std::to_string(s / 4) + " float sum -1 1.00 " + std::to_string(static_cast<double>(s) / 1e3) + " " +
            std::to_string(static_cast<double>(s) / 1e3 * 1.75) + " 0\n";
  const calibrate::NcclLog l = calibrate::parse_nccl_log("flat.txt", flat);
  const std::string err = user_error_of([&] { calibrate::fit_profile(test::instance("p4d.24xlarge"), {l}); });
  CHECK(err.find("flat.txt:2:1: error: ") == 0);
}

TEST_CASE("hardening: resource guards refuse past 131072 GPUs and past --max-memory, at once")
{
  using sim::EngineKind, sim::Workload;
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(user_error_of([&] { sim::check_resources(65536, 8, EngineKind::analytical, Workload::ring, {}, "--nodes"); })
            .find("--nodes: 65536 nodes x 8 GPUs = 524288 GPUs") != std::string::npos);
  // 131,072 GPUs of DDP run in about 200 MiB (measured); SMDDP's node pairs would not fit 4 GiB.
  CHECK_NOTHROW(sim::check_resources(16384, 8, EngineKind::analytical, Workload::ring, {}, "cluster.nodes"));
  CHECK_NOTHROW(sim::check_resources(16384, 8, EngineKind::flow, Workload::ring, {}, "cluster.nodes"));
  CHECK_THROWS_AS(sim::check_resources(16384, 8, EngineKind::analytical, Workload::all_to_all, {}, "cluster.nodes"),
                  UserError);
  CHECK_THROWS_AS(sim::check_resources(16384, 8, EngineKind::analytical, Workload::collective, {}, "--nodes"), UserError);
  CHECK(user_error_of([&] {
          sim::check_resources(16384, 8, EngineKind::flow, Workload::ring, sim::ResourceLimits{Bytes{256 * MiB}}, "cluster.nodes");
        }).find("--max-memory") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
  CHECK_THROWS_AS(sim::parse_max_memory("lots"), UserError);
  CHECK(sim::parse_max_memory("4GiB").n == 4 * GiB);
}

TEST_CASE("hardening: worker processes report errors whole, die with signals loudly, time out")
{
  // A located UserError crosses the pipe with its location and field, not as "error: error:".
  const std::string e = user_error_of([] {
    run_in_child([]() -> std::string { throw UserError(SourceLocation{"s.yaml", 3, 4}, "cluster.nodes", "bad"); });
  });
  CHECK(e == "s.yaml:3:4: error: cluster.nodes: bad");
  CHECK_THROWS_AS(run_in_child([]() -> std::string { throw OverflowError("o"); }), OverflowError);
  // A child killed by a signal is an internal error that says so.
  try {
    run_in_child([]() -> std::string { ::raise(SIGKILL); return "x"; });
    FAIL("no error");
  } catch (const InternalError& ie) {
    CHECK(std::string(ie.what()).find("signal 9") != std::string::npos);
  }
  // Past the timeout the child is killed and the error names --timeout.
  set_simulation_timeout(0.2);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string t = user_error_of([] {
    run_in_child([]() -> std::string { ::sleep(30); return "late"; });
  });
  set_simulation_timeout(0);
  CHECK(t.find("--timeout") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
}

TEST_CASE("hardening: a finished worker is collected first, not behind a slower one started before it")
{
  // Child 0 would run 30 s; child 1 answers at once. first_ready names child 1 (its pipe is
  // readable); child 0, never collected, is killed by its destructor.
  ChildProcess slow([]() -> std::string { ::sleep(30); return "slow"; });
  ChildProcess fast([]() -> std::string { return "fast"; });
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(ChildProcess::first_ready({&slow, &fast}) == 1);
  CHECK(fast.collect() == "fast");
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  CHECK_THROWS(ChildProcess::first_ready({}));
}

TEST_CASE("hardening: a worker dies with its parent")
{
  // Parent P forks worker W through ChildProcess, then P is killed: W must not survive.
  int pipefd[2];
  REQUIRE(::pipe(pipefd) == 0);
  const pid_t p = ::fork();
  REQUIRE(p >= 0);
  if (p == 0) {
    ::close(pipefd[0]);
    ChildProcess worker([fd = pipefd[1]]() -> std::string {
      const pid_t me = ::getpid();
      (void)!::write(fd, &me, sizeof me);
      ::sleep(30);
      return "";
    });
    ::sleep(30);
    ::_exit(0);
  }
  ::close(pipefd[1]);
  pid_t w = 0;
  REQUIRE(::read(pipefd[0], &w, sizeof w) == sizeof w);
  ::close(pipefd[0]);
  ::kill(p, SIGKILL);
  ::waitpid(p, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    // Dead once kill() fails or /proc shows a zombie (PID 1 of a container may not reap it).
    std::ifstream stat("/proc/" + std::to_string(w) + "/stat");
    std::string pid, comm, state;
    stat >> pid >> comm >> state;
    gone = ::kill(w, 0) != 0 || !stat || state == "Z" || state == "X";
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(gone);
}

TEST_CASE("hardening: SIGTERM during an atomic write leaves no temp file")
{
  const fs::path dir = fs::temp_directory_path() / ("ddpsim_sig_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  bool caught_mid_write = false;
  for (std::size_t size = 64 * MiB; size <= 512 * MiB && !caught_mid_write; size *= 2) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    const pid_t c = ::fork();
    REQUIRE(c >= 0);
    if (c == 0) {
      app::write_output((dir / "out.txt").string(), std::string(size, 'x'));
      ::_exit(0);
    }
    // Wait for the temp file to appear, then signal; for as long as the child runs (a fixed number
    // of polls ran out before a loaded machine had started the child's write).
    int status = 0;
    bool exited = false;
    while (!caught_mid_write && !exited) {
      for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".tmp.") != std::string::npos) caught_mid_write = true;
      if (!caught_mid_write) exited = ::waitpid(c, &status, WNOHANG) == c;
    }
    if (caught_mid_write) ::kill(c, SIGTERM);
    if (!exited) ::waitpid(c, &status, 0);
    if (caught_mid_write && WIFEXITED(status)) caught_mid_write = false;  // finished before the signal landed
    if (caught_mid_write) {
      CHECK(WIFSIGNALED(status));
      CHECK(WTERMSIG(status) == SIGTERM);
      int temps = 0;
      for (const auto& e : fs::directory_iterator(dir)) temps += e.path().filename().string().find(".tmp.") != std::string::npos;
      CHECK(temps == 0);
    }
  }
  fs::remove_all(dir);
  CHECK(caught_mid_write);
}
