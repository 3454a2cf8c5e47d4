// A what-if from its name, stage, spec and a function of them (whatif.hpp): how the what-ifs of
// this folder build their sim::WhatIf, so that each writes only its model.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "sim/study/whatifs/whatif.hpp"

namespace ddpsim::sim {

template <class Spec>
using WhatIfRun = WhatIfResult (*)(const Spec& spec, const WhatIfInput& in);

template <class Spec>
class SpecWhatIf final : public WhatIf {
 public:
  SpecWhatIf(std::string name, Stage stage, Spec spec, WhatIfRun<Spec> run_fn)
      : name_(std::move(name)), stage_(stage), spec_(std::move(spec)), run_(run_fn)
  {
  }
  std::string_view name() const override { return name_; }
  Stage stage() const override { return stage_; }
  WhatIfResult run(const WhatIfInput& in) const override { return run_(spec_, in); }

 private:
  std::string name_;
  Stage stage_;
  Spec spec_;
  WhatIfRun<Spec> run_;
};

template <class Spec>
std::shared_ptr<const WhatIf> make_whatif(std::string name, WhatIf::Stage stage, Spec spec, WhatIfRun<Spec> run)
{
  return std::make_shared<SpecWhatIf<Spec>>(std::move(name), stage, std::move(spec), run);
}

}  // namespace ddpsim::sim
