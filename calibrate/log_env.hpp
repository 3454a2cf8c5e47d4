// What a nccl-tests log's environment says NCCL ran (issue 18 item 2): NCCL_ALGO,
// NCCL_TREE_THRESHOLD=0 (NCCL before 2.5: ring only), NCCL_PROTO, and the tuner plugin
// (NCCL_TUNER_PLUGIN, or aws-ofi-nccl's tuner named as libnccl-ofi-tuner.so), each as an
// environment line sets it or as NCCL's INFO line reports it ("NCCL_ALGO set by environment to
// Ring."). `calibrate fit` prices each log with that choice and records it (provenance.assumed in
// the profile). Since round 4 session 30 also what NCCL's INFO lines say it ran (channels,
// sockets, GPUDirect; below).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "algorithms/aws_ofi_tuner.hpp"
#include "calibrate/nccl_log.hpp"
#include "topology/instance.hpp"
#include "topology/transport.hpp"

namespace ddpsim::calibrate {

struct LogChoice {
  std::string algorithm = "auto";           // a registry name, or auto
  std::optional<algo::Protocol> protocol;   // NCCL_PROTO, or NCCL's / the tuner's choice
  algo::Tuner tuner = algo::Tuner::aws_ofi;
  std::string why;                          // one line: what was read or assumed, for people
};

// The lines of `text` that set NCCL's choice (kept in NcclLog::environment).
std::string environment_lines(const std::vector<std::string>& lines);

// The choice `log.environment` implies. With nothing said: NCCL's choice as AWS's images make
// it, i.e. aws-ofi-nccl's tuner (bundled in its net plugin, loaded by default since NCCL 2.21:
// aws-ofi-nccl src/Makefile.am), or NCCL's own model when the log's NCCL is older than 2.21.
LogChoice log_choice(const NcclLog& log);

// The value an NCCL_BUFFSIZE setting on this line gives, as written (digits), or nullopt when the
// line sets none: "NCCL_BUFFSIZE=8388608" (an environment the log prints) or NCCL's own INFO line
// "NCCL INFO NCCL_BUFFSIZE set by environment to 8388608." (src/misc/param.cc).
std::optional<std::string> buffsize_setting(const std::string& line);

// The NCCL_BUFFSIZE the log's environment sets (an NCCL_BUFFSIZE=N line, or NCCL's INFO line
// "NCCL_BUFFSIZE set by environment to N"), or nullopt.
std::optional<Bytes> log_buffsize(const NcclLog& log);

// The channels NCCL says it ran ("NCCL INFO N coll channels", printed per rank at init with
// NCCL_DEBUG=INFO; src/init.cc), or nullopt. Across nodes they replace the modelled one per NIC
// (sim/network/collective_model.hpp nccl_channels).
std::optional<int> log_channels(const NcclLog& log);

// True when NCCL's INFO lines say it moved the bytes between nodes over its socket transport
// ("Using network Socket", or connections "via NET/Socket/"; src/init.cc, src/transport/net.cc)
// and never over a net plugin (AWS Libfabric) or InfiniBand: on an EFA instance, EFA unused (no
// aws-ofi-nccl found, e.g. after a NCCL upgrade; aws/aws-ofi-nccl #67).
bool log_ran_sockets(const NcclLog& log);

// Whether NCCL's connections over the EFA plugin used GPUDirect RDMA: NCCL prints each network
// connection "via NET/<plugin>/<dev>", with "/GDRDMA" appended where GPU memory is registered with
// the NIC (src/transport/net.cc). nullopt: no such lines. false on a GPUDirect instance (p4d, p5)
// means the run staged through host memory (FI_EFA_USE_DEVICE_RDMA unset on an older libfabric,
// or a plugin without GDR support).
std::optional<bool> log_gpudirect(const NcclLog& log);

// What a log says NCCL ran, taken into the transport it is priced with: the release its banner
// prints, the NCCL_BUFFSIZE its environment sets, the channels NCCL says it ran, the socket
// transport where it says so on an EFA instance (`nic`), and whether its EFA connections used
// GPUDirect RDMA. A fact `t` already states (the user's --software: t.nccl_stated,
// t.aws_ofi_nccl_stated, t.nccl_buffsize_stated, t.nccl_channels_stated) is left as stated.
struct LogSoftware {
  std::vector<std::string> notes;  // one per fact taken, for people
  bool changed = false;            // some fact was taken into `t`
  bool host_staged = false;        // EFA without GPUDirect RDMA: nic.gpudirect off after apply_transport
};
LogSoftware take_log_software(const NcclLog& log, const NicSpec& nic, TransportSpec& t);

// The instance as the log ran it: a log that prints NCCL's banner ran that release, which decides
// the algorithms and protocols NCCL had (sim::nccl_runs), with the aws-ofi-nccl of its era
// (topology/transport.hpp: whether the plugin set NCCL_PROTO=simple, whether NCCL flushes);
// otherwise the catalog's stack; the NCCL_BUFFSIZE its environment sets (log_buffsize); and the
// channels NCCL says it ran (log_channels); on an EFA instance whose log ran sockets
// (log_ran_sockets), NCCL's socket transport over the ENA (topology/transport.hpp); whose
// connections lack GPUDirect RDMA (log_gpudirect), host-staged routes.
// Used by `calibrate fit` and `expect --check` (take_log_software on the catalog's stack; its
// notes are `collective --compare`'s).
InstanceSpec as_run(const InstanceSpec& instance, const NcclLog& log);

}  // namespace ddpsim::calibrate
