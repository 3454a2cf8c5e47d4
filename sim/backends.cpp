#include "sim/backends.hpp"

#include "core/error.hpp"
#include "sim/analytical.hpp"

namespace ddpsim::sim {

std::string_view to_string(EngineKind k)
{
  switch (k) {
    case EngineKind::analytical: return "analytical";
  }
  return "?";
}

std::vector<std::string> engine_names() { return {"analytical"}; }

EngineKind parse_engine(std::string_view name)
{
  if (name == "analytical") return EngineKind::analytical;
  std::string valid;
  for (const std::string& n : engine_names()) valid += (valid.empty() ? "" : ", ") + n;
  throw UserError("unknown engine \"" + std::string(name) + "\" (valid: " + valid + ")");
}

std::unique_ptr<NetworkBackend> make_backend(EngineKind kind, const Topology& topo)
{
  switch (kind) {
    case EngineKind::analytical: return std::make_unique<AnalyticalBackend>(topo);
  }
  DDPSIM_CHECK(false, "unhandled engine kind");
  return nullptr;
}

}  // namespace ddpsim::sim
