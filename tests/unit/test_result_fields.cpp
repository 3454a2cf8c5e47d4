// Issue 17: a result row serialized once, from the field list (app/output/result_fields.hpp).
#include <catch2/catch.hpp>

#include "app/output/result_fields.hpp"

using namespace ddpsim;

TEST_CASE("result fields: JSON keys in list order, absent values left out, rows that do not fit have null totals")
{
  sim::ConfigResult r;
  r.instance = "p4d.24xlarge";
  r.total_time_s = 12.5;
  r.cost_usd = 3;
  app::Json j = app::result_json(r);
  std::vector<std::string> keys, listed;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  for (const app::ResultField& f : app::result_fields())
    if (f.json && !f.json(r).is_discarded()) listed.push_back(f.name);
  CHECK(keys == listed);
  CHECK(j["total_time_s"] == 12.5);
  CHECK_FALSE(j.contains("stragglers"));  // no what-if: no key
  CHECK_FALSE(j.contains("step_time_s_p10"));
  r.fits = false;
  j = app::result_json(r);
  CHECK(j["total_time_s"].is_null());
  CHECK(j["cost_usd"].is_null());
  app::Json part;
  app::put_result_fields(part, r, {"bound", "nodes"});
  CHECK(part.dump() == R"({"bound":"","nodes":0})");
}

TEST_CASE("result fields: CSV columns in their places, what-if columns only when a row has them")
{
  sim::ConfigResult a;
  a.instance = "x,y";  // quoted
  a.step_time_s = 0.1234567891234;
  const std::string plain = app::results_csv({a});
  const std::string head = plain.substr(0, plain.find('\n'));
  CHECK(head.rfind("instance,nodes,gpus,framework,backend,algorithm,step_time_s,samples_per_s,steps,", 0) == 0);
  CHECK(head.size() > 30);
  CHECK(head.substr(head.size() - 16) == "mfu,tokens_per_s");
  CHECK(plain.find("\"x,y\",0,0,,,,0.123456789,") != std::string::npos);
  sim::ConfigResult b = a;
  b.whatifs.push_back({"stragglers", {{"step_p50_s", 2.0}, {"step_p99_s", 0.0}, {"step_mean_s", 0.0}, {"sync_wait_mean_s", 0.0}}});
  const std::string both = app::results_csv({a, b});
  CHECK(both.find(",straggler_step_p50_s,straggler_step_p99_s,straggler_step_mean_s,sync_wait_mean_s\n") != std::string::npos);
  const auto first_row = both.substr(both.find('\n') + 1);
  CHECK(first_row.substr(0, first_row.find('\n')).size() >= 4);
  CHECK(first_row.find(",,,,\n") != std::string::npos);  // a's straggler cells are empty
  CHECK(both.find(",2,0,0,0\n") != std::string::npos);    // b's
}
