// The sections of a scenario file after `cluster:` (model, training, compute, data, communication,
// overheads), each read into its spec by scenario_loader.cpp's parse_scenario_node.
#pragma once

#include "app/input/catalog_loader.hpp"
#include "app/input/yaml_reader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// "" when `path` names a regular file, else why not (never throws; used for every path a scenario names).
std::string missing_file(const std::string& path);

void read_model(Reader& r, const YAML::Node& n, const Catalog& catalog, sim::ModelSpec& m);
void read_overheads(Reader& r, const YAML::Node& n, sim::OverheadSpec& o);
void read_training(Reader& r, const YAML::Node& n, sim::TrainingSpec& t);
void read_compute(Reader& r, const YAML::Node& n, sim::ComputeParams& c);
void read_data(Reader& r, const YAML::Node& n, sim::DataSpec& d);
void read_communication(Reader& r, const YAML::Node& n, sim::CommunicationSpec& c);

}  // namespace ddpsim::app
