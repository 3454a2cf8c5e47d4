#include "sim/network/profile.hpp"

namespace ddpsim::sim {

Profile default_profile(const std::string& instance)
{
  Profile p;
  p.instance = instance;
  p.provenance.method = "catalog line rates, no fitted terms";
  return p;
}

}  // namespace ddpsim::sim
