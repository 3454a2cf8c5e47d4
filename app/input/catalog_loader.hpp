// The instance catalog (topology/catalog/instances.yaml, embedded at build time) parsed into
// InstanceSpec structs, and scenario overrides applied with the same field readers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/input/yaml_reader.hpp"
#include "topology/instance.hpp"

namespace ddpsim::app {

// A stated range for a catalog value marked [assume] (instances.yaml `assumed_ranges`).
struct AssumedRange {
  std::string field;                   // e.g. "nic.latency"
  std::string knob;                    // the calibrate/knobs.hpp knob that sets it
  std::vector<std::string> instances;  // whose value is an assumption
  double low = 1, high = 1;            // factors on the instance's value
  std::string why;
};

struct Catalog {
  std::map<std::string, GpuSpec> gpus;
  std::vector<InstanceSpec> instances;  // in catalog order
  std::vector<AssumedRange> assumed;

  // By name; SageMaker's "ml." prefix is accepted. nullptr when unknown.
  const InstanceSpec* find(std::string_view name) const;
  // By name; throws UserError("--instance: unknown instance ... (did you mean ...?)") when unknown.
  const InstanceSpec& at(std::string_view name) const;
  std::vector<std::string> names() const;
};

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
