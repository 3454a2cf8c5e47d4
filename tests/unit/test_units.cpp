#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/units.hpp"

using namespace ddpsim;

TEST_CASE("sizes parse with decimal and binary units")
{
  CHECK(parse_bytes("25MiB").n == 25 * MiB);
  CHECK(parse_bytes("25 MB").n == 25'000'000);
  CHECK(parse_bytes("8G").n == 8 * GiB);  // nccl-tests convention: binary
  CHECK(parse_bytes("1.5KiB").n == 1536);
  CHECK(parse_bytes("4096").n == 4096);   // a count of bytes
  CHECK_THROWS_AS(parse_bytes("1.5B"), ValueError);
  CHECK_THROWS_AS(parse_bytes("12 parsecs"), ValueError);
  CHECK_THROWS_AS(parse_bytes("-1MiB"), ValueError);
  CHECK_THROWS_AS(parse_bytes("abc"), ValueError);
}

TEST_CASE("durations need a unit and land on whole picoseconds")
{
  CHECK(parse_time("1.5us").ps == 1'500'000);
  CHECK(parse_time("2ms").ps == 2'000'000'000);
  CHECK(parse_time("1 min").seconds() == Approx(60));
  CHECK(parse_time("0s").ps == 0);
  CHECK_THROWS_WITH(parse_time("25"), Catch::Contains("has no unit"));
  CHECK_THROWS_AS(parse_time("1 fortnight"), ValueError);
}

TEST_CASE("bandwidths need a unit, bits and bytes are told apart")
{
  CHECK(parse_bandwidth("25Gbps").bytes_per_s == Approx(3.125e9));
  CHECK(parse_bandwidth("100GB/s").bytes_per_s == Approx(1e11));
  CHECK(parse_bandwidth("12.5GiB/s").bytes_per_s == Approx(12.5 * 1024 * 1024 * 1024));
  CHECK_THROWS_WITH(parse_bandwidth("25"), Catch::Contains("has no unit"));
  CHECK_THROWS_AS(parse_bandwidth("0Gbps"), ValueError);
}

TEST_CASE("transfer time is bytes over bandwidth in picoseconds")
{
  CHECK(transfer_time(Bytes{1'000'000}, Bandwidth{1e9}).ps == 1'000'000'000);
  CHECK(transfer_time(Bytes{0}, Bandwidth{1e9}).ps == 0);
  CHECK(transfer_time(Bytes{3}, Bandwidth{1e12}).ps == 3);
}

TEST_CASE("user errors render as file:line:column: error: field: message")
{
  UserError e(SourceLocation{"a.yaml", 3, 7}, "cluster.nodes", "must be positive");
  CHECK(std::string(e.what()) == "a.yaml:3:7: error: cluster.nodes: must be positive");
  CHECK(std::string(UserError("plain").what()) == "error: plain");
}
