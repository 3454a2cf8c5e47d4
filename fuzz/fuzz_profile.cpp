// Calibration profiles: parse, and a parsed profile must write and load back to the same numbers.
#include <string>

#include "app/input/profile_io.hpp"
#include "fuzz_common.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string text(reinterpret_cast<const char*>(data), size);
  sim::Profile p;
  if (!fuzz::accepts([&] { p = app::parse_profile("fuzz.yaml", text); })) return 0;
  sim::Profile back;
  if (!fuzz::accepts([&] { back = app::parse_profile("again.yaml", app::profile_yaml(p)); }))
    fuzz::finding("a loaded profile does not load back once written");
  return 0;
}
