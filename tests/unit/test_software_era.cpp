// software.as_of (issue 18 item 1, topology/software_era.hpp): the stack of a date, from the
// release tags of NVIDIA/nccl, aws/aws-ofi-nccl and Horovod's changelog, and what it changes.
#include <catch2/catch.hpp>

#include <algorithm>

#include "app/input/scenario_loader.hpp"
#include "app/input/transport_loader.hpp"
#include "sim/study/twin.hpp"
#include "support.hpp"
#include "topology/software_era.hpp"

using namespace ddpsim;
using ddpsim::test::catalog;

namespace {

Date date(const char* s)
{
  Date d;
  REQUIRE(parse_date(s, d));
  return d;
}

// Every note the transport resolved to, as one text to search.
std::string joined(const std::vector<std::string>& notes)
{
  std::string out;
  for (const std::string& n : notes) out += n + "\n";
  return out;
}

}  // namespace

TEST_CASE("software era: dates parse strictly")
{
  CHECK(date("2019-06-25") == Date{2019, 6, 25});
  CHECK(date("2019-06") == Date{2019, 6, 1});  // a month is its first day
  CHECK(date("2020-02-29") == Date{2020, 2, 29});
  Date d;
  for (const char* bad : {"2019", "2019-6", "2019-06-5", "2019-13", "2019-00-10", "2019-04-31", "2019-02-29",
                          "1999-12-31", "2101-01", "19-06-25", "2019/06/25", "2019-06-25x", ""})
    CHECK_FALSE(parse_date(bad, d));
  CHECK(to_string(Date{2019, 6, 5}) == "2019-06-05");
}

TEST_CASE("software era: the release tables are in tag order and the newest release of a date wins")
{
  for (auto releases : {nccl_releases(), aws_ofi_nccl_releases()}) {
    REQUIRE(releases.size() > 40);
    // Tag dates never go back, and versions only rise, but for one fix release (2.18.6 after 2.19.3).
    CHECK(std::is_sorted(releases.begin(), releases.end(), [](const Release& a, const Release& b) { return a.tagged < b.tagged; }));
  }
  const auto nccl = [](const char* d) { return release_as_of(nccl_releases(), date(d)); };
  CHECK_FALSE(nccl("2018-09-24"));
  CHECK(nccl("2018-09-25")->version == Version{2, 3, 5});
  CHECK(nccl("2019-06-24")->version == Version{2, 4, 7});
  CHECK(nccl("2019-06-25")->version == Version{2, 4, 8});  // the multi-socket transport (7c72dee)
  CHECK(nccl("2023-10-15")->version == Version{2, 19, 3});  // not 2.18.6, tagged later but older
  CHECK(nccl("2024-04-02")->version == Version{2, 21, 5});  // the default stack's
  const auto ofi = [](const char* d) { return release_as_of(aws_ofi_nccl_releases(), date(d)); };
  CHECK_FALSE(ofi("2018-11-25"));
  CHECK(ofi("2019-06")->version == Version{0, 9, 2});
  CHECK(ofi("2023-04-21")->version == Version{1, 6, 0});  // the first to set NCCL_PROTO=simple
  CHECK(ofi("2024-12-11")->version == Version{1, 13, 2});  // the default stack's
}

TEST_CASE("software era: as_of fills what the scenario does not name, and says so")
{
  const std::string base = "name: t\ncluster:\n  instance: p3.16xlarge\n  nodes: [1, 16]\nmodel:\n  preset: resnet101\n"
                           "training:\n  framework: horovod\n  batch_per_gpu: 64\n  samples: 128000\n";
  const auto load = [&](const std::string& software, const std::string& training = "") {
    return app::parse_scenario("s.yaml", base + training + "software:\n" + software, catalog());
  };
  // 2018-10: NCCL 2.3.5 (one TCP socket per connection), no aws-ofi-nccl, Horovod's pre-2020 defaults.
  sim::ScenarioSpec s = load("  as_of: 2018-10\n");
  CHECK(s.cluster.instance.nccl == Version{2, 3, 5});
  CHECK(s.cluster.instance.nic.flows_per_connection == 1);
  CHECK(s.training.horovod == sim::HorovodDefaults::pre_2020);
  CHECK(s.cluster.software_stated);
  CHECK(joined(s.cluster.software_notes).find("NCCL 2.3.5, its newest release by then") != std::string::npos);
  CHECK(joined(s.cluster.software_notes).find("no aws-ofi-nccl") != std::string::npos);
  // Before NCCL's first public source: priced as 2.3.5, and the note says why.
  s = load("  as_of: 2018-03-01\n");
  CHECK(s.cluster.instance.nccl == Version{2, 3, 5});
  CHECK(joined(s.cluster.software_notes).find("binary releases before it (2.0-2.2") != std::string::npos);
  // After NCCL 2.4.8 on an AWS NIC: 2 x 8 sockets; after Horovod v0.21.0: its post-2020 defaults.
  s = load("  as_of: 2021-01\n");
  CHECK(s.cluster.instance.nccl == Version{2, 8, 3});
  CHECK(s.cluster.instance.nic.flows_per_connection == 16);
  CHECK(s.training.horovod == sim::HorovodDefaults::post_2020);
  // A named release and named Horovod defaults win over the date.
  s = load("  as_of: 2018-10\n  nccl: 2.4.8\n", "  horovod: {defaults: post-2020}\n");
  CHECK(s.cluster.instance.nccl == Version{2, 4, 8});
  CHECK(s.training.horovod == sim::HorovodDefaults::post_2020);
  CHECK(joined(s.cluster.software_notes).find("NCCL 2.4.8 (stated)") != std::string::npos);
  // The same stack named or dated prices the same.
  const sim::ScenarioReport dated = sim::predict(load("  as_of: 2018-10-24\n"));
  const sim::ScenarioReport named = sim::predict(load("  nccl: 2.3.7\n  aws_ofi_nccl: none\n", "  horovod: {defaults: pre-2020}\n"));
  REQUIRE(dated.results.size() == 2);
  CHECK(dated.results[1].step_time_s == named.results[1].step_time_s);
  CHECK(dated.results[1].step_time_s > 1.5 * sim::predict(load("  nccl: 2.21.5\n")).results[1].step_time_s);  // one 5 Gbps flow
  CHECK(std::find(dated.notes.begin(), dated.notes.end(), load("  as_of: 2018-10-24\n").cluster.software_notes.at(0)) != dated.notes.end());
  // What the date's release lacks is refused at its key, naming the date as a cause.
  CHECK_THROWS_WITH(load("  as_of: 2018-10\n", "communication:\n  algorithm: tree\n"),
                    Catch::Contains("communication.algorithm") && Catch::Contains("NCCL 2.3.5 (software.nccl or software.as_of)"));
  // A bad date is an error at its field.
  CHECK_THROWS_WITH(load("  as_of: June 2019\n"), Catch::Contains("software.as_of") && Catch::Contains("not a date"));
  CHECK_THROWS_WITH(load("  as_of: 2019-02-30\n"), Catch::Contains("s.yaml:"));
}

TEST_CASE("software era: ddpsim collective's --software takes as_of")
{
  TransportSpec t = app::parse_transport_option("--software", "as_of=2019-07,aws_ofi_nccl=none");
  CHECK(t.software.nccl == Version{2, 4, 8});
  CHECK(t.software.aws_ofi_nccl == "none");
  CHECK(app::as_of_note(t).find("aws-ofi-nccl none (stated)") != std::string::npos);
  CHECK(app::as_of_note(t, /*horovod=*/false).find("Horovod") == std::string::npos);
  t = app::parse_transport_option("--software", "nccl=2.4.6,as_of=2024-06");  // order does not matter
  CHECK(t.software.nccl == Version{2, 4, 6});
  CHECK(t.software.aws_ofi_nccl == "1.9.1");
  CHECK_THROWS_WITH(app::parse_transport_option("--software", "as_of=2019"), Catch::Contains("as_of=2019") && Catch::Contains("not a date"));
  CHECK(app::as_of_note(app::parse_transport_option("--software", "nccl=2.4.6")).empty());
}
