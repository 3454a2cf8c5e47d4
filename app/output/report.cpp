#include "app/output/report.hpp"

namespace ddpsim::app {

std::string scenario_json(const sim::ScenarioReport& rep)
{
  Json j;
  j["scenario"] = rep.scenario;
  j["description"] = rep.description;
  j["engine"] = rep.engine;
  if (rep.granularity != "coarse") j["granularity"] = rep.granularity;  // issue 21: --granularity step
  j["model"] = rep.model;
  j["parameters"] = rep.parameters;
  j["price_source"] = rep.price_source;
  j["profile"] = rep.profile_source;
  j["notes"] = rep.notes;
  j["results"] = Json::array();
  for (const auto& r : rep.results) j["results"].push_back(result_json(r));  // the field list: result_fields.cpp
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string scenario_csv(const sim::ScenarioReport& rep) { return results_csv(rep.results); }

}  // namespace ddpsim::app
