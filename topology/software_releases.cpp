// The release tables behind software_era.hpp: every tag of NCCL, aws-ofi-nccl and libfabric with
// its date, and AWS's EFA installers with the libfabric each installs (each table's source above
// it). The lookups by date and by release are in software_era.cpp.
#include "topology/software_era.hpp"

#include <array>

namespace ddpsim {

// git for-each-ref --sort=creatordate refs/tags in a mirror of github.com/NVIDIA/nccl (read
// 2026-11-29): every vMAJOR.MINOR.PATCH-N tag with the date git gives it (v2.5.6-2, a re-tag of
// v2.5.6, left out; v2.18.6-1, a fix of 2.18 tagged after v2.19.3-1, is kept: the newest
// version on a date wins, release_as_of).
static constexpr std::array kNccl{
    Release{{2, 3, 5}, {2018, 9, 25}},  // v2.3.5-5
    Release{{2, 3, 7}, {2018, 10, 24}},  // v2.3.7-1
    Release{{2, 4, 2}, {2019, 1, 29}},  // v2.4.2-1
    Release{{2, 4, 6}, {2019, 4, 5}},  // v2.4.6-1
    Release{{2, 4, 7}, {2019, 5, 10}},  // v2.4.7-1
    Release{{2, 4, 8}, {2019, 6, 25}},  // v2.4.8-1
    Release{{2, 5, 6}, {2019, 11, 19}},  // v2.5.6-1
    Release{{2, 5, 7}, {2020, 1, 16}},  // v2.5.7-1
    Release{{2, 6, 4}, {2020, 3, 20}},  // v2.6.4-1
    Release{{2, 7, 3}, {2020, 6, 8}},  // v2.7.3-1
    Release{{2, 7, 5}, {2020, 6, 26}},  // v2.7.5-1
    Release{{2, 7, 6}, {2020, 6, 26}},  // v2.7.6-1
    Release{{2, 7, 8}, {2020, 7, 27}},  // v2.7.8-1
    Release{{2, 8, 3}, {2020, 11, 17}},  // v2.8.3-1
    Release{{2, 8, 4}, {2021, 2, 9}},  // v2.8.4-1
    Release{{2, 9, 6}, {2021, 4, 12}},  // v2.9.6-1
    Release{{2, 9, 8}, {2021, 5, 10}},  // v2.9.8-1
    Release{{2, 9, 9}, {2021, 5, 12}},  // v2.9.9-1
    Release{{2, 10, 3}, {2021, 7, 8}},  // v2.10.3-1
    Release{{2, 11, 4}, {2021, 9, 8}},  // v2.11.4-1
    Release{{2, 12, 7}, {2022, 3, 2}},  // v2.12.7-1
    Release{{2, 12, 10}, {2022, 3, 30}},  // v2.12.10-1
    Release{{2, 12, 12}, {2022, 5, 13}},  // v2.12.12-1
    Release{{2, 13, 4}, {2022, 7, 11}},  // v2.13.4-1
    Release{{2, 14, 3}, {2022, 8, 18}},  // v2.14.3-1
    Release{{2, 15, 1}, {2022, 9, 27}},  // v2.15.1-1
    Release{{2, 15, 5}, {2022, 10, 25}},  // v2.15.5-1
    Release{{2, 16, 2}, {2022, 11, 30}},  // v2.16.2-1
    Release{{2, 16, 5}, {2023, 2, 2}},  // v2.16.5-1
    Release{{2, 17, 1}, {2023, 3, 1}},  // v2.17.1-1
    Release{{2, 18, 1}, {2023, 4, 18}},  // v2.18.1-1
    Release{{2, 18, 3}, {2023, 6, 14}},  // v2.18.3-1
    Release{{2, 18, 5}, {2023, 8, 23}},  // v2.18.5-1
    Release{{2, 19, 1}, {2023, 9, 26}},  // v2.19.1-1
    Release{{2, 19, 3}, {2023, 9, 26}},  // v2.19.3-1
    Release{{2, 18, 6}, {2023, 10, 10}},  // v2.18.6-1
    Release{{2, 19, 4}, {2023, 11, 13}},  // v2.19.4-1
    Release{{2, 20, 3}, {2024, 2, 13}},  // v2.20.3-1
    Release{{2, 20, 5}, {2024, 2, 26}},  // v2.20.5-1
    Release{{2, 21, 5}, {2024, 4, 2}},  // v2.21.5-1
    Release{{2, 22, 3}, {2024, 6, 19}},  // v2.22.3-1
    Release{{2, 23, 4}, {2024, 9, 16}},  // v2.23.4-1
    Release{{2, 24, 3}, {2025, 1, 7}},  // v2.24.3-1
    Release{{2, 25, 1}, {2025, 1, 27}},  // v2.25.1-1
    Release{{2, 26, 2}, {2025, 3, 12}},  // v2.26.2-1
    Release{{2, 26, 3}, {2025, 4, 22}},  // v2.26.3-1
    Release{{2, 26, 5}, {2025, 4, 22}},  // v2.26.5-1
    Release{{2, 26, 6}, {2025, 5, 20}},  // v2.26.6-1
    Release{{2, 27, 3}, {2025, 5, 29}},  // v2.27.3-1
    Release{{2, 27, 5}, {2025, 6, 18}},  // v2.27.5-1
    Release{{2, 27, 6}, {2025, 7, 11}},  // v2.27.6-1
    Release{{2, 27, 7}, {2025, 7, 24}},  // v2.27.7-1
    Release{{2, 28, 3}, {2025, 9, 2}},  // v2.28.3-1
    Release{{2, 28, 7}, {2025, 10, 17}},  // v2.28.7-1
    Release{{2, 28, 9}, {2025, 11, 10}},  // v2.28.9-1
    Release{{2, 29, 2}, {2025, 12, 24}},  // v2.29.2-1
    Release{{2, 29, 3}, {2026, 2, 3}},  // v2.29.3-1
    Release{{2, 29, 7}, {2026, 2, 27}},  // v2.29.7-1
    Release{{2, 30, 3}, {2026, 4, 14}},  // v2.30.3-1
    Release{{2, 30, 4}, {2026, 4, 22}},  // v2.30.4-1
    Release{{2, 30, 7}, {2026, 6, 4}},  // v2.30.7-1
};

// The same for github.com/aws/aws-ofi-nccl (release candidates left out; a version tagged both
// vX and vX-aws appears once, at its first tag).
static constexpr std::array kAwsOfiNccl{
    Release{{0, 9, 0}, {2018, 11, 26}},  // v0.9
    Release{{0, 9, 1}, {2019, 1, 22}},  // v0.9.1
    Release{{0, 9, 2}, {2019, 2, 22}},  // v0.9.2
    Release{{1, 0, 0}, {2020, 1, 10}},  // v1.0.0
    Release{{1, 0, 1}, {2020, 5, 29}},  // v1.0.1
    Release{{1, 1, 0}, {2020, 8, 21}},  // v1.1.0
    Release{{1, 1, 1}, {2020, 11, 2}},  // v1.1.1
    Release{{1, 1, 2}, {2021, 4, 14}},  // v1.1.2
    Release{{1, 1, 3}, {2021, 6, 20}},  // v1.1.3-aws
    Release{{1, 1, 4}, {2021, 10, 22}},  // v1.1.4-aws
    Release{{1, 1, 5}, {2022, 2, 3}},  // v1.1.5-aws
    Release{{1, 2, 0}, {2022, 3, 10}},  // v1.2.0-aws
    Release{{1, 3, 0}, {2022, 5, 12}},  // v1.3.0-aws
    Release{{1, 4, 0}, {2022, 7, 13}},  // v1.4.0
    Release{{1, 5, 0}, {2023, 1, 26}},  // v1.5.0-aws
    Release{{1, 6, 0}, {2023, 4, 21}},  // v1.6.0
    Release{{1, 7, 0}, {2023, 7, 25}},  // v1.7.0-aws
    Release{{1, 7, 1}, {2023, 7, 29}},  // v1.7.1-aws
    Release{{1, 7, 2}, {2023, 8, 25}},  // v1.7.2-aws
    Release{{1, 7, 3}, {2023, 10, 5}},  // v1.7.3-aws
    Release{{1, 7, 4}, {2023, 12, 4}},  // v1.7.4-aws
    Release{{1, 8, 0}, {2024, 2, 19}},  // v1.8.0-aws
    Release{{1, 8, 1}, {2024, 2, 25}},  // v1.8.1-aws
    Release{{1, 9, 0}, {2024, 4, 5}},  // v1.9.0-aws
    Release{{1, 9, 1}, {2024, 4, 15}},  // v1.9.1-aws
    Release{{1, 9, 2}, {2024, 6, 17}},  // v1.9.2-aws
    Release{{1, 10, 0}, {2024, 8, 6}},  // v1.10.0-aws
    Release{{1, 11, 0}, {2024, 8, 19}},  // v1.11.0-aws
    Release{{1, 12, 0}, {2024, 10, 8}},  // v1.12.0-aws
    Release{{1, 12, 1}, {2024, 10, 23}},  // v1.12.1-aws
    Release{{1, 11, 1}, {2024, 10, 23}},  // v1.11.1-aws
    Release{{1, 13, 0}, {2024, 11, 18}},  // v1.13.0-aws
    Release{{1, 13, 1}, {2024, 11, 26}},  // v1.13.1-aws
    Release{{1, 13, 2}, {2024, 12, 11}},  // v1.13.2-aws
    Release{{1, 14, 0}, {2025, 3, 14}},  // v1.14.0
    Release{{1, 14, 1}, {2025, 4, 7}},  // v1.14.1
    Release{{1, 14, 2}, {2025, 4, 26}},  // v1.14.2
    Release{{1, 15, 0}, {2025, 6, 4}},  // v1.15.0
    Release{{1, 16, 0}, {2025, 6, 27}},  // v1.16.0
    Release{{1, 16, 1}, {2025, 7, 22}},  // v1.16.1
    Release{{1, 16, 2}, {2025, 7, 25}},  // v1.16.2
    Release{{1, 16, 3}, {2025, 8, 12}},  // v1.16.3
    Release{{1, 17, 0}, {2025, 9, 30}},  // v1.17.0
    Release{{1, 17, 1}, {2025, 10, 25}},  // v1.17.1
    Release{{1, 17, 2}, {2025, 11, 13}},  // v1.17.2
    Release{{1, 17, 3}, {2026, 1, 14}},  // v1.17.3
    Release{{1, 18, 0}, {2026, 1, 21}},  // v1.18.0
    Release{{1, 19, 0}, {2026, 4, 10}},  // v1.19.0
    Release{{1, 19, 1}, {2026, 5, 5}},  // v1.19.1
    Release{{1, 19, 2}, {2026, 5, 15}},  // v1.19.2
    Release{{1, 20, 0}, {2026, 6, 24}},  // v1.20.0
    Release{{1, 21, 0}, {2026, 8, 17}},  // v1.21.0
    Release{{1, 21, 1}, {2026, 8, 19}},  // v1.21.1
};

// The same for github.com/ofiwg/libfabric (release candidates left out; from v1.9.0, before EFA
// had GPUDirect RDMA: GPU memory over EFA arrived with v1.11). Branches interleave (v1.18.3 and
// v1.19.1 were tagged after v1.20.0), so release_as_of takes the highest version by a date.
static constexpr std::array kLibfabric{
    Release{{1, 9, 0}, {2019, 11, 20}},  // v1.9.0
    Release{{1, 9, 1}, {2020, 3, 6}},  // v1.9.1
    Release{{1, 10, 0}, {2020, 4, 23}},  // v1.10.0
    Release{{1, 10, 1}, {2020, 5, 7}},  // v1.10.1
    Release{{1, 11, 0}, {2020, 8, 14}},  // v1.11.0
    Release{{1, 11, 1}, {2020, 10, 9}},  // v1.11.1
    Release{{1, 11, 2}, {2020, 12, 8}},  // v1.11.2
    Release{{1, 12, 0}, {2021, 3, 8}},  // v1.12.0
    Release{{1, 12, 1}, {2021, 4, 1}},  // v1.12.1
    Release{{1, 13, 0}, {2021, 7, 1}},  // v1.13.0
    Release{{1, 13, 1}, {2021, 8, 24}},  // v1.13.1
    Release{{1, 13, 2}, {2021, 10, 15}},  // v1.13.2
    Release{{1, 14, 0}, {2021, 11, 17}},  // v1.14.0
    Release{{1, 14, 1}, {2022, 4, 14}},  // v1.14.1
    Release{{1, 15, 0}, {2022, 4, 29}},  // v1.15.0
    Release{{1, 15, 1}, {2022, 5, 12}},  // v1.15.1
    Release{{1, 15, 2}, {2022, 8, 22}},  // v1.15.2
    Release{{1, 16, 0}, {2022, 9, 29}},  // v1.16.0
    Release{{1, 16, 1}, {2022, 10, 4}},  // v1.16.1
    Release{{1, 17, 0}, {2022, 12, 15}},  // v1.17.0
    Release{{1, 17, 1}, {2023, 3, 3}},  // v1.17.1
    Release{{1, 18, 0}, {2023, 4, 7}},  // v1.18.0
    Release{{1, 18, 1}, {2023, 6, 26}},  // v1.18.1
    Release{{1, 18, 2}, {2023, 8, 31}},  // v1.18.2
    Release{{1, 18, 3}, {2024, 1, 19}},  // v1.18.3
    Release{{1, 19, 0}, {2023, 8, 31}},  // v1.19.0
    Release{{1, 19, 1}, {2024, 1, 19}},  // v1.19.1
    Release{{1, 20, 0}, {2023, 11, 16}},  // v1.20.0
    Release{{1, 20, 1}, {2024, 1, 19}},  // v1.20.1
    Release{{1, 20, 2}, {2024, 3, 28}},  // v1.20.2
    Release{{1, 21, 0}, {2024, 3, 28}},  // v1.21.0
    Release{{1, 21, 1}, {2024, 7, 23}},  // v1.21.1
    Release{{1, 22, 0}, {2024, 7, 23}},  // v1.22.0
    Release{{2, 0, 0}, {2024, 12, 11}},  // v2.0.0
    Release{{2, 1, 0}, {2025, 3, 14}},  // v2.1.0
    Release{{2, 2, 0}, {2025, 6, 27}},  // v2.2.0
    Release{{2, 3, 0}, {2025, 9, 13}},  // v2.3.0
    Release{{2, 3, 1}, {2025, 10, 18}},  // v2.3.1
    Release{{2, 4, 0}, {2025, 12, 12}},  // v2.4.0
    Release{{2, 5, 0}, {2026, 3, 18}},  // v2.5.0
    Release{{2, 5, 1}, {2026, 4, 9}},  // v2.5.1
    Release{{2, 6, 0}, {2026, 6, 19}},  // v2.6.0
};

// AWS's EFA installer and its libfabric (software_era.hpp). Read 2026-12-07 in
// aws/aws-parallelcluster-cookbook at f75d84c3 (CHANGELOG.md; the ParallelCluster release of each
// entry in the comment), in aws/aws-ofi-nccl #33 (2020-05-12, efa_installed_packages) and in the
// EC2 User Guide's "Elastic Fabric Adapter release notes" (efa-changelog, the rows named).
static constexpr std::array kEfaInstaller{
    InstallerRelease{{1, 7, 0}, {1, 8, 1}},  // aws-ofi-nccl #33: libfabric-aws-1.8.1amzn1.2
    InstallerRelease{{1, 7, 1}, {1, 8, 1}},  // ParallelCluster 2.5.1: libfabric-aws-1.8.1amzn1.3
    InstallerRelease{{1, 8, 3}, {1, 9, 0}},  // 2.6.0: libfabric-aws-1.9.0amzn1.1
    InstallerRelease{{1, 8, 4}, {1, 9, 0}},  // 2.6.2, 2.7.0: no change
    InstallerRelease{{1, 9, 4}, {1, 10, 1}},  // 2.8.0: libfabric-1.10.1amzn1.1
    InstallerRelease{{1, 9, 5}, {1, 10, 1}},  // 2.9.0: no change
    InstallerRelease{{1, 10, 1}, {1, 11, 1}},  // 2.10.0: libfabric-1.11.1amzn1.1
    InstallerRelease{{1, 11, 1}, {1, 11, 1}},  // 2.10.1: libfabric-1.11.1amzn1.0
    InstallerRelease{{1, 11, 2}, {1, 11, 1}},  // 2.10.3: no change
    InstallerRelease{{1, 12, 2}, {1, 11, 2}},  // 2.11.0: libfabric-1.11.2amzon1.1-1
    InstallerRelease{{1, 12, 3}, {1, 11, 2}},  // 2.11.1: efa-config and kernel module only
    InstallerRelease{{1, 13, 0}, {1, 13, 0}},  // 3.0.0: libfabric v1.13.0amzn1.0
    InstallerRelease{{1, 14, 1}, {1, 13, 2}},  // 2.11.3, 3.0.2: libfabric-1.13.2 ("GDR support by default")
    InstallerRelease{{1, 17, 2}, {1, 16, 0}},  // 3.2.0: libfabric-aws-1.16.0~amzn2.0-1
    InstallerRelease{{1, 18, 0}, {1, 16, 0}},  // 3.1.5, 3.3.0: libfabric-aws-1.16.0~amzn4.0-1
    InstallerRelease{{1, 20, 0}, {1, 16, 1}},  // 3.4.0: libfabric-aws-1.16.1
    InstallerRelease{{1, 21, 0}, {1, 16, 1}},  // 3.5.0: libfabric-aws-1.16.1amzn3.0-1
    InstallerRelease{{1, 22, 0}, {1, 17, 0}},  // 3.5.1: libfabric-aws-1.17.0-1
    InstallerRelease{{1, 22, 1}, {1, 17, 1}},  // 3.6.0: libfabric-aws-1.17.1-1
    InstallerRelease{{1, 25, 1}, {1, 18, 1}},  // 3.7.0: libfabric-aws-1.18.1-1
    InstallerRelease{{1, 26, 1}, {1, 18, 2}},  // 3.7.1: libfabric-aws-1.18.2-1
    InstallerRelease{{1, 29, 1}, {1, 19, 0}},  // 3.8.0: libfabric-aws-1.19.0-1
    InstallerRelease{{1, 30, 0}, {1, 19, 0}},  // 3.9.0: libfabric-aws-1.19.0
    InstallerRelease{{1, 32, 0}, {1, 21, 0}},  // 3.10.0: libfabric-aws-1.21.0-1
    InstallerRelease{{1, 34, 0}, {1, 22, 0}},  // 3.11.0: libfabric-aws-1.22.0-1
    InstallerRelease{{1, 40, 0}, {2, 1, 0}},  // efa-changelog: libfabric 2.1.0amzn2.0
    InstallerRelease{{1, 42, 0}, {2, 1, 0}},  // efa-changelog: 2.1.0amzn3.0
    InstallerRelease{{1, 43, 0}, {2, 1, 0}},  // efa-changelog: 2.1.0amzn4.0
    InstallerRelease{{1, 43, 1}, {2, 1, 0}},  // efa-changelog: 2.1.0amzn5.0
    InstallerRelease{{1, 49, 0}, {2, 4, 0}},  // efa-changelog: 2.4.0amzn5.0
    InstallerRelease{{1, 50, 0}, {2, 6, 0}},  // efa-changelog: 2.6.0amzn1.0 (2026-08-21)
    InstallerRelease{{1, 51, 0}, {2, 7, 0}},  // efa-changelog: 2.7.0amzn2.0 (2026-10-22)
};

std::span<const Release> nccl_releases() { return kNccl; }
std::span<const Release> aws_ofi_nccl_releases() { return kAwsOfiNccl; }
std::span<const Release> libfabric_releases() { return kLibfabric; }
std::span<const InstallerRelease> efa_installer_releases() { return kEfaInstaller; }

}  // namespace ddpsim
