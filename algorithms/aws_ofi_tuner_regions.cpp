// aws-ofi-nccl's region tables, as data. SOURCE: github aws/aws-ofi-nccl, src/tuner/nccl_ofi_regions.cpp
// at release v1.21.1 (commit 2475c4c736907e68ebeadb3848f31231ee4a44d0, 2026-08-19; unchanged at
// HEAD 2daf7d30, 2026-08-12 authored), functions region_init_internal_p5_p5e and
// region_init_internal_p5en, branch `nRanks == 8 * nNodes` (one rank per GPU, what DDP runs).
// Vertices are (bytes, ranks) copied verbatim, in the source's order; `ext(a, b)` is the source's
// extend_region(a, b, {TUNER_MAX_SIZE, TUNER_MAX_RANKS}). Since v1.19.0 (commit 8f22799f,
// 2026-02-04) the polygons live in log2-log2 space; v1.16.3 had the same p5 vertices with
// straight edges in linear space (its boundaries between vertices differ; not modelled).
// Not copied: the 1 and 2 ranks-per-node tables, all-gather / reduce-scatter, p6 (not in the
// catalog).
#include "algorithms/aws_ofi_tuner_regions.hpp"

#include <cmath>

namespace ddpsim::algo::aws_ofi {
namespace {

constexpr double kMaxSize = 100.0 * 1024 * 1024 * 1024;  // TUNER_MAX_SIZE
constexpr double kMaxRanks = 1024.0 * 1024;              // TUNER_MAX_RANKS

Point lg(double x, double y)  // transform_log2: 0 becomes 1e-6 first
{
  return Point{std::log2(x == 0 ? 1e-6 : x), std::log2(y == 0 ? 1e-6 : y)};
}

// extend_region(a, b, z) with z = {TUNER_MAX_SIZE, TUNER_MAX_RANKS}, in log2 space.
Point ext(double ax, double ay, double bx, double by)
{
  const Point a = lg(ax, ay), b = lg(bx, by), z = lg(kMaxSize, kMaxRanks);
  if (a.x == b.x) return {a.x, z.y};
  if (a.y == b.y) return {z.x, a.y};
  const double m = (a.y - b.y) / (a.x - b.x);
  const double c = b.y - m * b.x;
  const double zy = m * z.x + c;
  return zy < z.y ? Point{z.x, zy} : Point{(z.y - c) / m, z.y};
}

Region region(NcclAlgo a, Protocol p, std::initializer_list<Point> v) { return Region{a, p, v}; }

std::vector<Region> p5_allreduce()
{
  const Point tree_ll128 = ext(402653184, 2048, 402653184, 4096);
  const Point nvlstree_1 = ext(8053063680, 160, 9663676416, 192);
  const Point nvlstree_2 = ext(402653184, 2048, 402653184, 4096);
  const Point ring_simple = ext(8053063680, 160, 9663676416, 192);
  return {
      region(NcclAlgo::tree, Protocol::ll128,
             {lg(0, 16), lg(31457280, 16), lg(37748736, 32), lg(117440512, 64), lg(301989888, 128),
              lg(301989888, 256), lg(335544320, 512), lg(536870912, 1024), lg(402653184, 2048),
              lg(402653184, 4096), tree_ll128, Point{lg(0, 1).x, tree_ll128.y}}),
      region(NcclAlgo::nvls_tree, Protocol::simple, {lg(31457281, 16), lg(kMaxSize, 16), lg(31457281, 16)}),
      region(NcclAlgo::ring, Protocol::ll128,
             {lg(31457280, 17), lg(1073741824, 17), lg(2147483648, 64), lg(2147483648, 128), lg(1342177280, 160),
              lg(2147483648, 256), lg(1074790400, 256), lg(444596224, 160), lg(301989888, 128), lg(117440512, 64),
              lg(37748736, 32)}),
      region(NcclAlgo::nvls_tree, Protocol::simple,
             {lg(2147483648, 128), lg(6442450944, 128), lg(8053063680, 160), lg(9663676416, 192), nvlstree_1,
              nvlstree_2, lg(402653184, 4096), lg(402653184, 2048), lg(536870912, 1024), lg(335544320, 512),
              lg(301989888, 256), lg(310378496, 160), lg(444596224, 160), lg(1074790400, 256),
              lg(2684354560, 256), lg(2147483648, 224), lg(1342177280, 160)}),
      region(NcclAlgo::ring, Protocol::simple,
             {lg(1073741824, 17), Point{ring_simple.x, lg(1, 17).y}, ring_simple, lg(9663676416, 192),
              lg(8053063680, 160), lg(2684354560, 64), lg(1610612736, 32)}),
  };
}

std::vector<Region> p5en_allreduce()
{
  const Point tree_ll = ext(196608, 192, 196608, 1024);
  const Point tree_ll128 = ext(129499136, 127, 218103808, 1024);
  const Point nvlstree_simple = ext(7516192768, 256, 17179869184, 448);
  return {
      region(NcclAlgo::tree, Protocol::ll, {lg(0, 16), lg(196608, 16), lg(196608, 1024), tree_ll, lg(0, kMaxRanks)}),
      region(NcclAlgo::tree, Protocol::ll128,
             {tree_ll, lg(196608, 1024), lg(196608, 16), lg(13107200, 16), lg(129499136, 127), lg(218103808, 1024),
              tree_ll128}),
      region(NcclAlgo::ring, Protocol::ll128,
             {lg(129499136, 127), lg(13107200, 16), lg(29884416, 16), lg(293601280, 32), lg(589299712, 64),
              lg(549453824, 128)}),
      region(NcclAlgo::nvls_tree, Protocol::simple,
             {tree_ll128, lg(218103808, 1024), lg(129499136, 127), lg(549453824, 128), lg(589299712, 64),
              lg(293601280, 32), lg(29884416, 16), lg(kMaxSize, 16), lg(509607936, 32), lg(7516192768, 256),
              lg(17179869184, 448), nvlstree_simple}),
      region(NcclAlgo::ring, Protocol::simple,
             {nvlstree_simple, lg(17179869184, 448), lg(7516192768, 256), lg(509607936, 32), lg(kMaxSize, 16)}),
  };
}

}  // namespace

const std::vector<Table>& tables()
{
  static const std::vector<Table> t = {
      Table{{"p5.48xlarge", "p5e.48xlarge"}, 8, CollectiveOp::all_reduce, p5_allreduce()},
      Table{{"p5en.48xlarge"}, 8, CollectiveOp::all_reduce, p5en_allreduce()},
  };
  return t;
}

Point log2_point(double bytes, double ranks) { return lg(bytes, ranks); }

}  // namespace ddpsim::algo::aws_ofi
