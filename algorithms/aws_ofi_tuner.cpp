#include "algorithms/aws_ofi_tuner.hpp"

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>

#include "algorithms/aws_ofi_tuner_regions.hpp"

namespace ddpsim::algo {
namespace {

namespace bg = boost::geometry;
using BgPoint = bg::model::d2::point_xy<double>;
using BgPolygon = bg::model::polygon<BgPoint>;

// The source's is_inside_region: ray casting, a point on an edge counts as inside (it returns 0,
// and the caller takes any result >= 0). Boost.Geometry's covered_by is the same test.
bool inside(const aws_ofi::Point& p, const aws_ofi::Region& r)
{
  BgPolygon poly;
  for (const aws_ofi::Point& v : r.vertices) bg::append(poly.outer(), BgPoint(v.x, v.y));
  bg::correct(poly);  // closes the ring and orients it as Boost expects
  return bg::covered_by(BgPoint(p.x, p.y), poly);
}

std::string_view registry_name(aws_ofi::NcclAlgo a)
{
  switch (a) {
    case aws_ofi::NcclAlgo::ring: return "ring";
    case aws_ofi::NcclAlgo::tree: return "tree";
    case aws_ofi::NcclAlgo::nvls_tree: return "nvls";  // ddpsim's nvls across nodes is NVLSTree
  }
  return "ring";
}

std::string_view strip_ml(std::string_view instance)
{
  return instance.substr(0, 3) == "ml." ? instance.substr(3) : instance;
}

const aws_ofi::Table* table_for(std::string_view instance, CollectiveOp op, int ranks_per_node)
{
  for (const aws_ofi::Table& t : aws_ofi::tables())
    for (std::string_view name : t.instances)
      if (name == strip_ml(instance) && t.op == op && t.ranks_per_node == ranks_per_node) return &t;
  return nullptr;
}

}  // namespace

std::string_view to_string(Tuner t) { return t == Tuner::aws_ofi ? "aws-ofi" : "nccl"; }

bool parse_tuner(std::string_view name, Tuner& out)
{
  if (name == "aws-ofi") out = Tuner::aws_ofi;
  else if (name == "nccl" || name == "none") out = Tuner::nccl;
  else return false;
  return true;
}

const TunerSource& aws_ofi_tuner_source()
{
  static const TunerSource s{"github.com/aws/aws-ofi-nccl", "src/tuner/nccl_ofi_regions.cpp", "v1.21.1",
                             "2475c4c736907e68ebeadb3848f31231ee4a44d0", "2026-08-19"};
  return s;
}

bool aws_ofi_has_regions(std::string_view instance)
{
  for (const aws_ofi::Table& t : aws_ofi::tables())
    for (std::string_view name : t.instances)
      if (name == strip_ml(instance)) return true;
  return false;
}

std::optional<TunerChoice> aws_ofi_choice(std::string_view instance, CollectiveOp op, Bytes bytes, int nodes,
                                          int ranks, const std::function<bool(const TunerChoice&)>& allowed)
{
  // "Skip when two nodes or lesser ... fallback to NCCL's internal tunings" (nccl_ofi_regions.cpp).
  if (nodes <= 2 || ranks % nodes != 0) return std::nullopt;
  const aws_ofi::Table* table = table_for(instance, op, ranks / nodes);
  if (!table) return std::nullopt;
  const aws_ofi::Point p = aws_ofi::log2_point(bytes.as_double(), ranks);
  for (const aws_ofi::Region& r : table->regions) {
    const TunerChoice c{registry_name(r.algorithm), r.protocol};
    if (!allowed(c)) continue;  // NCCL_ALGO / NCCL_PROTO: the pair is IGNORE in NCCL's table
    if (inside(p, r)) return c;
  }
  return std::nullopt;
}

}  // namespace ddpsim::algo
