// nccl-tests logs (text and CSV), then the fit: a parsed log either fits (and its profile loads
// back) or is refused with a UserError; never an internal error, a huge topology or a NaN.
#include <string>

#include "app/input/catalog_loader.hpp"
#include "app/input/profile_io.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/nccl_log.hpp"
#include "fuzz_common.hpp"
#include "sim/network/guards.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const app::Catalog catalog = app::builtin_catalog();
  const std::string text(reinterpret_cast<const char*>(data), size);
  calibrate::NcclLog log;
  if (!fuzz::accepts([&] { log = calibrate::parse_nccl_log("fuzz.txt", text); })) return 0;
  if (log.ranks < 1 || log.ranks > calibrate::kMaxLogRanks) fuzz::finding("rank count out of range");
  const InstanceSpec& inst = catalog.at("p4d.24xlarge");
  sim::Profile prof;
  const bool fitted = fuzz::accepts([&] {
    const auto [nodes, gpn] = calibrate::log_shape(inst, log);
    if (static_cast<std::int64_t>(nodes) * gpn > 4096) return;  // keep each input fast
    sim::check_resources(nodes, gpn, sim::EngineKind::analytical, sim::Workload::collective, {}, "ranks");
    prof = calibrate::fit_profile(inst, {log});
    try {
      app::parse_profile("fit.yaml", app::profile_yaml(prof));
    } catch (const UserError& e) {
      fuzz::finding(std::string("calibrate fit wrote a profile that does not load back: ") + e.what());
    }
  });
  (void)fitted;
  return 0;
}
