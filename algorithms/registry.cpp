#include "algorithms/registry.hpp"

#include "algorithms/allreduce_direct.hpp"
#include "algorithms/allreduce_hierarchical.hpp"
#include "algorithms/allreduce_nvls.hpp"
#include "algorithms/allreduce_rd.hpp"
#include "algorithms/allreduce_rhd.hpp"
#include "algorithms/allreduce_ring.hpp"
#include "algorithms/allreduce_sharp.hpp"
#include "algorithms/herring.hpp"
#include "algorithms/parameter_server.hpp"
#include "algorithms/allreduce_tree.hpp"
#include "algorithms/broadcast_ring.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {

Registry::Registry()
{
  add(std::make_unique<RingAllReduce>());
  add(std::make_unique<HerringAllReduce>());
  add(std::make_unique<ParameterServerAllReduce>());
  add(std::make_unique<TreeAllReduce>());
  add(std::make_unique<RecursiveHalvingDoubling>());
  add(std::make_unique<RecursiveDoubling>());
  add(std::make_unique<HierarchicalAllReduce>());
  add(std::make_unique<DirectAllReduce>());
  add(std::make_unique<NvlsAllReduce>());
  add(std::make_unique<SharpAllReduce>());
  add(std::make_unique<RingBroadcast>());
}

const Registry& Registry::instance()
{
  static const Registry registry;  // immutable after construction
  return registry;
}

void Registry::add(std::unique_ptr<Algorithm> a)
{
  DDPSIM_CHECK(find(a->name()) == nullptr, "algorithm registered twice: " + std::string(a->name()));
  algorithms_.push_back(std::move(a));
}

const Algorithm* Registry::find(std::string_view name) const
{
  for (const auto& a : algorithms_)
    if (a->name() == name) return a.get();
  return nullptr;
}

const Algorithm& Registry::get(std::string_view name) const
{
  if (const Algorithm* a = find(name)) return *a;
  std::string valid;
  for (std::string_view n : names()) valid += (valid.empty() ? "" : ", ") + std::string(n);
  throw UserError("unknown algorithm \"" + std::string(name) + "\" (valid: " + valid + ")");
}

std::vector<std::string_view> Registry::names() const
{
  std::vector<std::string_view> out;
  for (const auto& a : algorithms_) out.push_back(a->name());
  return out;
}

}  // namespace ddpsim::algo
