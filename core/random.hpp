// The one random generator: SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom
// number generators", OOPSLA). A fixed, portable stream: <random>'s distributions are
// implementation-defined, and ddpsim's output must be the same bytes on every platform. Every
// sampled quantity (failure times, straggler jitter, Latin-hypercube points) draws from it.
#pragma once

#include <cmath>
#include <cstdint>

namespace ddpsim {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next()
  {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform doubles from the top 53 bits, on three intervals (each caller keeps the one its
  // formula needs: a logarithm must never see 0).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }                 // [0, 1)
  double uniform_open() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }    // (0, 1)
  double uniform_open_closed() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }  // (0, 1]

  // Exponential with the given mean, by inversion on (0, 1].
  double exponential(double mean) { return -mean * std::log(uniform_open_closed()); }

  // Standard normal by Box-Muller on (0, 1); both values of a pair are used, in order.
  double normal()
  {
    if (have_spare_) {
      have_spare_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2 * std::log(uniform_open())), t = 2 * M_PI * uniform_open();
    spare_ = r * std::sin(t);
    have_spare_ = true;
    return r * std::cos(t);
  }

 private:
  std::uint64_t state_;
  bool have_spare_ = false;
  double spare_ = 0;
};

}  // namespace ddpsim
