// Choosing a network backend by name. Every caller (scenario, collective) goes through here, so
// a new backend is one entry in backends.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/network/network.hpp"

namespace ddpsim::sim {

enum class EngineKind { analytical, flow };
std::string_view to_string(EngineKind k);
// Names accepted by --engine, in order.
std::vector<std::string> engine_names();
// Throws UserError naming the valid engines.
EngineKind parse_engine(std::string_view name);

std::unique_ptr<NetworkBackend> make_backend(EngineKind kind, const Topology& topo);

}  // namespace ddpsim::sim
