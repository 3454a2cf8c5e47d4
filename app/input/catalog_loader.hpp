// The instance catalog (topology/catalog/instances.yaml, embedded at build time) parsed into
// sim::Catalog (sim/study/catalog.hpp), and scenario overrides applied with the same field readers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/input/yaml_reader.hpp"
#include "sim/study/catalog.hpp"
#include "sim/study/scenario.hpp"
#include "topology/instance.hpp"

namespace ddpsim::app {

// A stated range for a catalog value marked [assume] (instances.yaml `assumed_ranges`).
using AssumedRange = sim::AssumedRange;
using Catalog = sim::Catalog;

// The catalog compiled into this binary. Parsed once per call; throws InternalError when the
// embedded data is broken (a build problem, not the user's).
Catalog builtin_catalog();
// A catalog from YAML text (tests use it).
Catalog parse_catalog(const std::string& name, const std::string& text);

// Reads the instance fields present in `node` into `spec`. With `require_all`, every field must
// be present (catalog entries); without it, only the given ones change (cluster.overrides).
void read_instance_fields(Reader& r, const YAML::Node& node, const std::string& path, const Catalog& catalog,
                          InstanceSpec& spec, bool require_all);

}  // namespace ddpsim::app
