// Who chooses NCCL's algorithm and protocol per collective, as data with its source.
//
// NCCL asks a tuner plugin first (ncclTuner getCollInfo) and uses its own cost model
// (tuning.cc, algorithms/nccl_tuning.hpp) for whatever the plugin leaves open. On AWS the plugin
// is aws-ofi-nccl's: "The tuner is normally built into the net plugin shared library"
// (aws/aws-ofi-nccl src/Makefile.am), so every image that uses aws-ofi-nccl as NCCL's network
// plugin (EFA installer, DLAMI, HyperPod, the nccl-tests containers of awsome-distributed-
// training) loads it; older NGC-style images name it with NCCL_TUNER_PLUGIN=libnccl-ofi-tuner.so.
//
// What the plugin does (src/tuner/nccl_ofi_tuner.cpp, nccl_ofi_regions.cpp, process_config.h):
//   - only on p5.48xlarge / p5e.48xlarge, p5en.48xlarge, p6-b200, p6-b300 (EC2 product name);
//     elsewhere (p3dn, p4d, p4de, non-AWS) it leaves NCCL's own choice;
//   - only above two nodes: "Skip when two nodes or lesser because the regions are not well
//     defined and fallback to NCCL's internal tunings";
//   - the choice is the first "region" (a polygon in the plane (log2 bytes, log2 ranks)) that
//     holds the point, in table order, among (algorithm, protocol) pairs NCCL still allows
//     (NCCL_ALGO / NCCL_PROTO disable pairs: "table[a][p] == NCCL_ALGO_PROTO_IGNORE ... continue");
//     a point on no region falls back to NCCL's model.
// The tables are in aws_ofi_tuner_regions.cpp, copied from the release named in kAwsOfiTunerSource.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "algorithms/nccl_tuning.hpp"
#include "core/version.hpp"

namespace ddpsim::algo {

// The first NCCL that looks for a tuner inside the net plugin when NCCL_TUNER_PLUGIN is unset
// (src/misc/tuner.cc at v2.21.5-1 tries NCCL_NET_PLUGIN's library: "Users are allowed to pack
// tuner into the net plugin"; v2.20.3-1 loads a tuner only when NCCL_TUNER_PLUGIN names one).
// Older NCCL on AWS runs its own model unless the tuner is named.
inline constexpr Version kNcclLoadsNetPluginTuner{2, 21, 0};

// `aws_ofi`: aws-ofi-nccl's tuner where it has regions, NCCL's model elsewhere (the default:
// what AWS's images run). `nccl`: NCCL's own model only (no tuner plugin; "none" reads the same).
enum class Tuner { aws_ofi, nccl };
std::string_view to_string(Tuner t);
// "aws-ofi", "nccl" or "none" (no plugin: NCCL's own model). False for anything else.
bool parse_tuner(std::string_view name, Tuner& out);

struct TunerSource {
  std::string_view repo, path, release, commit, date;
};
const TunerSource& aws_ofi_tuner_source();

// A registry algorithm name ("ring", "tree", "nvls") and a protocol.
struct TunerChoice {
  std::string_view algorithm;
  Protocol protocol = Protocol::simple;
};

// True when aws-ofi-nccl's tuner has region tables for `instance` (a catalog name; a SageMaker
// "ml." prefix is ignored).
bool aws_ofi_has_regions(std::string_view instance);

// The plugin's choice for one collective, or nullopt where it leaves NCCL to choose (unknown
// instance, two nodes or fewer, a rank layout or collective without a table, no region holding
// the point, or every holding region disallowed by `allowed`).
std::optional<TunerChoice> aws_ofi_choice(std::string_view instance, CollectiveOp op, Bytes bytes, int nodes,
                                          int ranks, const std::function<bool(const TunerChoice&)>& allowed);

}  // namespace ddpsim::algo
