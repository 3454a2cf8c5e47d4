#include "sim/network/backends.hpp"

#include "core/error.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/flow_backend.hpp"

namespace ddpsim::sim {

std::string_view to_string(EngineKind k)
{
  switch (k) {
    case EngineKind::analytical: return "analytical";
    case EngineKind::flow: return "flow";
  }
  return "?";
}

std::vector<std::string> engine_names() { return {"analytical", "flow"}; }

EngineKind parse_engine(std::string_view name)
{
  if (name == "analytical") return EngineKind::analytical;
  if (name == "flow") return EngineKind::flow;
  std::string valid;
  for (const std::string& n : engine_names()) valid += (valid.empty() ? "" : ", ") + n;
  throw UserError("unknown engine \"" + std::string(name) + "\" (valid: " + valid + ")");
}

std::unique_ptr<NetworkBackend> make_backend(EngineKind kind, const Topology& topo)
{
  switch (kind) {
    case EngineKind::analytical: return std::make_unique<AnalyticalBackend>(topo);
    case EngineKind::flow: return std::make_unique<FlowBackend>(topo);
  }
  DDPSIM_CHECK(false, "unhandled engine kind");
  return nullptr;
}

}  // namespace ddpsim::sim
