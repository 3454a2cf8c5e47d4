// The scenario's software stack and placement group (issue 18): `software:` and
// `cluster.placement_group` (docs/scenario.md), read before the cluster so that the instance's
// transport (topology/transport.hpp) is derived before `cluster.overrides` apply.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "app/input/yaml_reader.hpp"
#include "topology/transport.hpp"

namespace ddpsim::app {

TransportSpec read_transport(Reader& r, const YAML::Node& root);

// software.as_of: fills whichever of NCCL, aws-ofi-nccl and libfabric `t` does not name with the
// stack of `d` (topology/software_era.hpp); a named EFA installer decides libfabric instead.
void apply_as_of(TransportSpec& t, Date d);
// What software.as_of resolved to, as a report note ("" without it); `horovod`: say which of
// Horovod's defaults the date implies (a scenario's note; not a single collective's).
std::string as_of_note(const TransportSpec& t, bool horovod = true);

// cluster.pod_network on a node that runs NCCL's socket transport, as a report note ("" otherwise):
// what NCCL opens on the pod's veth. `inst` has the transport applied.
std::string pod_network_note(const TransportSpec& t, const InstanceSpec& inst);
// An aws-ofi-nccl that stripes every message above 8 KiB over a GPU's NICs (1.7.0-1.7.3 on p5,
// topology/transport.hpp), as a report note ("" otherwise): a cost ddpsim does not price.
std::string rail_striping_note(const TransportSpec& t, const InstanceSpec& inst);
// A libfabric before 1.15 under GPUDirect over EFA (topology/transport.hpp efa_gpu_read_protocol),
// as a report note ("" otherwise): which release, whether stated, and what it adds per network hop.
std::string libfabric_note(const TransportSpec& t, const InstanceSpec& inst);
// A note where GPU messages above one eager packet cross EFA by libfabric's read protocols, not
// priced (efa_mid_size_read_unpriced, topology/transport.hpp), else "".
std::string mid_size_read_note(const TransportSpec& t, const InstanceSpec& inst);
// Where the nodes' libfabric release came from, as the notes say it: "stated", "of EFA installer
// 1.11.2; ..." (software.efa_installer, and which listed installer it was read from), "software.as_of",
// or NCCL's era.
std::string libfabric_origin(const TransportSpec& t);

// `ddpsim collective`'s spelling: "nccl=2.4.6,aws_ofi_nccl=none,placement_group=true,nccl_buffsize=8M".
// Throws UserError naming `option` on a bad entry.
TransportSpec parse_transport_option(const std::string& option, const std::string& text);

}  // namespace ddpsim::app
