// Reads a Chrome-trace JSON file (PyTorch profiler / Kineto), plain or gzip-compressed (told by
// its first two bytes, 1f 8b, not by its name), into a parsed document. Every problem is a
// UserError naming the file: unreadable, not gzip past its header, larger than `max_bytes` once
// decompressed (a bound against a bomb), or not JSON (with the byte offset).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace ddpsim::app {

inline constexpr std::uint64_t kMaxTraceBytes = std::uint64_t{1} << 30;  // 1 GiB decompressed

// The file's bytes, decompressed when it is gzip.
std::string read_trace_bytes(const std::string& path, std::uint64_t max_bytes = kMaxTraceBytes);
nlohmann::json read_trace_json(const std::string& path, std::uint64_t max_bytes = kMaxTraceBytes);

}  // namespace ddpsim::app
