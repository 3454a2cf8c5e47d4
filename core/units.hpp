// Strong unit types. Time is integer picoseconds (exact, deterministic ordering in the event
// engine); sizes are whole bytes; bandwidth is bytes per second. Quantities with units in text
// ("25Gbps", "1.5us", "25MiB") go through parse_* below; a bare number is an error, never a guess.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace ddpsim {

// Thrown by the checked arithmetic below when a result does not fit: a quantity ddpsim cannot
// represent exactly. It is a ValueError (no location): the caller that knows which input drove
// the value turns it into a located UserError naming that field (never a wrapped number).
class OverflowError : public ValueError {
 public:
  using ValueError::ValueError;
};

// Checked int64 arithmetic for Time (throws OverflowError instead of wrapping).
[[noreturn]] void throw_time_overflow(const char* what);
constexpr std::int64_t checked_add(std::int64_t a, std::int64_t b)
{
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw_time_overflow("sum");
  return r;
}
constexpr std::int64_t checked_sub(std::int64_t a, std::int64_t b)
{
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) throw_time_overflow("difference");
  return r;
}
constexpr std::int64_t checked_mul(std::int64_t a, std::int64_t b)
{
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw_time_overflow("product");
  return r;
}

// A duration or instant in picoseconds. int64 covers +-106 days (kMaxSeconds), far more than one
// simulated iteration; every operation is checked, so a longer time is an OverflowError, never a
// wrapped (negative) value.
struct Time {
  std::int64_t ps = 0;

  static constexpr double kMaxSeconds = 9.2e6;  // just under INT64_MAX picoseconds (9.22e6 s)

  static constexpr Time from_seconds(double s)
  {
    // NaN fails both comparisons; the cast of an out-of-range double would be undefined.
    if (!(s < kMaxSeconds && s > -kMaxSeconds)) throw_time_overflow("duration");
    return Time{static_cast<std::int64_t>(s * 1e12 + (s >= 0 ? 0.5 : -0.5))};
  }
  static constexpr Time from_us(double us) { return from_seconds(us * 1e-6); }
  constexpr double seconds() const { return static_cast<double>(ps) * 1e-12; }
  constexpr double us() const { return static_cast<double>(ps) * 1e-6; }

  constexpr Time operator+(Time o) const { return Time{checked_add(ps, o.ps)}; }
  constexpr Time operator-(Time o) const { return Time{checked_sub(ps, o.ps)}; }
  constexpr Time& operator+=(Time o) { ps = checked_add(ps, o.ps); return *this; }
  constexpr Time operator*(std::int64_t k) const { return Time{checked_mul(ps, k)}; }
  constexpr auto operator<=>(const Time&) const = default;
};

constexpr Time max(Time a, Time b) { return a < b ? b : a; }

// A whole number of bytes. Sums are checked (OverflowError past 2^64 - 1).
struct Bytes {
  std::uint64_t n = 0;

  constexpr double as_double() const { return static_cast<double>(n); }
  constexpr Bytes operator+(Bytes o) const { return Bytes{add(n, o.n)}; }
  constexpr Bytes& operator+=(Bytes o) { n = add(n, o.n); return *this; }
  constexpr auto operator<=>(const Bytes&) const = default;

 private:
  static constexpr std::uint64_t add(std::uint64_t a, std::uint64_t b)
  {
    std::uint64_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) throw_bytes_overflow();
    return r;
  }
  [[noreturn]] static void throw_bytes_overflow();
};

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// Bytes per second, per direction.
struct Bandwidth {
  double bytes_per_s = 0;

  static constexpr Bandwidth gbps(double gbit) { return Bandwidth{gbit * 1e9 / 8}; }
  static constexpr Bandwidth gBps(double gbyte) { return Bandwidth{gbyte * 1e9}; }
  constexpr auto operator<=>(const Bandwidth&) const = default;
};

// Time to push `b` bytes through `bw`, rounded to the nearest picosecond.
Time transfer_time(Bytes b, Bandwidth bw);
Time transfer_time(double bytes, Bandwidth bw);

// Parsers. Each throws ValueError (core/error.hpp) with a message that says what was expected.
// Sizes accept B, KB/MB/GB/TB (powers of 10), KiB/MiB/GiB/TiB (powers of 2), K/M/G as binary
// (nccl-tests convention) and a bare integer count of bytes.
Bytes parse_bytes(std::string_view text);
// Durations: ps, ns, us, ms, s, min, h. A unit is required.
Time parse_time(std::string_view text);
// Bandwidths: bps/Kbps/Mbps/Gbps/Tbps (bits) and B/s, KB/s, MB/s, GB/s, TB/s, GiB/s (bytes). A unit is required.
Bandwidth parse_bandwidth(std::string_view text);

std::string format_bytes(Bytes b);       // "25 MiB", "1.5 GiB", "512 B"
std::string format_time(Time t);         // "1.234 ms"
std::string format_bandwidth(Bandwidth bw);  // "12.5 GB/s"

}  // namespace ddpsim
