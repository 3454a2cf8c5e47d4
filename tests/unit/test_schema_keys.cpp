// docs/scenario.schema.json and the loaders' key lists (app/input/scenario_keys.cpp) name the same keys
// at every path, both ways: a key added to one and not the other fails here (issue 11 item 6).
// The examples' validation against the schema is tests/schema/validate.py (CTest schema.examples).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "app/input/catalog_loader.hpp"
#include "app/input/scenario_keys.hpp"
#include "app/input/scenario_loader.hpp"
#include "core/error.hpp"

namespace {

using nlohmann::json;

json load_schema()
{
  std::ifstream in(std::string(DDPSIM_SOURCE_DIR) + "/docs/scenario.schema.json");
  REQUIRE(in.good());
  return json::parse(in);
}

// The object schema inside `s`: itself, or the anyOf branch that has properties.
const json* object_of(const json& s)
{
  if (s.contains("properties")) return &s;
  if (s.contains("anyOf"))
    for (const json& b : s["anyOf"])
      if (b.contains("properties")) return &b;
  return nullptr;
}

// Every object schema with properties, by the key table's path syntax ("a.b", "a.list[]").
void collect(const json& s, const std::string& path, std::map<std::string, std::set<std::string>>& out)
{
  if (const json* o = object_of(s)) {
    std::set<std::string>& keys = out[path];
    for (const auto& [k, v] : (*o)["properties"].items()) {
      keys.insert(k);
      collect(v, path.empty() ? k : path + "." + k, out);
    }
  }
  if (s.contains("items") && s["items"].is_object()) collect(s["items"], path + "[]", out);
}

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("schema: the schema and the loaders' key lists agree, path by path", "[schema]")
{
  std::map<std::string, std::set<std::string>> schema;
  collect(load_schema(), "", schema);
  // Framework maps (SageMaker's distribution) are the launcher's keys, not ddpsim's.
  std::map<std::string, std::set<std::string>> table;
  for (const auto& [path, keys] : ddpsim::app::scenario_key_table()) table[path] = as_set(keys);
  for (const auto& [path, keys] : table) {
    INFO("loader path \"" << path << "\"");
    REQUIRE(schema.count(path) == 1);
    CHECK(schema.at(path) == keys);
  }
  for (const auto& [path, keys] : schema) {
    INFO("schema path \"" << path << "\"");
    CHECK(table.count(path) == 1);
  }
}

TEST_CASE("schema: the loader rejects a key the table does not list and accepts every listed top-level key", "[schema]")
{
  const auto& catalog = ddpsim::app::builtin_catalog();
  const std::string base = "name: t\ncluster: {instance: p4d.24xlarge, nodes: 1}\nmodel: {preset: resnet50}\n"
                           "training: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 1000}\n";
  CHECK_NOTHROW(ddpsim::app::parse_scenario("t.yaml", base + "engine: flow\n", catalog));
  CHECK(ddpsim::app::parse_scenario("t.yaml", base + "engine: flow\n", catalog).engine == "flow");
  CHECK_THROWS_WITH(ddpsim::app::parse_scenario("t.yaml", base + "engin: flow\n", catalog),
                    Catch::Contains("engin") && Catch::Contains("t.yaml:5:1"));
  CHECK_THROWS_WITH(ddpsim::app::parse_scenario("t.yaml", base + "engine: fast\n", catalog), Catch::Contains("engine"));
  CHECK_THROWS_AS(ddpsim::app::scenario_keys("no.such.section"), ddpsim::InternalError);
}

TEST_CASE("schema: every enum value of issue 19's keys is one the loader accepts, and no other", "[schema]")
{
  const auto& catalog = ddpsim::app::builtin_catalog();
  const json schema = load_schema();
  const auto props = [&](const char* section) { return schema["properties"][section]["properties"]; };
  const std::vector<std::tuple<std::string, std::string, json>> keys{
      {"training", "precision", props("training")["precision"]["enum"]},
      {"training", "comm_hook", props("training")["comm_hook"]["enum"]},
      {"model", "attention", props("model")["attention"]["enum"]},
      {"model", "kernels", props("model")["kernels"]["enum"]}};
  for (const auto& [section, key, values] : keys) {
    REQUIRE(values.size() >= 2);
    std::vector<std::string> all = values.get<std::vector<std::string>>();
    all.push_back("no-such-value");
    for (const std::string& v : all) {
      std::string model = "model: {preset: gpt2, seq_len: 128}\n";
      std::string training = "training: {framework: pytorch-ddp, batch_per_gpu: 8, samples: 1000}\n";
      std::string& text = section == "model" ? model : training;
      text.insert(text.size() - 2, ", " + key + ": " + v);
      const std::string s = "name: t\ncluster: {instance: p4d.24xlarge, nodes: 1}\n" + model + training;
      INFO(s);
      if (v == "no-such-value") CHECK_THROWS_WITH(ddpsim::app::parse_scenario("t.yaml", s, catalog), Catch::Contains(key));
      else CHECK_NOTHROW(ddpsim::app::parse_scenario("t.yaml", s, catalog));
    }
  }
}
