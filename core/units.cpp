#include "core/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.hpp"

namespace ddpsim {
namespace {

struct Unit {
  std::string_view name;
  double factor;  // multiply the number by this to get the base unit
};

// Splits "1.5 us" into 1.5 and "us". Throws ValueError when there is no number.
std::pair<double, std::string_view> split_number(std::string_view text, std::string_view what)
{
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data())
    throw ValueError("expected a " + std::string(what) + " such as " +
                     (what == "size" ? "\"25MiB\"" : what == "duration" ? "\"1.5us\"" : "\"25Gbps\"") + ", got \"" +
                     std::string(text) + "\"");
  if (!std::isfinite(value)) throw ValueError("the " + std::string(what) + " \"" + std::string(text) + "\" is not finite");
  std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  return {value, unit};
}

template <std::size_t N>
double scale(std::string_view text, std::string_view what, const std::array<Unit, N>& units, bool unitless_ok)
{
  auto [value, unit] = split_number(text, what);
  if (value < 0) throw ValueError("the " + std::string(what) + " \"" + std::string(text) + "\" is negative");
  if (unit.empty()) {
    if (unitless_ok) return value;
    std::string valid;
    for (const Unit& u : units) valid += (valid.empty() ? "" : ", ") + std::string(u.name);
    throw ValueError("the " + std::string(what) + " \"" + std::string(text) + "\" has no unit (use one of " + valid + ")");
  }
  for (const Unit& u : units)
    if (u.name == unit) return value * u.factor;
  std::string valid;
  for (const Unit& u : units) valid += (valid.empty() ? "" : ", ") + std::string(u.name);
  throw ValueError("unknown " + std::string(what) + " unit \"" + std::string(unit) + "\" in \"" + std::string(text) +
                   "\" (use one of " + valid + ")");
}

constexpr double kKi = 1024.0, kMi = kKi * 1024, kGi = kMi * 1024, kTi = kGi * 1024;

std::string fixed(double v, int digits)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

void throw_time_overflow(const char* what)
{
  throw OverflowError(std::string("a time ") + what + " is beyond +-" + std::to_string(static_cast<int>(Time::kMaxSeconds / 86400)) +
                      " days (or not finite), more than ddpsim can represent in picoseconds");
}

void Bytes::throw_bytes_overflow() { throw OverflowError("a byte count is beyond 2^64 - 1"); }

Time transfer_time(Bytes b, Bandwidth bw) { return transfer_time(b.as_double(), bw); }

Time transfer_time(double bytes, Bandwidth bw)
{
  if (bytes <= 0) return Time{0};
  DDPSIM_CHECK(bw.bytes_per_s > 0, "transfer over a link with no bandwidth");
  return Time::from_seconds(bytes / bw.bytes_per_s);
}

Bytes parse_bytes(std::string_view text)
{
  static constexpr std::array units{
      Unit{"B", 1},         Unit{"KB", 1e3},      Unit{"MB", 1e6},      Unit{"GB", 1e9},     Unit{"TB", 1e12},
      Unit{"KiB", kKi},     Unit{"MiB", kMi},     Unit{"GiB", kGi},     Unit{"TiB", kTi},    Unit{"K", kKi},
      Unit{"M", kMi},       Unit{"G", kGi},       Unit{"T", kTi},
  };
  double v = scale(text, "size", units, /*unitless_ok=*/true);
  if (v >= 1.8e19) throw ValueError("the size \"" + std::string(text) + "\" is too large");
  double rounded = std::round(v);
  if (std::fabs(rounded - v) > 1e-6 * std::max(1.0, v))
    throw ValueError("the size \"" + std::string(text) + "\" is not a whole number of bytes");
  return Bytes{static_cast<std::uint64_t>(rounded)};
}

Time parse_time(std::string_view text)
{
  static constexpr std::array units{
      Unit{"ps", 1e-12}, Unit{"ns", 1e-9}, Unit{"us", 1e-6}, Unit{"ms", 1e-3},
      Unit{"s", 1.0},    Unit{"min", 60},  Unit{"h", 3600},
  };
  double seconds = scale(text, "duration", units, /*unitless_ok=*/false);
  if (seconds > 9e6) throw ValueError("the duration \"" + std::string(text) + "\" is longer than 100 days");
  return Time::from_seconds(seconds);
}

Bandwidth parse_bandwidth(std::string_view text)
{
  static constexpr std::array units{
      Unit{"bps", 1.0 / 8}, Unit{"Kbps", 1e3 / 8}, Unit{"Mbps", 1e6 / 8}, Unit{"Gbps", 1e9 / 8}, Unit{"Tbps", 1e12 / 8},
      Unit{"B/s", 1},       Unit{"KB/s", 1e3},     Unit{"MB/s", 1e6},     Unit{"GB/s", 1e9},     Unit{"TB/s", 1e12},
      Unit{"KiB/s", kKi},   Unit{"MiB/s", kMi},    Unit{"GiB/s", kGi},
  };
  double v = scale(text, "bandwidth", units, /*unitless_ok=*/false);
  if (v <= 0) throw ValueError("the bandwidth \"" + std::string(text) + "\" must be positive");
  return Bandwidth{v};
}

std::string format_bytes(Bytes b)
{
  double v = b.as_double();
  if (v >= kGi) return fixed(v / kGi, 2) + " GiB";
  if (v >= kMi) return fixed(v / kMi, 2) + " MiB";
  if (v >= kKi) return fixed(v / kKi, 2) + " KiB";
  return std::to_string(b.n) + " B";
}

std::string format_time(Time t)
{
  double s = t.seconds();
  if (s >= 60) return fixed(s / 60, 2) + " min";
  if (s >= 1) return fixed(s, 3) + " s";
  if (s >= 1e-3) return fixed(s * 1e3, 3) + " ms";
  if (s >= 1e-6) return fixed(s * 1e6, 3) + " us";
  return fixed(s * 1e9, 3) + " ns";
}

std::string format_bandwidth(Bandwidth bw) { return fixed(bw.bytes_per_s / 1e9, 2) + " GB/s"; }

}  // namespace ddpsim
