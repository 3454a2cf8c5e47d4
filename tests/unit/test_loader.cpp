// Scenario YAML validation: every bad input is a UserError naming file, line, column and field.
#include <catch2/catch.hpp>
#include "support.hpp"
#include <fstream>
#include <sstream>

#include "app/input/scenario_loader.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/model_zoo.hpp"

using namespace ddpsim;

namespace {

using test::catalog;

const char* kGood = R"(name: t
cluster:
  instance: p4d.24xlarge
  nodes: [1, 2]
model:
  preset: resnet50
training:
  framework: pytorch-ddp
  batch_per_gpu: 32
  samples: 1000
)";

std::string error_of(const std::string& text)
{
  try {
    app::parse_scenario("s.yaml", text, catalog());
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

std::string replace(std::string text, const std::string& from, const std::string& to)
{
  auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("a good scenario loads into typed structs")
{
  sim::ScenarioSpec s = app::parse_scenario("s.yaml", kGood, catalog());
  CHECK(s.cluster.nodes == std::vector<int>{1, 2});
  CHECK(s.cluster.instance.gpus == 8);
  CHECK(s.model.parameter_count() == 25'557'032);
  CHECK(s.training.bucket_cap.n == 25 * MiB);
}

TEST_CASE("every example scenario loads")
{
  for (const char* f : {"p3_8node.yaml"}) {
    INFO(f);
    CHECK_NOTHROW(app::load_scenario(std::string(DDPSIM_SOURCE_DIR) + "/scenarios/" + f, catalog()));
  }
}

TEST_CASE("bad scenarios: one clear line with file, line, column and field")
{
  CHECK(error_of("cluster: [") .rfind("s.yaml:", 0) == 0);
  CHECK_THAT(error_of("cluster: ["), Catch::Contains("not valid YAML"));
  CHECK_THAT(error_of(""), Catch::Contains("s.yaml:1:1: error: the file is empty"));
  CHECK_THAT(error_of("- a\n- b\n"), Catch::Contains("expected a map"));
  CHECK_THAT(error_of(replace(kGood, "  batch_per_gpu: 32\n", "")),
             Catch::Contains("s.yaml:8:3: error: training.batch_per_gpu: missing"));
  CHECK_THAT(error_of(replace(kGood, "batch_per_gpu: 32", "batch_per_gpu: lots")),
             Catch::Contains("s.yaml:9:18: error: training.batch_per_gpu: expected a whole number"));
  CHECK_THAT(error_of(replace(kGood, "  samples: 1000", "  sampels: 1000")),
             Catch::Contains("training.sampels: unknown key (did you mean \"samples\"?)"));
  CHECK_THAT(error_of(replace(kGood, "p4d.24xlarge", "p4d.24xlarg")),
             Catch::Contains("s.yaml:3:13: error: cluster.instance: unknown instance \"p4d.24xlarg\" (did you mean \"p4d.24xlarge\"?)"));
  CHECK_THAT(error_of(replace(kGood, "[1, 2]", "[1, 0]")), Catch::Contains("cluster.nodes: must be between 1 and 65536"));
  CHECK_THAT(error_of(replace(kGood, "[1, 2]", "-4")), Catch::Contains("cluster.nodes: must be between"));
  CHECK_THAT(error_of(replace(kGood, "[1, 2]", "1000000000")), Catch::Contains("s.yaml:4:10: error: cluster.nodes"));
  CHECK_THAT(error_of(replace(kGood, "  nodes: [1, 2]\n", "  nodes: [1]\n  overrides: {nic: {bandwidth: 25}}\n")),
             Catch::Contains("cluster.overrides.nic.bandwidth: the bandwidth \"25\" has no unit"));
  CHECK_THAT(error_of(replace(kGood, "preset: resnet50", "preset: resnet5O")),
             Catch::Contains("model.preset: unknown value \"resnet5O\" (did you mean \"resnet50\"?)"));
}

TEST_CASE("overrides change only the named catalog fields")
{
  sim::ScenarioSpec s = app::parse_scenario(
      "s.yaml", replace(kGood, "  nodes: [1, 2]\n", "  nodes: [1, 2]\n  overrides: {nic: {count: 2, bandwidth: 200Gbps}}\n"),
      catalog());
  CHECK(s.cluster.instance.nic.count == 2);
  CHECK(s.cluster.instance.nic.bandwidth.bytes_per_s == Approx(25e9));
  CHECK(s.cluster.instance.nic.gpudirect);  // untouched
}

TEST_CASE("overrides set a link class's efficiency, and one outside 0 to 1 is an error")
{
  sim::ScenarioSpec s = app::parse_scenario(
      "s.yaml", replace(kGood, "  nodes: [1, 2]\n", "  nodes: [1, 2]\n  overrides: {efficiency: {nic: 0.5}}\n"), catalog());
  CHECK(s.cluster.instance.efficiency.nic == Approx(0.5));
  CHECK(s.cluster.instance.efficiency.nvlink == Approx(0.80));  // the catalog's, untouched
  CHECK_THAT(error_of(replace(kGood, "  nodes: [1, 2]\n", "  nodes: [1, 2]\n  overrides: {efficiency: {nic: 1.5}}\n")),
             Catch::Contains("cluster.overrides.efficiency.nic"));
}

TEST_CASE("HBM runs at the catalog's achievable share, which an override replaces")
{
  // p4d.24xlarge: A100 SXM4 40GB, 1,555 GB/s datasheet x 0.88 achievable (catalog [hbmeff]).
  sim::ScenarioSpec base = app::parse_scenario("s.yaml", kGood, catalog());
  const GpuSpec& gpu = base.cluster.instance.gpu;
  CHECK(gpu.hbm_datasheet.bytes_per_s == Approx(1555e9));
  CHECK(gpu.hbm_efficiency == Approx(0.88));
  CHECK(gpu.hbm.bytes_per_s == Approx(1555e9 * 0.88));

  sim::ScenarioSpec half = app::parse_scenario(
      "s.yaml", replace(kGood, "  nodes: [1, 2]\n", "  nodes: [1, 2]\n  overrides: {efficiency: {hbm: 0.5}}\n"), catalog());
  CHECK(half.cluster.instance.gpu.hbm.bytes_per_s == Approx(1555e9 * 0.5));
  CHECK(half.cluster.instance.efficiency.nvlink == Approx(0.80));  // links untouched
  // Every memory-bound cost follows: the optimizer's sweep takes 0.88 / 0.5 as long.
  const sim::ModelSpec r50 = sim::make_resnet50();
  CHECK(sim::optimizer_time(r50, half.cluster.instance.gpu, sim::Optimizer::sgd).seconds() ==
        Approx(sim::optimizer_time(r50, gpu, sim::Optimizer::sgd).seconds() * 0.88 / 0.5));
  CHECK_THAT(error_of(replace(kGood, "  nodes: [1, 2]\n", "  nodes: [1, 2]\n  overrides: {efficiency: {hbm: 1.5}}\n")),
             Catch::Contains("cluster.overrides.efficiency.hbm"));
}

TEST_CASE("several errors are all reported")
{
  try {
    app::parse_scenario("s.yaml", replace(replace(kGood, "batch_per_gpu: 32", "batch_per_gpu: 0"), "[1, 2]", "[0]"), catalog());
    FAIL("no error");
  } catch (const app::UserErrors& e) {
    CHECK(e.all().size() == 2);
  }
}

TEST_CASE("a missing file is a user error naming it")
{
  CHECK_THROWS_WITH(app::load_scenario("/nonexistent/x.yaml", catalog()), Catch::Contains("/nonexistent/x.yaml"));
}
