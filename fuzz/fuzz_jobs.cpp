// Shared fabrics (`jobs:`): the multi-job loader, then for small clusters the analytical run and
// its renderers. A UserError or finite numbers, never an internal error.
#include <string>

#include "app/input/multijob_loader.hpp"
#include "app/output/multijob_report.hpp"
#include "app/input/yaml_reader.hpp"
#include "fuzz_common.hpp"
#include "sim/study/multijob.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const app::Catalog catalog = app::builtin_catalog();
  const std::string text(reinterpret_cast<const char*>(data), size);
  sim::MultiJobSpec spec;
  if (!fuzz::accepts([&] { spec = app::parse_multijob("fuzz.yaml", app::parse_yaml("fuzz.yaml", text), catalog); }))
    return 0;
  const std::int64_t gpus = static_cast<std::int64_t>(spec.nodes) * (spec.gpus_per_node > 0 ? spec.gpus_per_node : spec.instance.gpus);
  if (gpus > 256 || spec.jobs.size() > 8) return 0;
  fuzz::accepts([&] {
    const sim::MultiJobReport rep = sim::run_multijob(spec, sim::EngineKind::analytical);
    for (const std::string& out : {app::multijob_table(rep), app::multijob_csv(rep), app::multijob_json(rep)})
      fuzz::check_printed(out, text);
  });
  return 0;
}
