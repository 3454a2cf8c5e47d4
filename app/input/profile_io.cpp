#include "app/input/profile_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "app/input/yaml_reader.hpp"
#include "calibrate/fit.hpp"

namespace ddpsim::app {
namespace {

// `digits` decimals (the shipped profiles' form), except for a value so small that they would
// keep fewer than three significant digits (or round it to zero): 4 significant digits then
// (e.g. 1.234e-05). A valid efficiency of 1e-5 written as 0.0000 read back as 0 and was refused.
std::string fixed(double v, int digits, bool significant = true)
{
  char buf[64];
  if (significant && v != 0 && std::abs(v) < std::pow(10.0, 2 - digits))
    std::snprintf(buf, sizeof buf, "%.4g", v);
  else
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void emit_scope(YAML::Emitter& out, const char* key, const sim::ScopeParams& s)
{
  out << YAML::Key << key << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "fitted" << YAML::Value << s.fitted;
  out << YAML::Key << "alpha_us" << YAML::Value << fixed(s.alpha_us, 3);
  out << YAML::Key << "efficiency" << YAML::Value << fixed(s.efficiency, 4);
  out << YAML::Key << "gamma_us" << YAML::Value << fixed(s.gamma_us, 3);
  out << YAML::Key << "points" << YAML::Value << s.points;
  out << YAML::EndMap;
}

void read_scope(Reader& r, const YAML::Node& root, const std::string& key, sim::ScopeParams& s)
{
  const YAML::Node n = root[key];
  if (!n.IsDefined()) return;
  if (!r.expect_map(n, key)) return;
  r.allow_keys(n, key, {"fitted", "alpha_us", "efficiency", "gamma_us", "points"});
  s.fitted = r.boolean(n, key, "fitted", false).value_or(false);
  using L = calibrate::ProfileLimits;  // the same ranges calibrate fit writes
  if (auto a = r.number(n, key, "alpha_us", false, L::alpha_us_min, L::alpha_us_max)) s.alpha_us = *a;
  if (auto e = r.number(n, key, "efficiency", true, L::efficiency_min, L::efficiency_max)) s.efficiency = *e;
  if (auto g = r.number(n, key, "gamma_us", false, L::gamma_us_min, L::gamma_us_max)) s.gamma_us = *g;
  s.points = static_cast<int>(r.integer(n, key, "points", false, 0, 1 << 30).value_or(0));
}

}  // namespace

std::string profile_yaml(const sim::Profile& p)
{
  YAML::Emitter out;
  out << YAML::Comment("ddpsim calibration profile: t = alpha + L_nccl + B_line / efficiency + gamma sqrt(S/MiB)");
  out << YAML::BeginMap;
  out << YAML::Key << "instance" << YAML::Value << p.instance;
  out << YAML::Key << "provenance" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
  for (const std::string& f : p.provenance.inputs) out << f;
  out << YAML::EndSeq;
  out << YAML::Key << "nccl_version" << YAML::Value << (p.provenance.nccl_version.empty() ? "unknown" : p.provenance.nccl_version);
  out << YAML::Key << "method" << YAML::Value << p.provenance.method;
  out << YAML::Key << "algorithm" << YAML::Value << p.provenance.algorithm;
  if (!p.provenance.assumed.empty()) {  // issue 18: what each log was priced with
    out << YAML::Key << "assumed" << YAML::Value << YAML::BeginSeq;
    for (const std::string& a : p.provenance.assumed) out << a;
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  emit_scope(out, "intra", p.intra);
  emit_scope(out, "network", p.network);
  if (!p.warnings.empty()) {  // issue 18: implausible fitted values (calibrate/plausibility.hpp)
    out << YAML::Key << "warnings" << YAML::Value << YAML::BeginSeq;
    for (const std::string& w : p.warnings) out << w;
    out << YAML::EndSeq;
  }
  out << YAML::Key << "residuals" << YAML::Value << YAML::BeginSeq;
  for (const sim::Residual& r : p.residuals) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "file" << YAML::Value << r.file;
    out << YAML::Key << "line" << YAML::Value << r.line;
    out << YAML::Key << "nodes" << YAML::Value << r.nodes;
    out << YAML::Key << "bytes" << YAML::Value << r.bytes;
    out << YAML::Key << "measured_us" << YAML::Value << fixed(r.measured_us, 2);
    out << YAML::Key << "predicted_us" << YAML::Value << fixed(r.predicted_us, 2);
    out << YAML::Key << "error" << YAML::Value << fixed(r.error(), 4, false);  // not read back
    if (r.held_out_us > 0) out << YAML::Key << "held_out_us" << YAML::Value << fixed(r.held_out_us, 2);
    out << YAML::Key << "algorithm" << YAML::Value << r.algorithm;
    out << YAML::Key << "protocol" << YAML::Value << r.protocol;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

namespace {
sim::Profile parse_profile_node(const std::string& name, const std::string& text);
}  // namespace

// yaml-cpp throws on some malformed shapes the Reader's checks do not reach (found by
// fuzz_profile: a provenance whose `inputs` is not a usable node): a located user error, not 70.
sim::Profile parse_profile(const std::string& name, const std::string& text)
{
  try {
    return parse_profile_node(name, text);
  } catch (const YAML::Exception& e) {
    throw UserError(SourceLocation{name, e.mark.line + 1, e.mark.column + 1}, "", std::string(e.msg));
  }
}

namespace {
sim::Profile parse_profile_node(const std::string& name, const std::string& text)
{
  const YAML::Node root = parse_yaml(name, text);
  Reader r(name);
  sim::Profile p;
  if (!r.expect_map(root, "")) r.finish();
  r.allow_keys(root, "", {"instance", "provenance", "intra", "network", "warnings", "residuals"});
  if (const YAML::Node w = root["warnings"]; w.IsDefined() && w.IsSequence())
    for (const YAML::Node& x : w) p.warnings.push_back(x.as<std::string>(""));
  p.instance = r.string(root, "", "instance", true).value_or("");
  // An instance name is one printable word (catalog names are): a control character or blank
  // would be written back as something that no longer reads as this name (fuzz_profile).
  if (root["instance"].IsDefined() &&
      (p.instance.empty() || std::any_of(p.instance.begin(), p.instance.end(), [](unsigned char c) {
         return c < 0x21 || c == 0x7f;
       })))
    r.error(root["instance"], "instance", "expected an instance name (one word without spaces or control characters)");
  if (const YAML::Node prov = root["provenance"]; prov.IsDefined() && r.expect_map(prov, "provenance")) {
    r.allow_keys(prov, "provenance", {"inputs", "nccl_version", "method", "algorithm", "assumed"});
    if (const YAML::Node a = prov["assumed"]; a.IsDefined() && a.IsSequence())
      for (const YAML::Node& x : a) p.provenance.assumed.push_back(x.as<std::string>(""));
    if (const YAML::Node in = prov["inputs"]; in.IsSequence())
      for (const YAML::Node& f : in) p.provenance.inputs.push_back(f.as<std::string>(""));
    p.provenance.nccl_version = r.string(prov, "provenance", "nccl_version", false).value_or("");
    p.provenance.method = r.string(prov, "provenance", "method", false).value_or("");
    p.provenance.algorithm = r.string(prov, "provenance", "algorithm", false).value_or("auto");
  }
  read_scope(r, root, "intra", p.intra);
  read_scope(r, root, "network", p.network);
  // Issue 20: the residuals are read back too: `ddpsim expect` and a scenario's interval
  // (sim/study/twin.cpp, add_profile_spread) take their spread from them; they never change a time.
  if (const YAML::Node res = root["residuals"]; res.IsDefined() && res.IsSequence())
    for (std::size_t i = 0; i < res.size(); ++i) {
      const std::string path = "residuals[" + std::to_string(i) + "]";
      if (!r.expect_map(res[i], path)) continue;
      sim::Residual x;
      x.file = r.string(res[i], path, "file", false).value_or("");
      x.line = static_cast<int>(r.integer(res[i], path, "line", false, 0, 1 << 30).value_or(0));
      x.nodes = static_cast<int>(r.integer(res[i], path, "nodes", true, 1, 1 << 20).value_or(1));
      // The ranges a fit can write (calibrate::ProfileLimits): a reader narrower than the writer
      // refused the fitter's own files.
      using L = calibrate::ProfileLimits;
      x.bytes = static_cast<std::uint64_t>(r.integer(res[i], path, "bytes", true, 0, L::residual_bytes_max).value_or(0));
      x.measured_us = r.number(res[i], path, "measured_us", true, 0, L::residual_us_max).value_or(0);
      x.predicted_us = r.number(res[i], path, "predicted_us", true, 0, L::residual_us_max).value_or(0);
      x.held_out_us = r.number(res[i], path, "held_out_us", false, 0, L::residual_us_max).value_or(0);
      x.algorithm = r.string(res[i], path, "algorithm", false).value_or("");
      x.protocol = r.string(res[i], path, "protocol", false).value_or("");
      p.residuals.push_back(std::move(x));
    }
  r.finish();
  return p;
}
}  // namespace

sim::Profile load_profile(const std::string& path) { return parse_profile(path, read_text_file(path)); }

const std::map<std::string, std::string>& builtin_profile_texts();  // profiles_data.cpp (generated)

namespace {
std::string bare(const std::string& instance) { return instance.rfind("ml.", 0) == 0 ? instance.substr(3) : instance; }
}  // namespace

std::optional<sim::Profile> builtin_profile(const std::string& instance)
{
  const std::string name = bare(instance);
  const auto& texts = builtin_profile_texts();
  const auto it = texts.find(name);
  if (it == texts.end()) return std::nullopt;
  return parse_profile("profiles/" + name + ".yaml", it->second);
}

ResolvedProfile resolve_profile(const std::string& instance, const std::string& requested)
{
  if (requested == "none") return {sim::default_profile(instance), "none (the catalog alone)", "", false};
  if (!requested.empty()) {
    sim::Profile p = load_profile(requested);
    if (!instance.empty() && bare(p.instance) != bare(instance))
      throw UserError(locate_field(requested, "instance"), "instance", "profile is for " + p.instance + ", not " + instance);
    return {std::move(p), requested, requested, false};
  }
  if (auto b = builtin_profile(instance)) {
    const std::string file = "profiles/" + bare(instance) + ".yaml";
    return {std::move(*b), "shipped " + file + " (default; profile: none for the catalog alone)", file, true};
  }
  return {sim::default_profile(instance), "none shipped for " + instance + " (the catalog alone)", "", false};
}

}  // namespace ddpsim::app
