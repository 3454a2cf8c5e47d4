// The software stack a date implies (scenario key `software.as_of`, docs/scenario.md; issue 18
// item 1, "documented defaults by era"): for a measurement whose date is known and whose stack is
// not, each component is the newest release tagged on or before that date. Every price that
// depends on a release (topology/transport.hpp, the algorithms NCCL has, Horovod's defaults) then
// follows from it. A date is an upper bound: images lag releases (an AMI or container of a month
// may ship a release of months before), so a stack that is known should be named instead.
#pragma once

#include <compare>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/version.hpp"

namespace ddpsim {

struct Date {
  int year = 0, month = 0, day = 0;
  friend auto operator<=>(const Date&, const Date&) = default;
};

// "2019-06-25", or "2019-06" (read as the month's first day: what was released before it began).
// Years 2000-2100. False (and `out` untouched) for anything else.
bool parse_date(std::string_view text, Date& out);
std::string to_string(const Date& d);  // "2019-06-25"

struct Release {
  Version version;
  Date tagged;  // the date of the release's tag in its public repository
};

// NVIDIA/nccl's release tags (v2.3.5-5 .. v2.30.7-1), in tag order. NCCL 2's source went public
// at v2.3.5 (2018-09-25); NCCL 2.0-2.2 were binary releases, so no earlier tag exists.
std::span<const Release> nccl_releases();
// aws/aws-ofi-nccl's release tags (v0.9 .. v1.21.1; "-aws" tags carry the same number).
std::span<const Release> aws_ofi_nccl_releases();
// ofiwg/libfabric's release tags (v1.9.0 .. v2.6.0), the library under aws-ofi-nccl that drives EFA.
std::span<const Release> libfabric_releases();

// The newest release (highest version) among those tagged on or before `d`; nullopt when none was.
std::optional<Release> release_as_of(std::span<const Release> releases, Date d);
// The libfabric of a date (its first tagged release, v1.9.0, before any), and of an NCCL release's
// era: the newest tagged on or before that release's tag (an upper bound: images lag releases).
Version libfabric_as_of(Date d);
Version libfabric_of_nccl(const Version& nccl);

// AWS's EFA installer (software.efa_installer) and the libfabric it installs, as AWS lists them:
// every "Upgrade EFA installer to ..." entry of aws/aws-parallelcluster-cookbook's CHANGELOG.md
// with its Libfabric line (ParallelCluster 2.5.1 - 3.11.0), the installed-packages list quoted in
// aws/aws-ofi-nccl #33 (1.7.0), and the rows of AWS's EFA release notes seen (EC2 User Guide,
// efa-changelog: 1.40.0 - 1.51.0). AWS builds its own libfabric ("1.11.1amzn1.0"); it is priced
// as the upstream release of that number (the read-message rule in topology/transport.hpp).
struct InstallerRelease {
  Version installer;
  Version libfabric;
};
std::span<const InstallerRelease> efa_installer_releases();
// The libfabric of an installer: that of the installer listed, else of the newest one listed
// below it (`listed` names which; an installer older than any listed gets the oldest's).
struct InstallerLibfabric {
  Version libfabric;
  Version listed;
};
InstallerLibfabric libfabric_of_efa_installer(const Version& installer);

// Horovod v0.21.0 (CHANGELOG.md, 2020-11-23; PR #2468) changed the default cycle time from 5 ms
// to 1 ms and the fusion threshold from 64 MB to 128 MB: a date before it means the pre-2020
// defaults (`training.horovod.defaults`).
inline constexpr Date kHorovodFastCycle{2020, 11, 23};

// The stack software.as_of resolves to, and how to say it.
struct SoftwareAsOf {
  Date date;
  Version nccl;                 // the release of that date, or the first public one (2.3.5) before it
  bool nccl_before_source = false;  // the date precedes NCCL 2.3.5: priced as 2.3.5 (see .cpp)
  std::string aws_ofi_nccl;     // a release, or "none" before aws-ofi-nccl's first (v0.9, 2018-11-26)
  std::string libfabric;        // the release of that date (v1.9.0's, 2019-11-20, before it)
  bool horovod_pre_2020 = false;
};
SoftwareAsOf software_as_of(Date d);

}  // namespace ddpsim
