// The instance catalog (topology/catalog/instances.yaml and scenario overrides use the same reader).
#include <string>

#include "app/input/catalog_loader.hpp"
#include "fuzz_common.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::accepts([&] { app::parse_catalog("fuzz.yaml", text); });
  return 0;
}
