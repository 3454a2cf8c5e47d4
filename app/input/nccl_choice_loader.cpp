#include "app/input/nccl_choice_loader.hpp"

#include <map>

namespace ddpsim::app {

// NCCL_ALGO / NCCL_PROTO spellings and the tuner plugin (issue 18; algorithms/aws_ofi_tuner.hpp).
void read_nccl_choice(Reader& r, const YAML::Node& n, sim::CommunicationSpec& c)
{
  const std::map<std::string, std::string> algos{{"Ring", "ring"}, {"Tree", "tree"}, {"NVLS", "nvls"}, {"NVLSTree", "nvls"}};
  std::vector<std::string> algo_names;
  for (const auto& [k, v] : algos) algo_names.push_back(k);
  if (auto a = r.choice(n, "communication", "nccl_algo", false, algo_names)) {
    if (n["algorithm"] && c.algorithm != algos.at(*a))
      r.error(n["nccl_algo"], "communication.nccl_algo", "contradicts communication.algorithm \"" + c.algorithm + "\"");
    c.algorithm = algos.at(*a);
  }
  if (auto p = r.choice(n, "communication", "nccl_proto", false, {"LL", "LL128", "Simple"})) {
    algo::Protocol proto = algo::Protocol::simple;
    algo::parse_protocol(*p, proto);
    c.protocol = proto;
  }
  if (auto t = r.choice(n, "communication", "tuner", false, {"aws-ofi", "nccl", "none"})) algo::parse_tuner(*t, c.tuner);
}

}  // namespace ddpsim::app
