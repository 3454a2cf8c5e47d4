#include "app/output/collective_report.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/output/text_format.hpp"
#include "calibrate/launch_floor.hpp"
#include "core/text.hpp"

namespace ddpsim::app {
namespace {

using Row = calibrate::SweepRow;

// nccl-tests' time: whole microseconds from 10 ms, else one decimal; right-aligned in 7 in its columns.
std::string us_text(double us) { return us >= 10000 ? fmt("%.0f", us) : fmt("%.1f", us); }
std::string time_us(double us) { return pad(us_text(us), 7); }

// nccl-tests' table (all_reduce_perf and friends): out-of-place and in-place columns (the model
// gives both the same time: the copy NCCL skips in place is not modelled), then ddpsim's
// algorithm and protocol; with --compare the measured time and busbw and the time error before
// them. The time column switches to %7.0f above 10 ms, and the footer carries nccl-tests'
// "Avg bus bandwidth" (the mean busbw over all rows, both placements), as nccl-tests prints them
// (src/common.cu). calibrate/nccl_log.cpp reads this table back.
std::string nccl_tests_table(const CollectiveReport& rep)
{
  const std::vector<Row>& rows = rep.rows;
  const CollectiveInterval& band = rep.band;
  const bool cmp = rep.compared, banded = !band.empty();
  std::ostringstream out;
  out << "# ddpsim collective prediction: " << rep.op << " on " << rep.nodes << " x " << rep.instance << ", "
      << rep.ranks << " ranks, profile " << printable(rep.profile) << "\n";
  out << "#\n#                                                              out-of-place                       in-place"
      << (cmp ? "                    measured" : "") << "\n";
  out << "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong"
      << (cmp ? "     time   busbw   error" : "") << (banded ? "     time p10-p90" : "") << "  algorithm protocol\n";
  out << "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)"
      << (cmp ? "           (us)  (GB/s)" : "") << (banded ? "              (us)" : "") << "\n";
  double busbw_sum = 0;
  // nccl-tests' redop and root columns: "none" where the collective reduces nothing, root 0 for a
  // rooted one (broadcast_perf's default -r 0), -1 otherwise (src/common.cu, src/*.cu).
  const bool reduces = rep.op == "all_reduce" || rep.op == "reduce_scatter";
  const int root = rep.op == "broadcast" ? 0 : -1;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    char line[320];
    const std::string time = time_us(r.time_us);
    std::snprintf(line, sizeof line, "%12llu  %12llu  %8s  %6s  %6d  %7s  %6.2f  %6.2f  %6s  %7s  %6.2f  %6.2f  %6s",
                  static_cast<unsigned long long>(r.bytes), static_cast<unsigned long long>(r.bytes / 4), "float",
                  reduces ? "sum" : "none", root, time.c_str(), r.algbw, r.busbw, "N/A", time.c_str(), r.algbw, r.busbw, "N/A");
    out << line;
    if (cmp) {
      const std::string mt = time_us(r.measured_us);
      std::snprintf(line, sizeof line, "  %7s  %6.2f  %+5.0f%%", mt.c_str(), r.measured_busbw,
                    (r.time_us / r.measured_us - 1) * 100);
      out << line;
    }
    if (banded) {
      out << "  " << pad(us_text(band.p10_us[i]) + "-" + us_text(band.p90_us[i]), 15);
    }
    out << "  " << r.algorithm << " " << r.protocol << "\n";
    busbw_sum += 2 * r.busbw;
  }
  out << "# Out of bounds values : N/A (predicted, not checked)\n";
  const auto bound = std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.launch_bound; });
  if (bound > 0) {  // every such row is at the one floor
    const double floor_us = std::find_if(rows.begin(), rows.end(), [](const Row& r) { return r.launch_bound; })->time_us;
    char note[200];
    std::snprintf(note, sizeof note,
                  "# Launch floor         : %.1f us on %lld rows (NCCL's host calls per iteration, nGpus x %.2f us; "
                  "docs/calibration.md)\n",
                  floor_us, static_cast<long long>(bound), calibrate::kNcclHostCallUs);
    out << note;
  }
  if (banded) {
    int inside = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
      inside += rows[i].measured_us >= band.p10_us[i] && rows[i].measured_us <= band.p90_us[i];
    out << "# Interval (p10-p90)   : " << band.what
        << (cmp ? "; " + std::to_string(inside) + " of " + std::to_string(rows.size()) + " measured rows inside" : "")
        << "\n";
  }
  char avg[96];
  std::snprintf(avg, sizeof avg, "# Avg bus bandwidth    : %g \n", rows.empty() ? 0.0 : busbw_sum / (2.0 * static_cast<double>(rows.size())));
  out << avg << "#\n";
  return out.str();
}


// JSON: the command's context, then each size; the band and a log's measurements where present.
std::string json_report(const CollectiveReport& rep)
{
  const CollectiveInterval& band = rep.band;
  nlohmann::ordered_json j;
  j["instance"] = rep.instance;
  j["nodes"] = rep.nodes;
  j["ranks"] = rep.ranks;
  j["op"] = rep.op;
  j["profile"] = rep.profile;
  if (!band.empty())
    j["interval"] = "p10-p90: " + band.what;
  j["rows"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const Row& r = rep.rows[i];
    nlohmann::ordered_json row = {{"bytes", r.bytes},      {"time_us", r.time_us},     {"algbw_GBps", r.algbw},
                                  {"busbw_GBps", r.busbw}, {"algorithm", r.algorithm}, {"protocol", r.protocol}};
    if (!band.empty()) {
      row["time_us_p10"] = band.p10_us[i];
      row["time_us_p90"] = band.p90_us[i];
    }
    if (r.measured_us > 0) {
      row["measured_time_us"] = r.measured_us;
      row["time_error"] = r.time_us / r.measured_us - 1;
      row["launch_bound"] = r.launch_bound;
    }
    j["rows"].push_back(row);
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// CSV: one line per size; a log's columns with --compare, the band's where it applies.
std::string csv_report(const CollectiveReport& rep)
{
  const CollectiveInterval& band = rep.band;
  std::string text = std::string("bytes,time_us,algbw_GBps,busbw_GBps,algorithm,protocol") +
                     (rep.compared ? ",measured_time_us,measured_busbw_GBps,time_error,busbw_error" : "") +
                     (band.empty() ? "" : ",time_us_p10,time_us_p90") + "\n";
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const Row& r = rep.rows[i];
    text += std::to_string(r.bytes) + "," + fmt("%.3f", r.time_us) + "," + fmt("%.3f", r.algbw) + "," +
            fmt("%.3f", r.busbw) + "," + r.algorithm + "," + r.protocol;
    if (rep.compared)
      text += "," + fmt("%.2f", r.measured_us) + "," + fmt("%.2f", r.measured_busbw) + "," +
              fmt("%.4f", r.time_us / r.measured_us - 1) + "," + fmt("%.4f", r.measured_us / r.time_us - 1);
    if (!band.empty()) text += "," + fmt("%.3f", band.p10_us[i]) + "," + fmt("%.3f", band.p90_us[i]);
    text += "\n";
  }
  return text;
}

}  // namespace

std::string collective_report(const CollectiveReport& rep, const std::string& format)
{
  if (format == "json") return json_report(rep);
  if (format == "csv") return csv_report(rep);
  return nccl_tests_table(rep);
}

}  // namespace ddpsim::app
