#include "calibrate/collective_sweep.hpp"

#include <optional>

#include "calibrate/nccl_tests.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {

std::vector<std::uint64_t> sweep_sizes(std::uint64_t lo, std::uint64_t hi, std::uint64_t factor)
{
  std::vector<std::uint64_t> out;
  for (std::uint64_t b = lo; b <= hi; b *= factor) {
    out.push_back(b);
    if (b > hi / factor) break;
  }
  return out;
}

std::vector<SweepRow> predict_sweep(const sim::CollectiveModel& model, sim::NetworkBackend& net, algo::CollectiveOp op,
                                    int ranks, const std::vector<std::uint64_t>& sizes, const std::string& size_field)
{
  std::vector<SweepRow> rows;
  for (std::uint64_t b : sizes) {
    double t = 0;
    std::optional<sim::PricedCollective> priced;
    try {
      priced = model.price(op, Bytes{b});
      t = sim::time_alone_us(*priced, net);
    } catch (const OverflowError& e) {
      // Only the size can drive a collective past the clock (the cluster is bounded above).
      throw UserError(SourceLocation{}, size_field, std::to_string(b) + " bytes: " + e.what());
    }
    const sim::PricedCollective& c = *priced;
    // A collective that moves nothing (one rank) takes no time in the model: it prints 0 s and
    // 0 GB/s, never inf or nan (issue 21).
    const double algbw = t > 0 ? static_cast<double>(b) / (t * 1e-6) / 1e9 : 0.0;
    rows.push_back(SweepRow{b, t, algbw, algbw * bus_factor(op, ranks), std::string(c.algorithm->name()),
                            c.protocol ? std::string(to_string(*c.protocol)) : "-"});
  }
  return rows;
}

std::vector<CandidateRow> explain_sweep(const sim::CollectiveModel& model, sim::NetworkBackend& net, algo::CollectiveOp op,
                                        const std::vector<std::uint64_t>& sizes, const std::string& size_field)
{
  std::vector<CandidateRow> rows;
  for (std::uint64_t b : sizes) {
    try {
      const sim::PricedCollective run = model.price(op, Bytes{b});
      const sim::CollectiveModel::Explanation why = model.explain(op, Bytes{b});
      for (const sim::PricedCollective& c : why.candidates) {
        CandidateRow r{b, std::string(c.algorithm->name()), c.protocol ? std::string(to_string(*c.protocol)) : "-",
                       c.nccl_estimate_us, sim::time_alone_us(c, net), false, ""};
        r.chosen = c.algorithm == run.algorithm && c.protocol == run.protocol;
        if (r.chosen) r.chooser = why.chooser;
        rows.push_back(std::move(r));
      }
    } catch (const OverflowError& e) {
      throw UserError(SourceLocation{}, size_field, std::to_string(b) + " bytes: " + e.what());
    }
  }
  return rows;
}

std::vector<SweepRow> compare_log(const sim::CollectiveModel& model, sim::NetworkBackend& net, algo::CollectiveOp op,
                                  int ranks, const NcclLog& log, const std::string& field)
{
  if (log.ranks != ranks)
    throw UserError(SourceLocation{log.file, log.rows.front().line, 1}, "",
                    "the log has " + std::to_string(log.ranks) + " ranks, the prediction " + std::to_string(ranks) +
                        " (check --nodes)");
  std::vector<std::uint64_t> sizes;
  for (const LogRow& r : log.rows) sizes.push_back(r.bytes.n);
  std::vector<SweepRow> rows = predict_sweep(model, net, op, ranks, sizes, field);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SweepRow& r = rows[i];
    r.measured_us = log.rows[i].time_us, r.measured_busbw = log.rows[i].busbw_GBps;
    const double printed = as_benchmarked_us(log, r.time_us);
    if (printed == r.time_us) continue;
    r.time_us = printed, r.launch_bound = true;
    r.algbw = static_cast<double>(r.bytes) / (printed * 1e-6) / 1e9, r.busbw = r.algbw * bus_factor(op, ranks);
  }
  return rows;
}

}  // namespace ddpsim::calibrate
