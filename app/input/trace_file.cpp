#include "app/input/trace_file.hpp"

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/error.hpp"

namespace ddpsim::app {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) { throw UserError(SourceLocation{path, 0, 0}, "", why); }

std::string gunzip(const std::string& path, const std::string& in, std::uint64_t max_bytes)
{
  z_stream z{};
  // 16 + MAX_WBITS: a gzip wrapper (zlib manual, inflateInit2).
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) fail(path, "cannot start gzip decompression");
  std::string out;
  std::string chunk(1 << 20, '\0');
  std::size_t offset = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (z.avail_in == 0 && offset < in.size()) {
      const std::size_t n = std::min<std::size_t>(in.size() - offset, 1u << 30);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + offset));
      z.avail_in = static_cast<uInt>(n);
      offset += n;
    }
    z.next_out = reinterpret_cast<Bytef*>(chunk.data());
    z.avail_out = static_cast<uInt>(chunk.size());
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_BUF_ERROR) {
      inflateEnd(&z);
      fail(path, "truncated gzip file");
    }
    if (rc != Z_OK && rc != Z_STREAM_END) {
      const std::string msg = z.msg ? z.msg : "corrupt data";
      inflateEnd(&z);
      fail(path, "not a valid gzip file (" + msg + ")");
    }
    out.append(chunk.data(), chunk.size() - z.avail_out);
    if (out.size() > max_bytes) {
      inflateEnd(&z);
      fail(path, "larger than " + std::to_string(max_bytes >> 20) + " MiB once decompressed: refused");
    }
    if (rc == Z_OK && z.avail_in == 0 && offset >= in.size() && z.avail_out != 0) {
      inflateEnd(&z);
      fail(path, "truncated gzip file");
    }
  }
  inflateEnd(&z);
  return out;
}

}  // namespace

std::string read_trace_bytes(const std::string& path, std::uint64_t max_bytes)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) fail(path, "no such file (model.trace)");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) fail(path, "cannot read the file (" + ec.message() + ")");
  if (size > max_bytes) fail(path, "larger than " + std::to_string(max_bytes >> 20) + " MiB: refused");
  std::ifstream f(path, std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) fail(path, "cannot read the file");
  if (raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f && static_cast<unsigned char>(raw[1]) == 0x8b)
    return gunzip(path, raw, max_bytes);
  return raw;
}

nlohmann::json read_trace_json(const std::string& path, std::uint64_t max_bytes)
{
  const std::string text = read_trace_bytes(path, max_bytes);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    fail(path, "not a JSON trace: parse error at byte " + std::to_string(e.byte) + " (a Kineto trace is Chrome-trace JSON)");
  }
}

}  // namespace ddpsim::app
