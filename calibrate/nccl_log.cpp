#include "calibrate/nccl_log.hpp"

#include "calibrate/log_env.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/text.hpp"
#include "topology/transport.hpp"

namespace ddpsim::calibrate {
namespace {

[[noreturn]] void fail(const std::string& file, int line, int col, const std::string& msg)
{
  throw UserError(SourceLocation{file, line, col}, "", msg);
}

// A finite number in full, or NaN (strtod alone would also take "inf", "nan" and hex floats).
double number(const std::string& s)
{
  if (s.empty()) return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(v) ? v : std::nan("");
}

// Half a unit in the last printed place of a decimal number ("93.89" -> 0.005): how far the true
// value can be from what nccl-tests printed.
double half_ulp(const std::string& s)
{
  const auto e = s.find_first_of("eE");
  const std::string mantissa = s.substr(0, e);
  const auto dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  const int exponent = e == std::string::npos ? 0 : std::atoi(s.c_str() + e + 1);
  return 0.5 * std::pow(10.0, exponent - decimals);
}

// Sizes beyond this (2^63 B) are not a measurement; they would not fit the byte counters either.
constexpr double kMaxLogBytes = 9.2e18;
// Times beyond ~100 days are no measurement (and do not fit ddpsim's picosecond clock).
constexpr double kMaxLogTimeUs = 8.64e12;

// Launcher prefixes: "[1,0]<stdout>:" (Open MPI --tag-output), "0:" (srun --label).
const std::regex kPrefix(R"(^\s*(\[\d+,\d+\]<std(out|err)>:|\d+:(?=\s)))");

// The row with the widest algbw (the most printed digits) and the bounds its digits put on
// busbw/algbw = 2(n-1)/n; null row when no row has a bandwidth.
struct RatioRow {
  const LogRow* row = nullptr;
  double lo = 0, hi = 0;
};
RatioRow widest_row(const NcclLog& log)
{
  RatioRow w;
  for (const LogRow& r : log.rows)
    if (r.algbw_GBps > 0 && (!w.row || r.algbw_GBps > w.row->algbw_GBps)) w.row = &r;
  if (!w.row) return w;
  w.lo = (w.row->busbw_GBps - w.row->busbw_ulp) / (w.row->algbw_GBps + w.row->algbw_ulp);
  w.hi = (w.row->busbw_GBps + w.row->busbw_ulp) / (w.row->algbw_GBps - w.row->algbw_ulp);
  return w;
}

int ranks_from_ratio(const NcclLog& log)
{
  // busbw/algbw = 2(n-1)/n, so n = 2 / (2 - ratio). The printed digits bound the ratio; when the
  // bounds give different rank counts the log cannot tell n (near ratio 2 a rounding step spans
  // thousands of ranks).
  const auto [best, lo, hi] = widest_row(log);
  if (!best) fail(log.file, 1, 1, "no row with a bandwidth: cannot tell the rank count");
  const double ratio = best->busbw_GBps / best->algbw_GBps;
  if (best->busbw_GBps == 0)
    fail(log.file, best->line, 1,
         fmt("busbw is 0 with algbw %.2f GB/s", best->algbw_GBps) +
             ": a one-GPU log (an all-reduce among 1 rank moves nothing between GPUs; nothing to fit)");
  if (!(ratio >= 0.99 && ratio < 2.0))
    fail(log.file, best->line, 1, "busbw/algbw = " + std::to_string(ratio) + " is not an all_reduce's 2(n-1)/n");
  // The rank counts whose 2(n-1)/n lies within the printed digits' bounds: exactly one names n;
  // none (rounding pushed the ratio between two counts) takes the nearest; several cannot tell.
  const long n = std::lround(2.0 / (2.0 - std::max(ratio, 0.99)));
  const double n_lo = 2.0 / (2.0 - std::max(lo, 0.99));
  const double n_hi = hi < 2.0 ? 2.0 / (2.0 - hi) : 1e18;
  const double fits = std::floor(n_hi) - std::ceil(n_lo) + 1;  // integers in [n_lo, n_hi]
  if (fits > 1 || best->algbw_GBps <= best->algbw_ulp)
    fail(log.file, best->line, 1,
         "busbw/algbw = " + std::to_string(ratio) + " does not determine the rank count at the printed precision " +
             "(use the CSV form with a GPUs column)");
  if (n > kMaxLogRanks)
    fail(log.file, best->line, 1, "busbw/algbw implies " + std::to_string(n) + " ranks, more than " +
                                      std::to_string(kMaxLogRanks));
  return std::max(1, static_cast<int>(n));
}

// A device list's rank count must agree with the table it heads: busbw/algbw = 2(n-1)/n within the
// printed digits of the row with the widest algbw (a list pasted above another run's table fails).
void check_listed_ranks(const NcclLog& log)
{
  const auto [best, lo, hi] = widest_row(log);
  if (!best || best->algbw_GBps <= best->algbw_ulp) return;
  const double want = 2.0 * (log.ranks - 1) / log.ranks;
  if (want < lo - 1e-12 || want > hi + 1e-12)
    fail(log.file, best->line, 1,
         "busbw/algbw = " + std::to_string(best->busbw_GBps / best->algbw_GBps) + " is not 2(n-1)/n = " + std::to_string(want) +
             " for the " + std::to_string(log.ranks) + " ranks the device list names");
}

NcclLog parse_csv(const std::string& file, const std::vector<std::string>& lines)
{
  NcclLog log;
  log.file = file;
  std::vector<std::string> header;
  int idx_nodes = -1, idx_gpus = -1, idx_size = -1, idx_algbw = -1, idx_busbw = -1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trim(lines[i]);
    const int lineno = static_cast<int>(i) + 1;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells = split(line, ',');
    for (auto& c : cells) c = trim(c);
    if (header.empty()) {
      header = cells;
      for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string& h = header[c];
        const int ci = static_cast<int>(c);
        if (h == "Nodes") idx_nodes = ci;
        if (h == "GPUs") idx_gpus = ci;
        if (h == "size(MB)") idx_size = ci;
        if (h == "out algbw(GB/s)") idx_algbw = ci;
        if (h == "out busbw(GB/s)") idx_busbw = ci;
      }
      for (auto [idx, name] : {std::pair{idx_nodes, "Nodes"}, {idx_gpus, "GPUs"}, {idx_size, "size(MB)"},
                               {idx_algbw, "out algbw(GB/s)"}, {idx_busbw, "out busbw(GB/s)"}})
        if (idx < 0) fail(file, lineno, 1, std::string("CSV header has no column \"") + name + "\"");
      continue;
    }
    if (cells.size() != header.size())
      fail(file, lineno, 1, "expected " + std::to_string(header.size()) + " columns, found " + std::to_string(cells.size()));
    auto get = [&](int idx) {
      const double v = number(cells[static_cast<std::size_t>(idx)]);
      if (std::isnan(v) || v < 0) fail(file, lineno, 1, "column \"" + header[static_cast<std::size_t>(idx)] + "\" is not a number: \"" + cells[static_cast<std::size_t>(idx)] + "\"");
      return v;
    };
    auto count = [&](int idx, double max) {
      const double v = get(idx);
      if (v < 1 || v > max || std::floor(v) != v)
        fail(file, lineno, 1, "column \"" + header[static_cast<std::size_t>(idx)] + "\" must be a whole number from 1 to " +
                                  std::to_string(static_cast<long>(max)) + ", got \"" + cells[static_cast<std::size_t>(idx)] + "\"");
      return static_cast<int>(v);
    };
    const int nodes = count(idx_nodes, kMaxLogRanks), gpus = count(idx_gpus, kMaxLogRanks);
    if ((log.nodes && log.nodes != nodes) || (log.ranks && log.ranks != gpus))
      fail(file, lineno, 1, "rows with different Nodes/GPUs in one file (split it per cluster size)");
    log.nodes = nodes;
    log.ranks = gpus;
    LogRow r;
    r.line = lineno;
    const double size_bytes = get(idx_size) * static_cast<double>(MiB);
    if (size_bytes >= kMaxLogBytes) fail(file, lineno, 1, "column \"size(MB)\" is too large");
    r.bytes = Bytes{static_cast<std::uint64_t>(std::llround(size_bytes))};
    r.algbw_GBps = get(idx_algbw);
    r.busbw_GBps = get(idx_busbw);
    r.algbw_ulp = half_ulp(cells[static_cast<std::size_t>(idx_algbw)]);
    r.busbw_ulp = half_ulp(cells[static_cast<std::size_t>(idx_busbw)]);
    if (r.algbw_GBps <= 0) fail(file, lineno, 1, "algbw must be positive");
    if (r.bytes.n == 0) fail(file, lineno, 1, "column \"size(MB)\" must be positive");
    r.time_us = r.bytes.as_double() / (r.algbw_GBps * 1e9) * 1e6;
    if (r.time_us > kMaxLogTimeUs) fail(file, lineno, 1, "size / algbw is longer than 100 days");
    log.rows.push_back(r);
  }
  if (header.empty()) fail(file, 1, 1, "no CSV header found");
  return log;
}

NcclLog parse_text(const std::string& file, const std::vector<std::string>& lines)
{
  NcclLog log;
  log.file = file;
  const std::regex version(R"(NCCL version\s+([0-9][0-9A-Za-z.+_-]*))");
  int with_root = -1;  // -1 unknown: decided by the header line, else by the row's shape
  std::set<int> listed;  // the ranks of the device list
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int lineno = static_cast<int>(i) + 1;
    std::smatch m;
    std::string line = std::regex_replace(lines[i], kPrefix, "", std::regex_constants::format_first_only);
    if (std::regex_search(line, m, version) && log.nccl_version.empty()) log.nccl_version = m[1];
    const std::string t = trim(line);
    if (t.empty()) continue;
    if (t[0] == '#') {
      // nccl-tests' device list ("# Using devices", then one "#  Rank  3 [Group 0] Pid ... on host
      // device 3 ..." line per rank, all ranks printed by rank 0) states the rank count; it heads the
      // table, so only lines before the first row count.
      static const std::regex rank_line(R"(^#\s*Rank\s+([0-9]{1,7})\s+(Group\s+[0-9]+\s+)?Pid\s+[0-9]+\s+on\s)");
      if (log.rows.empty() && t.find("Rank") != std::string::npos && std::regex_search(t, m, rank_line)) {
        const long id = std::stol(m[1]);
        if (id >= kMaxLogRanks) fail(file, lineno, 1, "Rank " + std::string(m[1]) + " is out of range 0.." + std::to_string(kMaxLogRanks - 1));
        listed.insert(static_cast<int>(id));
        continue;
      }
      static const std::regex gpus(R"(\bnGpus\s+([0-9]+))");
      if (std::regex_search(t, m, gpus)) {
        const std::string g = m[1];
        const int count = g.size() > 6 ? 0 : std::stoi(g);  // more digits than any count we take
        if (count < 1 || count > kMaxLogRanks)
          fail(file, lineno, static_cast<int>(lines[i].find(g, lines[i].find("nGpus"))) + 1,
               "nGpus " + g + " is out of range 1.." + std::to_string(kMaxLogRanks));
        log.gpus_per_thread = count;
      }
      if (t.find("redop") != std::string::npos) with_root = t.find("root") != std::string::npos ? 1 : 0;
      static const std::regex avg(R"(Avg bus bandwidth\s*:\s*([0-9.eE+-]+))");
      if (std::regex_search(t, m, avg) && std::isfinite(number(m[1]))) log.avg_busbw_GBps = number(m[1]);
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(t[0]))) continue;  // prose, "...", NCCL INFO lines
    std::istringstream in(t);
    std::vector<std::string> tok;
    for (std::string w; in >> w;) tok.push_back(w);
    // size count type redop [root] time algbw busbw #wrong|error ...
    const bool root = with_root == 1 || (with_root == -1 && tok.size() >= 9 && tok[4] == "-1");
    const std::size_t t0 = root ? 5 : 4;
    const int col = static_cast<int>(lines[i].find(t) + 1);
    if (tok.size() < t0 + 3)
      fail(file, lineno, col, "truncated nccl-tests row: expected size, count, type, redop" +
                                  std::string(root ? ", root" : "") + ", time, algbw, busbw");
    const double size = number(tok[0]), time = number(tok[t0]), algbw = number(tok[t0 + 1]), busbw = number(tok[t0 + 2]);
    if (std::isnan(size) || std::isnan(number(tok[1])) || std::isnan(time) || std::isnan(algbw) || std::isnan(busbw) ||
        time < 0 || size < 0)
      fail(file, lineno, col, "wrong columns: expected numbers for size, count, time, algbw and busbw in \"" + t + "\"");
    if (size == 0) continue;
    if (size >= kMaxLogBytes || std::floor(size) != size)
      fail(file, lineno, col, "size must be a whole number of bytes below 2^63, got \"" + tok[0] + "\"");
    if (time == 0) fail(file, lineno, col, "time must be positive (a zero time is no measurement)");
    if (time > kMaxLogTimeUs) fail(file, lineno, col, "time " + tok[t0] + " us is longer than 100 days");
    if (!log.rows.empty() && static_cast<std::uint64_t>(size) <= log.rows.back().bytes.n)
      fail(file, lineno, col, "sizes must increase down a table (a second table in the same file? split it)");
    log.rows.push_back(LogRow{lineno, Bytes{static_cast<std::uint64_t>(size)}, time, algbw, busbw,
                              half_ulp(tok[t0 + 1]), half_ulp(tok[t0 + 2])});
  }
  // A whole device list (ranks 0..n-1, each once) names n; a partial one (an excerpt) names nothing.
  if (!listed.empty() && *listed.begin() == 0 && *listed.rbegin() + 1 == static_cast<int>(listed.size()))
    log.ranks = static_cast<int>(listed.size());
  return log;
}

}  // namespace

NcclLog parse_nccl_log(const std::string& file, const std::string& text)
{
  std::vector<std::string> lines = split(text, '\n');
  bool csv = false;
  for (const std::string& l : lines) {
    const std::string t = trim(l);
    if (t.empty() || t[0] == '#') continue;
    csv = t.find(',') != std::string::npos && t.find("size") != std::string::npos;
    break;
  }
  NcclLog log = csv ? parse_csv(file, lines) : parse_text(file, lines);
  if (log.rows.empty())
    fail(file, 1, 1, "no nccl-tests result rows found (expected all_reduce_perf's table or its CSV form)");
  if (log.ranks == 0) log.ranks = ranks_from_ratio(log);
  else if (!csv) check_listed_ranks(log);
  log.environment = environment_lines(lines);
  // One range for NCCL_BUFFSIZE wherever it comes from (topology/transport.hpp nccl_buffsize_ok):
  // every command that prices a log (collective --compare, calibrate fit, expect --check) sees it.
  // environment_lines kept the lines that set it; only then look for them again, with their numbers.
  const bool sets_buffsize = buffsize_setting(log.environment).has_value();
  for (std::size_t i = 0; sets_buffsize && i < lines.size(); ++i)
    if (const auto digits = buffsize_setting(lines[i])) {
      const bool ok = digits->size() <= 19 && nccl_buffsize_ok(Bytes{std::stoull(*digits)});
      if (!ok)
        fail(file, static_cast<int>(i) + 1, static_cast<int>(lines[i].find(*digits, lines[i].find("NCCL_BUFFSIZE"))) + 1,
             "NCCL_BUFFSIZE " + *digits + " is out of range " + kNcclBuffsizeRange + " (bytes)");
    }
  return log;
}

NcclLog read_nccl_log(const std::string& file)
{
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UserError(SourceLocation{file, 0, 0}, "", "cannot read the file");
  std::ostringstream s;
  s << in.rdbuf();
  return parse_nccl_log(file, s.str());
}

}  // namespace ddpsim::calibrate
