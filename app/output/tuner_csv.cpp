#include "app/output/tuner_csv.hpp"

namespace ddpsim::app {

std::string tuner_csv(const calibrate::TunerExport& e)
{
  std::string out;
  // plugin.c reads lines into a 256-byte buffer: a longer comment's rest would be read as a line.
  for (const std::string& h : e.header) out += "# " + h.substr(0, 240) + "\n";
  if (e.rows.empty()) out += "# no size range where the fitted choice differs from NCCL's default: nothing to override\n";
  for (const calibrate::TunerRow& r : e.rows) {
    out += "# " + r.why.substr(0, 240) + "\n";
    out += r.collective + "," + std::to_string(r.min_bytes) + "," + std::to_string(r.max_bytes) + "," + r.algorithm + "," +
           r.protocol + ",-1," + std::to_string(r.nodes) + "," + std::to_string(r.ranks) + ",-1,-1\n";
  }
  return out;
}

}  // namespace ddpsim::app
