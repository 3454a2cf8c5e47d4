#include "app/input/transport_loader.hpp"

#include <sstream>

#include "app/input/scenario_keys.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace ddpsim::app {
namespace {

// software.KEY as a release number ("none" too where `none_ok`); an error at the field otherwise.
std::optional<std::string> release_key(Reader& r, const YAML::Node& n, const std::string& key, const char* example, bool none_ok = false)
{
  auto v = r.string(n, "software", key, false);
  if (Version ignored; !v || (none_ok && *v == "none") || parse_version(*v, ignored)) return v;
  r.error(n[key], "software." + key, std::string("not a version (e.g. ") + example + ")" + (none_ok ? " or none" : ""));
  return std::nullopt;
}

}  // namespace

TransportSpec read_transport(Reader& r, const YAML::Node& root)
{
  TransportSpec t;
  if (YAML::Node c = root["cluster"]; c.IsDefined() && c.IsMap()) {
    if (auto b = r.boolean(c, "cluster", "placement_group", false)) t.placement_group = *b;
    if (auto b = r.boolean(c, "cluster", "pod_network", false)) t.pod_network = *b;
  }
  YAML::Node n = root["software"];
  if (!n.IsDefined() || n.IsNull() || !r.expect_map(n, "software")) return t;
  r.allow_keys(n, "software", scenario_keys("software"));
  if (auto v = r.string(n, "software", "nccl", false); v && !parse_version(*v, t.software.nccl))
    r.error(n["nccl"], "software.nccl", "not a version (e.g. 2.4.8 or 2.21.5)");
  else if (v) t.nccl_stated = true;
  if (auto v = release_key(r, n, "aws_ofi_nccl", "1.9.1", true)) {
    t.software.aws_ofi_nccl = *v;
    t.aws_ofi_nccl_stated = true;
  }
  if (auto v = release_key(r, n, "libfabric", "1.13.2")) {
    t.software.libfabric = *v;
    t.libfabric_stated = true;
  }
  if (auto v = release_key(r, n, "efa_installer", "1.11.2")) t.software.efa_installer = *v;
  if (auto v = r.string(n, "software", "as_of", false)) {
    Date d;
    if (!parse_date(*v, d))
      r.error(n["as_of"], "software.as_of", "not a date (YYYY-MM or YYYY-MM-DD, e.g. 2019-06 or 2019-06-25)");
    else
      apply_as_of(t, d);
  }
  if (auto v = r.integer(n, "software", "nccl_socket_nthreads", false, 1, 16)) t.software.socket_nthreads = static_cast<int>(*v);
  if (auto v = r.integer(n, "software", "nccl_nsocks_perthread", false, 1, 64)) t.software.nsocks_perthread = static_cast<int>(*v);
  if (auto v = r.integer(n, "software", "nccl_min_nrings", false, 1, 64)) t.software.min_nrings = static_cast<int>(*v);
  if (auto v = r.integer(n, "software", "nccl_channels", false, 1, 64)) {
    t.software.nccl_channels = static_cast<int>(*v);
    t.nccl_channels_stated = true;
  }
  if (auto v = r.bytes(n, "software", "nccl_buffsize", false)) {
    if (!nccl_buffsize_ok(*v))
      r.error(n["nccl_buffsize"], "software.nccl_buffsize", std::string("out of range ") + kNcclBuffsizeRange + " (NCCL_BUFFSIZE, bytes)");
    else {
      t.software.nccl_buffsize = *v;
      t.nccl_buffsize_stated = true;
    }
  }
  return t;
}

void apply_as_of(TransportSpec& t, Date d)
{
  t.as_of = software_as_of(d);
  if (!t.nccl_stated) t.software.nccl = t.as_of->nccl;
  if (!t.aws_ofi_nccl_stated) t.software.aws_ofi_nccl = t.as_of->aws_ofi_nccl;
  // A named EFA installer says which libfabric more closely than a date does.
  if (!t.libfabric_stated && t.software.efa_installer.empty()) t.software.libfabric = t.as_of->libfabric;
}

std::string libfabric_origin(const TransportSpec& t)
{
  if (t.libfabric_stated) return "stated";
  if (Version v; !t.software.efa_installer.empty() && parse_version(t.software.efa_installer, v)) {
    const InstallerLibfabric of = libfabric_of_efa_installer(v);
    std::string s = "of EFA installer " + t.software.efa_installer;
    if (of.listed != v)
      s += std::string(", not listed: that of ") + (of.listed < v ? "the nearest listed below it, " : "the oldest listed, ") + to_string(of.listed);
    return s + "; AWS's lists, topology/software_releases.cpp";
  }
  if (t.as_of) return "software.as_of";
  return "of NCCL " + to_string(t.software.nccl) + "'s era; software.libfabric or software.efa_installer names one";
}

std::string pod_network_note(const TransportSpec& t, const InstanceSpec& inst)
{
  if (!t.pod_network || !uses_sockets(inst.nic, t.software)) return "";
  std::ostringstream o;
  o << "network: pod network: NCCL's socket transport sees the pod's veth, which has no PCI vendor to detect, so it opens "
    << inst.nic.flows_per_connection << " TCP flow(s) per connection";
  if (inst.nic.flow_cap.bytes_per_s > 0) o << " of at most " << inst.nic.flow_cap.bytes_per_s * 8 / 1e9 << " Gbps each";
  o << " and no helper threads (net_socket.cc), whatever its release; set software.nccl_socket_nthreads and "
       "nccl_nsocks_perthread as the job's environment does (docs/model.md \"Transports\")";
  return o.str();
}

std::string rail_striping_note(const TransportSpec& t, const InstanceSpec& inst)
{
  if (!net_plugin_stripes_small_messages(inst, t.software)) return "";
  std::ostringstream o;
  o << "network: aws-ofi-nccl " << to_string(aws_ofi_nccl_release(t.software)) << " stripes every message above 8 KiB over a GPU's "
    << efa_devices_per_gpu(inst.name) << " EFA NICs (OFI_NCCL_ROUND_ROBIN_THRESHOLD 8192 before 1.7.4-aws; 256 KiB since), "
    << "one write and completion per NIC where later releases send one; not priced (no per-message cost with a source): "
       "across nodes, mid and large sizes may take longer than shown (a p5 log of NCCL 2.18.5 with 1.7.3 ran 1.3-3.4x "
       "ddpsim's time at 64 MiB - 1 GiB, with the shipped p5 profile and with the catalog alone; docs/validation.md B)";
  return o.str();
}

std::string libfabric_note(const TransportSpec& t, const InstanceSpec& inst)
{
  if (!efa_read_protocol_priced(inst)) return "";
  std::ostringstream o;
  o << "network: libfabric " << to_string(libfabric_release(t.software))
    << " (" << libfabric_origin(t) << ")"
    << " sends GPU memory over EFA by its read-message protocol and copies arrivals into GPU memory with a local "
       "RDMA read (before 1.15, which brought gdrcopy): each network hop costs LL128 and Simple two more NIC latencies, "
       "LL one (docs/model.md \"Transports\")";
  return o.str();
}

std::string mid_size_read_note(const TransportSpec& t, const InstanceSpec& inst)
{
  if (!efa_mid_size_read_unpriced(inst, t.software)) return "";
  std::ostringstream o;
  o << "network: libfabric " << to_string(libfabric_release(t.software)) << " (" << libfabric_origin(t) << ")"
    << " sends a message from GPU memory larger than one eager packet (about 8 KiB) by its runting- or long-read "
       "protocol, which of the two depending on what else is in flight to that peer (aws-ofi-nccl's SENDRECV "
       "protocol); not priced: across nodes, sizes from tens of KiB to about a MiB may take longer than shown "
       "(2 x p4de.24xlarge, NCCL 2.20 era: 21-46 % longer than ddpsim's catalog price from 16 KiB to 2 MiB; "
       "docs/validation.md \"Where the model misses, and why\", item 1)";
  return o.str();
}

std::string as_of_note(const TransportSpec& t, bool horovod)
{
  if (!t.as_of) return "";
  const SoftwareAsOf& a = *t.as_of;
  std::string note = "software: as of " + to_string(a.date) + ": ";
  if (t.nccl_stated)
    note += "NCCL " + to_string(t.software.nccl) + " (stated)";
  else if (a.nccl_before_source)
    note += "NCCL 2.3.5, the first release with public source (2018-09-25), standing in for the binary releases before it "
            "(2.0-2.2: rings, one TCP socket per connection)";
  else
    note += "NCCL " + to_string(a.nccl) + ", its newest release by then";
  if (t.aws_ofi_nccl_stated)
    note += ", aws-ofi-nccl " + t.software.aws_ofi_nccl + " (stated)";
  else if (a.aws_ofi_nccl == "none")
    note += ", no aws-ofi-nccl (its first release is v0.9, 2018-11-26: NCCL's sockets on EFA too)";
  else
    note += ", aws-ofi-nccl " + a.aws_ofi_nccl;
  note += ", libfabric " + (t.libfabric_stated || !t.software.efa_installer.empty()
                                 ? to_string(libfabric_release(t.software)) + " (" + libfabric_origin(t) + ")"
                                 : a.libfabric);
  if (horovod)
    note += std::string(", Horovod's ") + (a.horovod_pre_2020 ? "pre-2020" : "post-2020") +
            " defaults unless training.horovod.defaults names them";
  note += "; images lag releases, so name a stack you know (docs/scenario.md `software`)";
  return note;
}

TransportSpec parse_transport_option(const std::string& option, const std::string& text)
{
  TransportSpec t;
  std::optional<Date> as_of;
  for (const std::string& item : split(text, ',')) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    auto bad = [&](const std::string& why) { throw UserError(SourceLocation{}, option, "\"" + item + "\": " + why); };
    if (key == "nccl") {
      if (!parse_version(value, t.software.nccl)) bad("not a version");
      t.nccl_stated = true;
    } else if (key == "aws_ofi_nccl") {
      Version ignored;
      if (value != "none" && !parse_version(value, ignored)) bad("not a version or none");
      t.software.aws_ofi_nccl = value;
      t.aws_ofi_nccl_stated = true;
    } else if (key == "libfabric") {
      Version ignored;
      if (!parse_version(value, ignored)) bad("not a version");
      t.software.libfabric = value;
      t.libfabric_stated = true;
    } else if (key == "efa_installer") {
      Version ignored;
      if (!parse_version(value, ignored)) bad("not a version");
      t.software.efa_installer = value;
    } else if (key == "as_of") {
      Date d;
      if (!parse_date(value, d)) bad("not a date (YYYY-MM or YYYY-MM-DD)");
      as_of = d;
    } else if (key == "placement_group" || key == "pod_network") {
      if (value != "true" && value != "false") bad("true or false");
      (key == "placement_group" ? t.placement_group : t.pod_network) = value == "true";
    } else if (key == "nccl_socket_nthreads" || key == "nccl_nsocks_perthread" || key == "nccl_min_nrings" || key == "nccl_channels") {
      int v = 0;
      try {
        v = std::stoi(value);
      } catch (const std::exception&) {
        bad("not an integer");
      }
      if (v < 1 || v > 64) bad("out of range 1..64");
      (key == "nccl_socket_nthreads" ? t.software.socket_nthreads
       : key == "nccl_min_nrings"    ? t.software.min_nrings
       : key == "nccl_channels"      ? t.software.nccl_channels
                                     : t.software.nsocks_perthread) = v;
      if (key == "nccl_channels") t.nccl_channels_stated = true;
    } else if (key == "nccl_buffsize") {
      Bytes b;
      try {
        b = parse_bytes(value);
      } catch (const std::exception& e) {
        bad(e.what());
      }
      if (!nccl_buffsize_ok(b)) bad(std::string("out of range ") + kNcclBuffsizeRange);
      t.software.nccl_buffsize = b;
      t.nccl_buffsize_stated = true;
    } else {
      bad("unknown key (nccl, aws_ofi_nccl, libfabric, efa_installer, as_of, placement_group, pod_network, nccl_socket_nthreads, nccl_nsocks_perthread, nccl_min_nrings, "
          "nccl_channels, nccl_buffsize)");
    }
  }
  if (as_of) apply_as_of(t, *as_of);  // after the loop: a named nccl, aws_ofi_nccl, libfabric or efa_installer wins wherever it stands
  return t;
}

}  // namespace ddpsim::app
