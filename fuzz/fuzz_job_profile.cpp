// Job profiles (`calibration:` of a scenario, written by `calibrate job`): parse untrusted text;
// anything but a located UserError is a finding, and so is a loaded profile whose numbers are not
// finite or whose covariance does not match its knobs.
#include <cmath>
#include <string>

#include "app/input/job_profile_io.hpp"
#include "fuzz_common.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string text(reinterpret_cast<const char*>(data), size);
  sim::JobProfile p;
  if (!fuzz::accepts([&] { p = app::parse_job_profile("fuzz.yaml", text); })) return 0;
  if (p.knobs.empty() || p.knobs.size() != p.values.size()) fuzz::finding("knobs and values differ in number");
  if (p.cov_log.rows() != static_cast<Eigen::Index>(p.knobs.size()) || p.cov_log.cols() != p.cov_log.rows())
    fuzz::finding("the covariance does not match the knobs");
  for (double v : p.values)
    if (!std::isfinite(v) || v <= 0) fuzz::finding("a knob value is not a positive finite number");
  if (p.alternative_knobs.size() != p.alternative_values.size()) fuzz::finding("alternative knobs and values differ in number");
  return 0;
}
