#include "calibrate/log_env.hpp"

#include <regex>

#include "core/version.hpp"
#include "topology/transport.hpp"

namespace ddpsim::calibrate {
namespace {

// True when the log prints a release older than the first NCCL that loads the tuner from the net
// plugin by itself (algo::kNcclLoadsNetPluginTuner); false when it prints none.
bool older_than_2_21(const std::string& version)
{
  Version v;
  return parse_version(version, v) && v < algo::kNcclLoadsNetPluginTuner;
}

}  // namespace

std::string environment_lines(const std::vector<std::string>& lines)
{
  static const std::regex re(R"(NCCL_(ALGO|PROTO|TUNER_PLUGIN|TREE_THRESHOLD|BUFFSIZE)(=| set by environment)|nccl-ofi-tuner|NCCL INFO \d+ coll channels|NCCL INFO Using network |via NET/)");
  std::string out;
  for (const std::string& l : lines)
    if (std::regex_search(l, re)) out += l + "\n";
  return out;
}

LogChoice log_choice(const NcclLog& log)
{
  LogChoice c;
  const std::string& env = log.environment;
  std::smatch m;
  std::vector<std::string> said;
  // Each as an environment line sets it ("NCCL_ALGO=Ring") or as NCCL's INFO line reports it ("NCCL
  // INFO NCCL_ALGO set by environment to Ring.", src/misc/param.cc).
  static const std::regex algo_re(R"(NCCL_ALGO(?:=|\s+set by environment to\s+)\"?([A-Za-z]+)\"?)"),
      tree_re(R"(NCCL_TREE_THRESHOLD(?:=|\s+set by environment to\s+)\"?0\b)"),
      proto_re(R"(NCCL_PROTO(?:=|\s+set by environment to\s+)\"?([A-Za-z0-9]+)\"?)"),
      plugin_re(R"(NCCL_TUNER_PLUGIN(?:=|\s+set by environment to\s+)\"?([^\s\";]*[^\s\";.]))");
  if (std::regex_search(env, m, algo_re)) {
    std::string a = m[1];
    for (char& ch : a) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (a == "ring" || a == "tree") c.algorithm = a;
    if (a == "nvls" || a == "nvlstree") c.algorithm = "nvls";
    said.push_back("NCCL_ALGO=" + std::string(m[1]) + (c.algorithm == "auto" ? " (not modelled: NCCL's choice)" : ""));
  } else if (std::regex_search(env, m, tree_re)) {
    c.algorithm = "ring";
    said.push_back("NCCL_TREE_THRESHOLD=0 (ring only)");
  }
  if (std::regex_search(env, m, proto_re)) {
    std::string p = m[1];
    if (p == "simple" || p == "SIMPLE") p = "Simple";
    algo::Protocol proto{};
    if (algo::parse_protocol(p, proto)) c.protocol = proto;
    said.push_back("NCCL_PROTO=" + std::string(m[1]));
  }
  const bool plugin_named = std::regex_search(env, m, plugin_re);
  if (plugin_named && std::string(m[1]).find("ofi") == std::string::npos) {
    c.tuner = algo::Tuner::nccl;  // another plugin: not modelled, NCCL's own model stands in
    said.push_back("NCCL_TUNER_PLUGIN=" + std::string(m[1]) + " (not modelled: NCCL's own model)");
  } else if (plugin_named || env.find("nccl-ofi-tuner") != std::string::npos) {
    said.push_back("aws-ofi-nccl's tuner named in the log");
  } else if (older_than_2_21(log.nccl_version)) {
    c.tuner = algo::Tuner::nccl;
    said.push_back("NCCL " + log.nccl_version + " < 2.21 loads no tuner unless named: NCCL's own model");
  } else {
    said.push_back("no tuner named: assumed aws-ofi-nccl's (bundled in its net plugin, loaded by NCCL >= 2.21)");
  }
  if (const auto n = log_channels(log)) said.push_back("NCCL INFO: " + std::to_string(*n) + " coll channels");
  if (log_ran_sockets(log)) said.push_back("NCCL INFO: network Socket (NCCL's socket transport, no EFA plugin)");
  if (log_gpudirect(log) == false) said.push_back("NCCL INFO: connections without /GDRDMA (no GPUDirect RDMA: host-staged)");
  c.why = "tuner " + std::string(to_string(c.tuner)) + ", algorithm " + c.algorithm + ", protocol " +
          (c.protocol ? std::string(to_string(*c.protocol)) : std::string("auto")) + " (";
  for (std::size_t i = 0; i < said.size(); ++i) c.why += (i ? "; " : "") + said[i];
  c.why += ")";
  return c;
}

std::optional<std::string> buffsize_setting(const std::string& line)
{
  static const std::regex re(R"(NCCL_BUFFSIZE(?:=|\s+set by environment to\s+)\"?([0-9]+))");
  std::smatch m;
  if (!std::regex_search(line, m, re)) return std::nullopt;
  return m[1].str();
}

std::optional<Bytes> log_buffsize(const NcclLog& log)
{
  // parse_nccl_log refused a log whose setting is out of range (nccl_buffsize_ok), so this parses.
  const auto digits = buffsize_setting(log.environment);
  if (!digits) return std::nullopt;
  try {
    return Bytes{std::stoull(*digits)};
  } catch (const std::exception&) {
    return std::nullopt;  // beyond 64 bits: not a buffer size
  }
}

std::optional<int> log_channels(const NcclLog& log)
{
  static const std::regex re(R"(NCCL INFO (\d{1,3}) coll channels)");
  std::smatch m;
  if (!std::regex_search(log.environment, m, re)) return std::nullopt;
  const int n = std::stoi(m[1].str());
  return n >= 1 && n <= 64 ? std::optional<int>(n) : std::nullopt;  // NCCL's MAXCHANNELS is 64 (32 before 2.12)
}

std::optional<bool> log_gpudirect(const NcclLog& log)
{
  static const std::regex plugin(R"(via NET/(AWS )?Libfabric/\d+)"), gdr(R"(via NET/(AWS )?Libfabric/\d+/GDRDMA)");
  if (!std::regex_search(log.environment, plugin)) return std::nullopt;
  return std::regex_search(log.environment, gdr);
}

bool log_ran_sockets(const NcclLog& log)
{
  static const std::regex socket(R"(NCCL INFO Using network Socket|via NET/Socket/)"),
      plugin(R"(NCCL INFO Using network (AWS )?Libfabric|via NET/(AWS )?Libfabric/|via NET/IB/)");
  return std::regex_search(log.environment, socket) && !std::regex_search(log.environment, plugin);
}

LogSoftware take_log_software(const NcclLog& log, const NicSpec& nic, TransportSpec& t)
{
  LogSoftware out;
  const auto take = [&](std::string note) {
    out.notes.push_back(log.file + " " + std::move(note));
    out.changed = true;
  };
  if (Version v; !t.nccl_stated && parse_version(log.nccl_version, v)) {
    t.software.nccl = v;
    t.nccl_stated = true;  // by the log: software.as_of no longer decides it
    take("ran NCCL " + log.nccl_version + ": priced with what that release runs (--software nccl=... to override)");
  }
  if (const auto b = log_buffsize(log); b && !t.nccl_buffsize_stated) {
    t.software.nccl_buffsize = *b;
    take("sets NCCL_BUFFSIZE=" + std::to_string(b->n) + ": priced with it (--software nccl_buffsize=... to override)");
  }
  if (const auto n = log_channels(log); n && !t.nccl_channels_stated) {
    t.software.nccl_channels = *n;
    take("says NCCL ran " + std::to_string(*n) +
         " coll channels: priced with them across nodes (--software nccl_channels=... to override)");
  }
  if (log_ran_sockets(log) && nic.kind == "efa" && !t.aws_ofi_nccl_stated) {
    t.software.aws_ofi_nccl = "none";
    take("ran NCCL's socket transport (NCCL INFO: network Socket), not EFA: priced so (--software aws_ofi_nccl=... to "
         "override); aws-ofi-nccl was not found or not loaded");
  }
  if (log_gpudirect(log) == false && nic.gpudirect) {
    out.host_staged = true;
    take("connections lack /GDRDMA: EFA ran without GPUDirect RDMA, priced through host memory (FI_EFA_USE_DEVICE_RDMA, "
         "docs/calibration.md)");
  }
  return out;
}

InstanceSpec as_run(const InstanceSpec& instance, const NcclLog& log)
{
  TransportSpec t;  // the catalog's stack (apply_transport with nothing stated), plus what the log says
  const LogSoftware taken = take_log_software(log, instance.nic, t);
  if (!taken.changed) return instance;
  InstanceSpec spec = instance;
  apply_transport(spec, t);
  if (taken.host_staged) spec.nic.gpudirect = false;  // EFA through host memory (topology/routing.cpp)
  return spec;
}

}  // namespace ddpsim::calibrate
