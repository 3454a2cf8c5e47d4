#include "app/input/catalog_loader.hpp"

#include "app/input/scenario_keys.hpp"
#include "topology/transport.hpp"

namespace ddpsim::app {

extern const char* const kBuiltinCatalogYaml;  // generated: catalog_data.cpp
extern const char* const kBuiltinCatalogName;

namespace {

GpuSpec read_gpu(Reader& r, const YAML::Node& n, const std::string& path, const std::string& name)
{
  GpuSpec g;
  g.name = name;
  if (!r.expect_map(n, path)) return g;
  r.allow_keys(n, path, {"memory", "fp32_tflops", "tf32_tflops", "fp16_tflops", "bf16_tflops", "hbm",
                         "hbm_efficiency", "compute_capability", "sm_count", "nccl_ctas"});
  g.memory = r.bytes(n, path, "memory", true).value_or(Bytes{});
  g.fp32_tflops = r.number(n, path, "fp32_tflops", true, 0.001, 1e6).value_or(1);
  g.tf32_tflops = r.number(n, path, "tf32_tflops", false, 0, 1e6).value_or(0);
  g.fp16_tflops = r.number(n, path, "fp16_tflops", false, 0, 1e6).value_or(0);
  g.bf16_tflops = r.number(n, path, "bf16_tflops", false, 0, 1e6).value_or(0);
  g.hbm_datasheet = r.bandwidth(n, path, "hbm", true).value_or(Bandwidth{1});
  g.set_hbm_efficiency(r.number(n, path, "hbm_efficiency", false, 0.01, 1).value_or(1));
  // Written as NVIDIA does ("7.0", "9.0"); kept x10 as NCCL's minCompCap is.
  if (auto cc = r.number(n, path, "compute_capability", false, 1.0, 20.0))
    g.compute_capability = static_cast<int>(*cc * 10 + 0.5);
  if (auto sm = r.integer(n, path, "sm_count", false, 1, 1024)) g.sm_count = static_cast<int>(*sm);
  if (auto c = r.integer(n, path, "nccl_ctas", false, 1, 64)) g.nccl_ctas = static_cast<int>(*c);
  return g;
}

template <class T>
void set(std::optional<T> v, T& field)
{
  if (v) field = *v;
}

}  // namespace

void read_instance_fields(Reader& r, const YAML::Node& n, const std::string& path, const Catalog& catalog,
                          InstanceSpec& s, bool req)
{
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("cluster.overrides"));
  set(r.string(n, path, "description", false), s.description);
  if (auto gpu = r.string(n, path, "gpu", req)) {
    auto it = catalog.gpus.find(*gpu);
    if (it != catalog.gpus.end()) {
      s.gpu = it->second;
    } else {
      std::vector<std::string> names;
      for (const auto& kv : catalog.gpus) names.push_back(kv.first);
      std::string hint = closest(*gpu, names);
      r.error(n["gpu"], join_path(path, "gpu"),
              "unknown GPU \"" + *gpu + "\"" + (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)"));
    }
  }
  if (auto g = r.integer(n, path, "gpus", req, 1, 64)) s.gpus = static_cast<int>(*g);
  if (auto p = r.number(n, path, "price_usd_per_hour", req, 0, 1e5)) s.price_usd_per_hour = *p;
  if (auto b = r.boolean(n, path, "smddp_supported", false)) s.smddp_supported = *b;
  set(r.string(n, path, "price_source", false), s.price_source);  // where and when the price was read

  const std::string ip = join_path(path, "intra_node");
  if (YAML::Node intra = n["intra_node"]; intra.IsDefined() && r.expect_map(intra, ip)) {
    r.allow_keys(intra, ip, scenario_keys("cluster.overrides.intra_node"));
    if (auto f = r.choice(intra, ip, "fabric", req, {"nvlink-mesh", "nvswitch", "pcie"}))
      s.intra = *f == "nvlink-mesh" ? IntraNodeFabric::nvlink_mesh
                : *f == "nvswitch"  ? IntraNodeFabric::nvswitch
                                    : IntraNodeFabric::pcie_only;
    set(r.time(intra, ip, "nvlink_latency", false), s.nvlink_latency);
    const bool mesh = s.intra == IntraNodeFabric::nvlink_mesh;
    set(r.bandwidth(intra, ip, "nvlink_per_link", req && mesh), s.nvlink_per_link);
    set(r.bandwidth(intra, ip, "nvswitch_per_gpu", req && s.intra == IntraNodeFabric::nvswitch), s.nvswitch_per_gpu);
    if (YAML::Node pairs = intra["pairs"]; pairs.IsDefined()) {
      const std::string pp = join_path(ip, "pairs");
      s.nvlink_pairs.clear();
      if (!pairs.IsSequence()) r.error(pairs, pp, "expected a list of [gpu_a, gpu_b, links]");
      for (const YAML::Node& p : pairs) {
        if (!p.IsSequence() || p.size() != 3) {
          r.error(p, pp, "expected [gpu_a, gpu_b, links]");
          continue;
        }
        auto a = r.as_integer(p[0], pp, 0, s.gpus - 1), b = r.as_integer(p[1], pp, 0, s.gpus - 1);
        auto l = r.as_integer(p[2], pp, 1, 18);
        if (a && b && l) s.nvlink_pairs.push_back(NvlinkPair{static_cast<int>(*a), static_cast<int>(*b), static_cast<int>(*l)});
      }
    } else if (req && mesh) {
      r.error(intra, join_path(ip, "pairs"), "missing (an nvlink-mesh needs its pairs)");
    }
  } else if (req) {
    r.error(n, ip, "missing (this key is required)");
  }

  const std::string pp = join_path(path, "pcie");
  if (YAML::Node pcie = n["pcie"]; pcie.IsDefined() && r.expect_map(pcie, pp)) {
    r.allow_keys(pcie, pp, scenario_keys("cluster.overrides.pcie"));
    if (auto v = r.integer(pcie, pp, "switches", req, 1, 64)) s.pcie_switches = static_cast<int>(*v);
    set(r.bandwidth(pcie, pp, "bandwidth", req), s.pcie);
    set(r.time(pcie, pp, "latency", req), s.pcie_latency);
  } else if (req) {
    r.error(n, pp, "missing (this key is required)");
  }

  const std::string cp = join_path(path, "cpu");
  if (YAML::Node cpu = n["cpu"]; cpu.IsDefined() && r.expect_map(cpu, cp)) {
    r.allow_keys(cpu, cp, scenario_keys("cluster.overrides.cpu"));
    if (auto v = r.integer(cpu, cp, "sockets", req, 1, 8)) s.cpu_sockets = static_cast<int>(*v);
    if (auto v = r.choice(cpu, cp, "vendor", false, {"intel", "amd"})) s.cpu_vendor = *v == "amd" ? CpuVendor::amd : CpuVendor::intel;
    set(r.bandwidth(cpu, cp, "interconnect", req), s.cpu_interconnect);
    set(r.bandwidth(cpu, cp, "memory_bandwidth", req), s.cpu_memory);
    if (auto v = r.integer(cpu, cp, "vcpus", req, 1, 4096)) s.vcpus = static_cast<int>(*v);
  } else if (req) {
    r.error(n, cp, "missing (this key is required)");
  }

  const std::string np = join_path(path, "nic");
  if (YAML::Node nic = n["nic"]; nic.IsDefined() && r.expect_map(nic, np)) {
    r.allow_keys(nic, np, scenario_keys("cluster.overrides.nic"));
    set(r.choice(nic, np, "kind", req, {"ena", "efa", "ib", "ethernet"}), s.nic.kind);
    if (auto v = r.integer(nic, np, "count", req, 1, 64)) s.nic.count = static_cast<int>(*v);
    set(r.bandwidth(nic, np, "bandwidth", req), s.nic.bandwidth);
    set(r.time(nic, np, "latency", req), s.nic.latency);
    set(r.boolean(nic, np, "gpudirect", req), s.nic.gpudirect);
    set(r.bandwidth(nic, np, "flow_cap", false), s.nic.flow_cap);  // absent: no per-flow cap (EFA, IB)
    if (auto v = r.integer(nic, np, "flows_per_connection", false, 1, 64)) s.nic.flows_per_connection = static_cast<int>(*v);
  } else if (req) {
    r.error(n, np, "missing (this key is required)");
  }

  // Achievable fraction of line rate per link class (topology/instance.hpp LinkEfficiency).
  const std::string ep = join_path(path, "efficiency");
  if (YAML::Node eff = n["efficiency"]; eff.IsDefined() && r.expect_map(eff, ep)) {
    r.allow_keys(eff, ep, scenario_keys("cluster.overrides.efficiency"));
    set(r.number(eff, ep, "nvlink", false, 0.01, 1), s.efficiency.nvlink);
    set(r.number(eff, ep, "pcie", false, 0.01, 1), s.efficiency.pcie);
    set(r.number(eff, ep, "cpu_interconnect", false, 0.01, 1), s.efficiency.cpu_interconnect);
    set(r.number(eff, ep, "nic", false, 0.01, 1), s.efficiency.nic);
    set(r.number(eff, ep, "nvls", false, 0.01, 1), s.efficiency.nvls);
    if (auto hbm = r.number(eff, ep, "hbm", false, 0.01, 1)) s.gpu.set_hbm_efficiency(*hbm);  // the GPU's, not a link's
  }

  // Cross-field checks, where a wrong combination would break the topology.
  if (s.pcie_switches > s.gpus) r.error(n, join_path(path, "pcie.switches"), "more PCIe switches than GPUs");
  if (s.nic.count > s.gpus) r.error(n, join_path(path, "nic.count"), "more NICs than GPUs is not modelled");
}

// `assumed_ranges`: [{field, instances, factor: [low, high], why}], for prediction intervals.
static void read_assumed_ranges(Reader& r, const YAML::Node& n, Catalog& c)
{
  if (!n.IsDefined()) return;
  static const std::map<std::string, std::string> knob_of{
      {"nic.latency", "network_latency"}, {"intra_node.nvlink_latency", "nvlink_latency"}, {"pcie.latency", "pcie_latency"}};
  if (!n.IsSequence()) r.error(n, "assumed_ranges", "expected a list");
  for (std::size_t i = 0; n.IsSequence() && i < n.size(); ++i) {
    const std::string path = "assumed_ranges[" + std::to_string(i) + "]";
    const YAML::Node e = n[i];
    if (!r.expect_map(e, path)) continue;
    r.allow_keys(e, path, {"field", "instances", "factor", "why"});
    AssumedRange a;
    a.field = r.string(e, path, "field", true).value_or("");
    if (auto k = knob_of.find(a.field); k != knob_of.end()) a.knob = k->second;
    else r.error(e["field"], path + ".field", "no range can be applied to \"" + a.field + "\"");
    a.why = r.string(e, path, "why", true).value_or("");
    for (const YAML::Node& inst : e["instances"]) {
      a.instances.push_back(inst.Scalar());
      if (!c.find(inst.Scalar())) r.error(inst, path + ".instances", "unknown instance " + inst.Scalar());
    }
    const YAML::Node f = e["factor"];
    if (!f.IsSequence() || f.size() != 2) {
      r.error(e, path + ".factor", "expected [low, high]");
      continue;
    }
    a.low = r.as_number(f[0], path + ".factor", 1e-3, 1).value_or(1);
    a.high = r.as_number(f[1], path + ".factor", 1, 1e3).value_or(1);
    c.assumed.push_back(std::move(a));
  }
}

static Catalog parse_catalog_node(const std::string& name, const std::string& text);

// As parse_profile: yaml-cpp throws on malformed shapes the Reader's checks may not reach (found by
// fuzz_catalog: `instances:` given as a list); say where, exit 2, never an internal error.
Catalog parse_catalog(const std::string& name, const std::string& text)
{
  try {
    return parse_catalog_node(name, text);
  } catch (const YAML::Exception& e) {
    throw UserError(SourceLocation{name, e.mark.line + 1, e.mark.column + 1}, "", std::string(e.msg));
  }
}

static Catalog parse_catalog_node(const std::string& name, const std::string& text)
{
  Reader r(name);
  YAML::Node root = parse_yaml(name, text);
  Catalog c;
  if (!r.expect_map(root, "")) r.finish();
  r.allow_keys(root, "", {"gpus", "cube_mesh", "instances", "assumed_ranges", "sagemaker_prices"});
  // Iterating a map's pairs over a sequence throws yaml-cpp's InvalidNode: check the shape first.
  const YAML::Node gpus = root["gpus"], instances = root["instances"];
  for (const auto& kv : gpus.IsDefined() && r.expect_map(gpus, "gpus") ? gpus : YAML::Node()) {
    const std::string gname = kv.first.Scalar();
    c.gpus[gname] = read_gpu(r, kv.second, "gpus." + gname, gname);
  }
  for (const auto& kv : instances.IsDefined() && r.expect_map(instances, "instances") ? instances : YAML::Node()) {
    InstanceSpec s;
    s.name = kv.first.Scalar();
    read_instance_fields(r, kv.second, "instances." + s.name, c, s, /*require_all=*/true);
    if (s.price_source.empty()) s.price_source = "on-demand, us-east-1 (topology/catalog/instances.yaml)";
    // The transport with the default software stack outside a placement group (a scenario's
    // `software:` and `cluster.placement_group` re-derive it: app/input/transport_loader.cpp).
    if (!kv.second["nic"]["flow_cap"].IsDefined()) apply_transport(s, TransportSpec{});
    c.instances.push_back(std::move(s));
  }
  read_assumed_ranges(r, root["assumed_ranges"], c);
  if (const YAML::Node sm = root["sagemaker_prices"]; sm.IsDefined() && r.expect_map(sm, "sagemaker_prices"))
    for (const auto& kv : sm) {
      const std::string ml_name = kv.first.Scalar(), path = "sagemaker_prices." + ml_name;
      if (ml_name.rfind("ml.", 0) != 0 || !c.find(ml_name)) r.error(kv.first, path, "expected an ml.* name of a catalog instance");
      if (!r.expect_map(kv.second, path)) continue;
      r.allow_keys(kv.second, path, {"usd_per_hour", "source"});
      c.sagemaker[ml_name] = Catalog::Price{r.number(kv.second, path, "usd_per_hour", true, 0, 1e5).value_or(0),
                                         r.string(kv.second, path, "source", true).value_or("")};
    }
  r.finish();
  return c;
}

Catalog builtin_catalog()
{
  try {
    return parse_catalog(kBuiltinCatalogName, kBuiltinCatalogYaml);
  } catch (const UserError& e) {
    throw InternalError(std::string("the built-in catalog is broken: ") + e.what());
  }
}

}  // namespace ddpsim::app
