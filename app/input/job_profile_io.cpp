#include "app/input/job_profile_io.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <yaml-cpp/yaml.h>

#include "app/input/yaml_reader.hpp"
#include "calibrate/plausibility.hpp"

namespace ddpsim::app {
namespace {

// Fixed significant digits: the same fit gives the same bytes.
std::string num(double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string describe(const calibrate::RowFit& r)
{
  return r.obs.where + ": nodes " + std::to_string(r.obs.nodes) + ", " + std::to_string(r.obs.gpus_per_node) +
         " GPUs/node, " + std::string(to_string(r.obs.framework)) + ", " + to_string(r.obs.metric) + " " + num(r.obs.value) +
         (r.obs.metric == sim::Metric::samples_per_s ? " samples/s" : " s") + (r.fitted ? " (fitted)" : " (held back)") +
         (r.obs.source.empty() ? "" : "; source: " + r.obs.source);
}

}  // namespace

std::string job_profile_yaml(const calibrate::JobFit& fit, const std::string& scenario)
{
  YAML::Emitter e;
  e << YAML::BeginMap;
  e << YAML::Key << "kind" << YAML::Value << "ddpsim-job-profile";
  e << YAML::Key << "provenance" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "scenario" << YAML::Value << scenario;
  e << YAML::Key << "ddpsim" << YAML::Value << kDdpsimVersion;
  e << YAML::Key << "method" << YAML::Value
    << "Levenberg-Marquardt (Eigen) on ln(predicted/observed) of the fitted rows through sim::run_scenario; "
       "covariance sigma^2 (J^T J)^-1 in ln(value)";
  e << YAML::Key << "rows" << YAML::Value << YAML::BeginSeq;
  for (const calibrate::RowFit& r : fit.rows) e << describe(r);
  e << YAML::EndSeq << YAML::EndMap;
  if (const auto warnings = calibrate::job_warnings(fit); !warnings.empty()) {  // issue 18 item 4
    e << YAML::Key << "warnings" << YAML::Value << YAML::BeginSeq;
    for (const std::string& w : warnings) e << w;
    e << YAML::EndSeq;
  }
  const sim::JobContext& c = fit.context;
  e << YAML::Key << "context" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "instance" << YAML::Value << c.instance << YAML::Key << "gpu" << YAML::Value << c.gpu;
  e << YAML::Key << "fabric" << YAML::Value << c.fabric << YAML::Key << "framework" << YAML::Value << c.framework;
  e << YAML::Key << "model" << YAML::Value << c.model << YAML::Key << "parameters" << YAML::Value << c.parameters;
  e << YAML::Key << "batch_per_gpu" << YAML::Value << c.batch_per_gpu << YAML::Key << "precision" << YAML::Value
    << c.precision;
  // Keys with a default are written only when they differ from it, so a profile written before
  // them loads and means what it meant.
  if (c.kernels != "fused") e << YAML::Key << "kernels" << YAML::Value << c.kernels;  // model.kernels
  if (c.attention != "eager") e << YAML::Key << "attention" << YAML::Value << c.attention;  // model.attention
  if (c.memory_format != "contiguous") e << YAML::Key << "memory_format" << YAML::Value << c.memory_format;
  e << YAML::EndMap;
  e << YAML::Key << "sigma" << YAML::Value << num(fit.sigma);
  e << YAML::Key << "sigma_from" << YAML::Value
    << (fit.sigma_from_residuals ? "residuals" : "stated noise (as many rows as knobs)");
  int loo_rows = 0;
  const double model_error = calibrate::loo_model_error(fit, loo_rows);
  if (loo_rows > 0) {  // issue 18 item 4: the intervals' model-error term
    e << YAML::Key << "model_error_ln_sd" << YAML::Value << num(model_error);
    e << YAML::Key << "model_error_from" << YAML::Value
      << "leave-one-out predictions of " + std::to_string(loo_rows) + " fitted row(s)";
  }
  if (const calibrate::ExtrapolationError& x = fit.extrapolation; x.rows > 0) {  // beyond the fitted nodes
    e << YAML::Key << "extrapolation_ln_sd_per_doubling" << YAML::Value << num(x.ln_sd_per_doubling);
    e << YAML::Key << "extrapolation_beyond_nodes" << YAML::Value << x.fitted_nodes_max;
    e << YAML::Key << "extrapolation_from" << YAML::Value << x.from;
  }
  if (const calibrate::PlausibleAlternative& a = fit.alternative; !a.without.empty()) {  // issue 18 item 4
    e << YAML::Key << "alternative" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "without" << YAML::Value << YAML::Flow << a.without;
    e << YAML::Key << "knobs" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (std::size_t k = 0; k < a.knobs.size(); ++k) e << YAML::Key << a.knobs[k] << YAML::Value << num(a.values[k]);
    e << YAML::EndMap;
    e << YAML::Key << "from" << YAML::Value << a.how;
    e << YAML::EndMap;
  }
  e << YAML::Key << "knobs" << YAML::Value << YAML::BeginSeq;
  for (const calibrate::FittedKnob& k : fit.knobs)
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << k.name << YAML::Key << "value"
      << YAML::Value << num(k.value) << YAML::Key << "stderr" << YAML::Value << num(k.se()) << YAML::Key << "start"
      << YAML::Value << num(k.start) << YAML::EndMap;
  e << YAML::EndSeq;
  e << YAML::Key << "covariance_ln" << YAML::Value << YAML::BeginSeq;
  for (Eigen::Index a = 0; a < fit.cov_log.rows(); ++a) {
    e << YAML::Flow << YAML::BeginSeq;
    for (Eigen::Index b = 0; b < fit.cov_log.cols(); ++b) e << num(fit.cov_log(a, b));
    e << YAML::EndSeq;
  }
  e << YAML::EndSeq << YAML::EndMap;
  return "# ddpsim job profile, written by `ddpsim calibrate job` (docs/calibration.md)\n" + std::string(e.c_str()) + "\n";
}

JobProfile load_job_profile(const std::string& path) { return parse_job_profile(path, read_text_file(path)); }

namespace {
JobProfile parse_job_profile_node(const std::string& path, const std::string& text);
}  // namespace

// yaml-cpp throws on shapes the Reader's checks do not reach: a located user error, not exit 70.
JobProfile parse_job_profile(const std::string& name, const std::string& text)
{
  try {
    return parse_job_profile_node(name, text);
  } catch (const YAML::Exception& e) {
    throw UserError(SourceLocation{name, e.mark.line + 1, e.mark.column + 1}, "", std::string(e.msg));
  }
}

namespace {
JobProfile parse_job_profile_node(const std::string& path, const std::string& text)
{
  const YAML::Node root = parse_yaml(path, text);
  Reader r(path);
  JobProfile p;
  p.file = path;
  if (!r.expect_map(root, "")) r.finish();
  r.allow_keys(root, "", {"kind", "provenance", "warnings", "context", "sigma", "sigma_from", "model_error_ln_sd",
                          "model_error_from", "extrapolation_ln_sd_per_doubling", "extrapolation_beyond_nodes",
                          "extrapolation_from", "alternative", "knobs", "covariance_ln"});
  if (r.string(root, "", "kind", true).value_or("") != "ddpsim-job-profile" && r.ok())
    r.error(root["kind"], "kind", "not a ddpsim job profile (expected kind: ddpsim-job-profile)");
  if (const YAML::Node c = root["context"]; r.expect_map(c, "context")) {
    p.context.instance = r.string(c, "context", "instance", true).value_or("");
    p.context.gpu = r.string(c, "context", "gpu", true).value_or("");
    p.context.fabric = r.string(c, "context", "fabric", true).value_or("");
    p.context.framework = r.string(c, "context", "framework", true).value_or("");
    p.context.model = r.string(c, "context", "model", true).value_or("");
    p.context.parameters = static_cast<std::uint64_t>(r.integer(c, "context", "parameters", true, 0, std::int64_t{1} << 50).value_or(0));
    p.context.batch_per_gpu = static_cast<int>(r.integer(c, "context", "batch_per_gpu", true, 1, 1 << 24).value_or(1));
    p.context.precision = r.string(c, "context", "precision", true).value_or("");
    p.context.kernels = r.choice(c, "context", "kernels", false, {"fused", "eager"}).value_or("fused");
    p.context.attention = r.choice(c, "context", "attention", false, {"eager", "flash"}).value_or("eager");
    p.context.memory_format =
        r.choice(c, "context", "memory_format", false, {"contiguous", "channels_last"}).value_or("contiguous");
  }
  // Issue 20: which observed rows the fit used ("(fitted)") and which it held back, from the
  // provenance lines `calibrate job` writes ("...: nodes 4, 8 GPUs/node, lightning, total 1620 s (held back); ...").
  // At most six digits (a scenario's node counts stop at 2^20), so std::stoi never throws; a line with
  // more names no role.
  const YAML::Node provenance = root["provenance"];
  if (const YAML::Node rows = provenance.IsDefined() && provenance.IsMap() ? provenance["rows"] : YAML::Node(); rows.IsSequence()) {
    static const std::regex line(R"(nodes (\d{1,6})\b, \d+ GPUs/node, ([A-Za-z0-9_.-]+), [^;]*\((fitted|held back)\))");
    for (const YAML::Node& row : rows) {
      std::smatch m;
      const std::string line_text = row.IsScalar() ? row.Scalar() : "";
      if (std::regex_search(line_text, m, line)) p.roles.push_back({std::stoi(m[1]), m[2], m[3]});
    }
  }
  p.sigma = r.number(root, "", "sigma", true, 0, 10).value_or(0);
  p.model_error_ln_sd = r.number(root, "", "model_error_ln_sd", false, 0, 10).value_or(0);
  p.extrapolation_ln_sd = r.number(root, "", "extrapolation_ln_sd_per_doubling", false, 0, 10).value_or(0);
  p.extrapolation_beyond_nodes =
      static_cast<int>(r.integer(root, "", "extrapolation_beyond_nodes", p.extrapolation_ln_sd > 0, 1, 1 << 24).value_or(0));
  if (const YAML::Node a = root["alternative"]; a.IsDefined() && r.expect_map(a, "alternative")) {  // issue 18 item 4
    r.allow_keys(a, "alternative", {"without", "knobs", "from"});
    const YAML::Node without = a["without"], values = a["knobs"];
    if (!without.IsDefined() || !without.IsSequence() || without.size() == 0)
      r.error(without.IsDefined() ? without : a, "alternative.without", "expected a non-empty list of knob names");
    for (std::size_t i = 0; without.IsDefined() && without.IsSequence() && i < without.size(); ++i) {
      const std::string name = without[i].IsScalar() ? without[i].Scalar() : "";
      try {
        p.alternative_without.push_back(sim::knob(name).name);
      } catch (const UserError&) {
        r.error(without[i], "alternative.without", "unknown knob \"" + name + "\"");
      }
    }
    if (values.IsDefined() && r.expect_map(values, "alternative.knobs"))
      for (const auto& kv : values) {
        const std::string name = kv.first.Scalar();
        try {
          const sim::Knob& k = sim::knob(name);
          const auto v = r.as_number(kv.second, "alternative.knobs." + name, 0, 1e300);
          if (v && !(*v > k.lower && *v <= k.upper))
            r.error(kv.second, "alternative.knobs." + name, "outside " + name + "'s physical range");
          p.alternative_knobs.push_back(name);
          p.alternative_values.push_back(v.value_or(1));
        } catch (const UserError&) {
          r.error(kv.first, "alternative.knobs", "unknown knob \"" + name + "\"");
        }
      }
  }
  const YAML::Node ks = root["knobs"];
  if (!ks.IsDefined() || !ks.IsSequence() || ks.size() == 0) r.error(ks.IsDefined() ? ks : root, "knobs", "expected a non-empty list");
  for (std::size_t i = 0; ks.IsDefined() && ks.IsSequence() && i < ks.size(); ++i) {
    const std::string kp = "knobs[" + std::to_string(i) + "]";
    if (!r.expect_map(ks[i], kp)) continue;
    r.allow_keys(ks[i], kp, {"name", "value", "stderr", "start"});
    const std::string name = r.string(ks[i], kp, "name", true).value_or("");
    try {
      const sim::Knob& k = sim::knob(name);
      const auto v = r.number(ks[i], kp, "value", true, 0, 1e300);
      if (v && !(*v > k.lower && *v <= k.upper))
        r.error(ks[i]["value"], kp + ".value", "outside " + name + "'s physical range");
      p.knobs.push_back(name);
      p.values.push_back(v.value_or(1));
    } catch (const UserError&) {
      r.error(ks[i]["name"], kp + ".name", "unknown knob \"" + name + "\"");
    }
  }
  const YAML::Node cov = root["covariance_ln"];
  const auto n = static_cast<Eigen::Index>(p.knobs.size());
  p.cov_log = Eigen::MatrixXd::Zero(n, n);
  if (!cov.IsDefined() || !cov.IsSequence() || static_cast<Eigen::Index>(cov.size()) != n) {
    r.error(cov.IsDefined() ? cov : root, "covariance_ln", "expected one row per knob");
  } else {
    for (Eigen::Index a = 0; a < n; ++a) {
      const YAML::Node row = cov[static_cast<std::size_t>(a)];
      if (!row.IsSequence() || static_cast<Eigen::Index>(row.size()) != n) {
        r.error(row, "covariance_ln", "expected " + std::to_string(n) + " numbers per row");
        continue;
      }
      for (Eigen::Index b = 0; b < n; ++b)
        p.cov_log(a, b) = r.as_number(row[static_cast<std::size_t>(b)], "covariance_ln", -1e6, 1e6).value_or(0);
    }
  }
  r.finish();
  return p;
}
}  // namespace

}  // namespace ddpsim::app
