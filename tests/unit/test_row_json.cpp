// Issue 17: shard rows as JSON (sim/study/row_json.hpp) come back bit for bit, whatever the
// values (non-finite and negative-zero doubles, strings that are not UTF-8, missing optionals),
// and a row of another shape is refused naming the position.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sim/study/row_json.hpp"
#include "sim/study/sweep.hpp"

using namespace ddpsim;

namespace {

sim::ConfigResult sample_row()
{
  sim::ConfigResult r;
  r.instance = "p4d.24xlarge";
  r.nodes = 16;
  r.gpus = 128;
  r.framework = std::string("caf\xc3\xa9 \xff\xfe", 8);  // valid UTF-8, then two bytes that are not
  r.step_time_s = 0.1 + 0.2;                             // not a short decimal
  r.samples_per_s = std::numeric_limits<double>::quiet_NaN();
  r.speedup = std::numeric_limits<double>::infinity();
  r.scaling_efficiency = -std::numeric_limits<double>::infinity();
  r.compute_s = -0.0;
  r.comm_s = std::numeric_limits<double>::denorm_min();
  r.cost_usd = 1e308;
  r.bucket_bytes = {std::uint64_t{1} << 63, 26214400};
  r.buckets.push_back(sim::BucketResult{26214400, "ring", "LL128", 8, 0.01, 0.02, 0.03});
  r.warnings = {"one", ""};
  r.observed_minutes = 42.5;
  r.step_band = {true, 0.25, 0.35};
  r.uncalibrated_step_s = 1.0 / 3;
  r.degraded = {"nic 3 at 50%"};
  // Issue 17: what-if results, one value of each kind (null included).
  r.whatifs.push_back({"resilience", {{"trials", std::int64_t{-3}}, {"expected_time_s", std::monostate{}},
                                      {"storage", std::string("s3")}, {"ok", true}}});
  r.whatifs.push_back({"stragglers", {{"step_s", std::vector<double>{0.5, -0.0}}, {"slowdown", 1.25}}});
  return r;
}

}  // namespace

TEST_CASE("row JSON: a row comes back bit for bit through JSON text", "[shards]")
{
  const sim::ConfigResult r = sample_row();
  const std::string text = sim::row_json(r).dump();
  const sim::ConfigResult back = sim::row_from_json(nlohmann::json::parse(text));
  // The binary codec writes every field's bytes: equal bytes, equal rows.
  CHECK(sim::encode_row(back) == sim::encode_row(r));
  CHECK(back.framework == r.framework);
  CHECK(std::signbit(back.compute_s));
  CHECK(std::isnan(back.samples_per_s));
  REQUIRE(back.whatifs.size() == 2);
  CHECK(back.whatif("resilience")->is_null("expected_time_s"));
  CHECK(back.whatif("resilience")->count("trials") == -3);
  CHECK(back.whatif("stragglers")->series("step_s").size() == 2);
  CHECK(text.find("\"inf\"") != std::string::npos);
}

TEST_CASE("row JSON: a row of another shape is refused with its position", "[shards]")
{
  auto message = [](const nlohmann::json& j) {
    try {
      sim::row_from_json(j);
    } catch (const ValueError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  nlohmann::json j = sim::row_json(sample_row());
  CHECK(message(nlohmann::json::object()) == "row: expected a list");
  nlohmann::json bad = j;
  bad[0][1] = "sixteen";  // nodes
  CHECK(message(bad) == "[0][1]: expected an integer in range");
  bad = j;
  bad[0][1] = std::int64_t{1} << 40;  // nodes is an int
  CHECK(message(bad) == "[0][1]: expected an integer in range");
  bad = j;
  bad.push_back(1);
  CHECK(message(bad).find("more fields than this ddpsim's rows have") != std::string::npos);
  bad = j;
  bad[0].erase(bad[0].size() - 1);
  CHECK(message(bad).find("fewer fields") != std::string::npos);
}
