// aws-ofi-nccl's region tables (data in aws_ofi_tuner_regions.cpp, logic in aws_ofi_tuner.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "algorithms/nccl_tuning.hpp"

namespace ddpsim::algo::aws_ofi {

// NCCL's algorithms as the tables name them (NCCL_ALGO_*).
enum class NcclAlgo { ring, tree, nvls_tree };

struct Point {
  double x = 0;  // log2(bytes)
  double y = 0;  // log2(ranks)
};

struct Region {
  NcclAlgo algorithm;
  Protocol protocol;
  std::vector<Point> vertices;  // log2-log2, in the source's order
};

struct Table {
  std::vector<std::string_view> instances;  // EC2 product names the plugin maps to this table
  int ranks_per_node = 8;                    // the source's nRanks == k x nNodes branch
  CollectiveOp op = CollectiveOp::all_reduce;
  std::vector<Region> regions;               // first match wins
};

const std::vector<Table>& tables();
Point log2_point(double bytes, double ranks);

}  // namespace ddpsim::algo::aws_ofi
