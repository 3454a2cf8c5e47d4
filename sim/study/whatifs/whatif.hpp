// A what-if (issue 17): a model run on top of each configuration's nominal prediction, its
// result a list of named, typed fields. The scenario file's section builds the model (app/whatifs/),
// sim::run_scenario runs it (scenario.cpp), and every writer shows its fields by name (JSON, CSV,
// tables, HTML: app/whatifs/whatif_view.hpp), so a new what-if is one file pair here
// (sim/study/whatifs/NAME.{hpp,cpp}, picked up by sim/CMakeLists.txt's glob) and one file in
// app/whatifs/ (docs/architecture.md, "Adding a what-if").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/units.hpp"

namespace ddpsim::sim {

struct ScenarioSpec;
struct ConfigResult;
struct IterationResult;

// A field's value: a flag, a count, a number, a text, a series (e.g. one value per step), or
// null (std::monostate: e.g. an expected time of a configuration that cannot run).
using WhatIfValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>, std::monostate>;

struct WhatIfField {
  std::string name;
  WhatIfValue value;
};

// One what-if's result for one configuration.
struct WhatIfResult {
  std::string name;  // the what-if's name (WhatIf::name)
  std::vector<WhatIfField> fields;
  std::vector<std::string> warnings{};  // moved to the row's warnings by run_whatifs

  const WhatIfValue* find(std::string_view field) const;  // nullptr when absent
  double number(std::string_view field) const;             // a count or a number; InternalError when absent
  bool is_null(std::string_view field) const;
  std::int64_t count(std::string_view field) const;
  const std::vector<double>& series(std::string_view field) const;
  const std::string& text(std::string_view field) const;
};

// What a what-if sees of a configuration.
struct WhatIfInput {
  const ScenarioSpec& spec;        // the configuration's scenario (with its accumulation and compiler)
  const ConfigResult& result;      // the nominal row (speedup and efficiency set only after the run)
  const IterationResult* step;     // the nominal step (Stage::with_step), nullptr after the run
  Time loader{0};                  // the input pipeline's time per step
  int gpus_per_node = 0;
};

class WhatIf {
 public:
  // with_step: in the configuration's own process, beside the nominal step it needs; after_run:
  // in the parent, on the finished row (speedup, efficiency and the job's total known).
  enum class Stage { with_step, after_run };
  virtual ~WhatIf() = default;
  virtual std::string_view name() const = 0;
  virtual Stage stage() const = 0;
  virtual WhatIfResult run(const WhatIfInput& in) const = 0;
};

using WhatIfs = std::vector<std::shared_ptr<const WhatIf>>;

// Runs the what-ifs of `stage` on `row` (in.result) and appends their results to row.whatifs and
// their warnings to row.warnings, in the scenario's order.
void run_whatifs(const WhatIfs& whatifs, WhatIf::Stage stage, const WhatIfInput& in, ConfigResult& row);

// A row's result of the what-if `name`, or nullptr.
const WhatIfResult* find_whatif(const std::vector<WhatIfResult>& results, std::string_view name);

}  // namespace ddpsim::sim
