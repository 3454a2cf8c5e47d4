// The instance catalog as data (topology/catalog/instances.yaml, read by app/input/catalog_loader):
// GPUs, instances, the [assume] ranges and SageMaker's rates, with lookups by name.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/study/scenario.hpp"
#include "topology/instance.hpp"

namespace ddpsim::sim {

struct Catalog {
  std::map<std::string, GpuSpec> gpus;
  std::vector<InstanceSpec> instances;  // in catalog order
  std::vector<AssumedRange> assumed;
  struct Price {
    double usd_per_hour = 0;
    std::string source;
  };
  std::map<std::string, Price> sagemaker;  // issue 20: "ml.p3.16xlarge" -> SageMaker's own on-demand rate

  // Sets `spec`'s price for the name the user gave: SageMaker's rate for an ml.* name where the
  // catalog has one; for an ml.* name without one, the EC2 rate with a source that says so.
  void price_for(const std::string& name, InstanceSpec& spec) const;

  // By name; SageMaker's "ml." prefix is accepted. nullptr when unknown.
  const InstanceSpec* find(std::string_view name) const;
  // By name; throws UserError("--instance: unknown instance ... (did you mean ...?)") when unknown.
  const InstanceSpec& at(std::string_view name) const;
  std::vector<std::string> names() const;
  // The [assume] ranges that hold for an instance: dimensions of its prediction intervals.
  std::vector<AssumedRange> assumed_for(std::string_view instance) const;
};

}  // namespace ddpsim::sim
