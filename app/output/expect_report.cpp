#include "app/output/expect_report.hpp"

#include <nlohmann/json.hpp>

#include "app/output/text_format.hpp"
#include "core/text.hpp"

namespace ddpsim::app {

std::string expect_table(const calibrate::Expectation& e)
{
  std::string out = "# ddpsim expect: " + e.op + " busbw (GB/s, as nccl-tests prints it) on " + printable(e.instance) + ", " +
                    std::to_string(e.gpus_per_node) + " GPUs per node\n";
  for (const std::string& p : e.provenance) out += "# " + printable(p) + "\n";
  out += "#\n" + pad("nodes", 5) + "  " + pad("ranks", 6) + "  " + pad("size (B)", 12) + "  " + pad("p10", 8) + "  " +
         pad("p50", 8) + "  " + pad("p90", 8) + "  " + pad("points", 6) + "  algorithm protocol\n";
  for (const calibrate::ExpectRow& r : e.rows)
    out += pad(std::to_string(r.nodes), 5) + "  " + pad(std::to_string(r.ranks), 6) + "  " + pad(std::to_string(r.bytes), 12) +
           "  " + pad(fmt("%.2f", r.p10), 8) + "  " + pad(fmt("%.2f", r.p50), 8) + "  " + pad(fmt("%.2f", r.p90), 8) + "  " +
           pad(std::to_string(r.points), 6) + "  " + r.algorithm + " " + r.protocol + "\n";
  out += "# points = measured points behind the row's spread (0: the catalog price's measured error, where no fitted scope or fitted latency covers the size)\n";
  return out;
}

std::string check_table(const calibrate::Expectation& e, const std::vector<calibrate::CheckRow>& rows, const std::string& log_file)
{
  std::string out = "# ddpsim expect --check " + printable(log_file) + ": " + e.op + " on " + printable(e.instance) + ", " +
                    std::to_string(rows.empty() ? 0 : rows.front().expected.nodes) + " node(s)\n";
  for (const std::string& p : e.provenance) out += "# " + printable(p) + "\n";
  int slow = 0, fast = 0;
  for (const calibrate::CheckRow& c : rows) {
    out += pad(std::to_string(c.expected.bytes), 12) + "  busbw " + pad(fmt("%.2f", c.measured_busbw), 8) + "  expected " +
           pad(fmt("%.2f", c.expected.p10), 8) + " - " + pad(fmt("%.2f", c.expected.p90), 8) + " (p50 " +
           fmt("%.2f", c.expected.p50) + ")  " + c.verdict + "\n";
    slow += c.verdict == "slow", fast += c.verdict == "fast";
  }
  out += "# " + std::to_string(rows.size()) + " sizes: " + std::to_string(rows.size() - static_cast<std::size_t>(slow + fast)) +
         " pass, " + std::to_string(slow) + " slow, " + std::to_string(fast) + " fast" + (slow ? " (exit 1)" : "") + "\n";
  return out;
}

std::string expect_json(const calibrate::Expectation& e, const std::vector<calibrate::CheckRow>* check)
{
  nlohmann::ordered_json j{{"instance", e.instance},   {"op", e.op},
                            {"gpus_per_node", e.gpus_per_node}, {"algorithm", e.algorithm},
                            {"provenance", e.provenance}, {"rows", nlohmann::ordered_json::array()}};
  for (std::size_t i = 0; i < e.rows.size(); ++i) {
    const calibrate::ExpectRow& r = e.rows[i];
    nlohmann::ordered_json o{{"nodes", r.nodes}, {"ranks", r.ranks}, {"bytes", r.bytes}, {"busbw_p10_GBps", r.p10},
                             {"busbw_p50_GBps", r.p50}, {"busbw_p90_GBps", r.p90}, {"points", r.points},
                             {"algorithm", r.algorithm}, {"protocol", r.protocol}};
    if (check) o["measured_busbw_GBps"] = (*check)[i].measured_busbw, o["verdict"] = (*check)[i].verdict;
    j["rows"].push_back(std::move(o));
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ddpsim::app
