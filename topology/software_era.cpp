#include "topology/software_era.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace ddpsim {

bool parse_date(std::string_view text, Date& out)
{
  // YYYY-MM or YYYY-MM-DD, digits only.
  auto number = [&](std::size_t at, std::size_t len, int& v) {
    if (at + len > text.size()) return false;
    const char* first = text.data() + at;
    auto [end, ec] = std::from_chars(first, first + len, v);
    return ec == std::errc{} && end == first + len;
  };
  Date d;
  d.day = 1;
  if (text.size() != 7 && text.size() != 10) return false;
  if (!number(0, 4, d.year) || text[4] != '-' || !number(5, 2, d.month)) return false;
  if (text.size() == 10 && (text[7] != '-' || !number(8, 2, d.day))) return false;
  static constexpr std::array<int, 12> days{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (d.year < 2000 || d.year > 2100 || d.month < 1 || d.month > 12 || d.day < 1 || d.day > days[d.month - 1]) return false;
  const bool leap = (d.year % 4 == 0 && d.year % 100 != 0) || d.year % 400 == 0;
  if (d.month == 2 && d.day == 29 && !leap) return false;
  out = d;
  return true;
}

std::string to_string(const Date& d)
{
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", d.year, d.month, d.day);
  return buf;
}

std::optional<Release> release_as_of(std::span<const Release> releases, Date d)
{
  std::optional<Release> best;
  for (const Release& r : releases)
    if (r.tagged <= d && (!best || best->version < r.version)) best = r;
  return best;
}

Version libfabric_as_of(Date d)
{
  const auto r = release_as_of(libfabric_releases(), d);
  return r ? r->version : libfabric_releases().front().version;
}

Version libfabric_of_nccl(const Version& nccl)
{
  Date tagged = nccl_releases().front().tagged;
  for (const Release& r : nccl_releases())
    if (r.version <= nccl) tagged = std::max(tagged, r.tagged);
  return libfabric_as_of(tagged);
}


InstallerLibfabric libfabric_of_efa_installer(const Version& installer)
{
  const InstallerRelease* at = &efa_installer_releases().front();
  for (const InstallerRelease& r : efa_installer_releases())
    if (r.installer <= installer) at = &r;
  return {at->libfabric, at->installer};
}

SoftwareAsOf software_as_of(Date d)
{
  SoftwareAsOf s;
  s.date = d;
  // Before NCCL 2's first public source (v2.3.5-5): the binary releases 2.0-2.2 ran rings only
  // with one TCP socket per connection, as 2.3.5 does (an assumption: their source is not public),
  // so 2.3.5 prices them.
  if (auto r = release_as_of(nccl_releases(), d)) {
    s.nccl = r->version;
  } else {
    s.nccl = nccl_releases().front().version;
    s.nccl_before_source = true;
  }
  // Before aws-ofi-nccl's first release no plugin existed: NCCL ran its socket transport.
  if (auto r = release_as_of(aws_ofi_nccl_releases(), d)) s.aws_ofi_nccl = to_string(r->version);
  else s.aws_ofi_nccl = "none";
  s.libfabric = to_string(libfabric_as_of(d));
  s.horovod_pre_2020 = d < kHorovodFastCycle;
  return s;
}

}  // namespace ddpsim
