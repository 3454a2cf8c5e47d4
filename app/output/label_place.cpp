#include "app/output/label_place.hpp"

#include <algorithm>
#include <cmath>

namespace ddpsim::app::svg {

double Box::overlap(const Box& o) const
{
  const double w = std::min(x1, o.x1) - std::max(x0, o.x0), h = std::min(y1, o.y1) - std::max(y0, o.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

double label_width(std::string_view s, double size, bool bold)
{
  double chars = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) chars += 1;  // one per UTF-8 code point
  return (bold ? 0.76 : 0.65) * size * chars;
}

Box text_box(double x, double baseline, std::string_view s, double size, bool bold)
{
  return {x, baseline - 0.95 * size, x + label_width(s, size, bold), baseline + 0.3 * size};
}

void LabelPlacer::block_marker(double cx, double cy, double r)
{
  const double h = 1.3 * r + 1;
  block({cx - h, cy - h, cx + h, cy + h});
}

bool LabelPlacer::free_of_boxes(const Box& b) const
{
  if (!b.inside(area_)) return false;
  for (const Box& o : obstacles_)
    if (b.intersects(o)) return false;
  for (const Box& o : labels_)
    if (b.intersects(o)) return false;
  return true;
}

namespace {
// Whether the segment meets the box (Liang-Barsky clipping).
bool segment_meets(double x1, double y1, double x2, double y2, const Box& b)
{
  double t0 = 0, t1 = 1;
  const double dx = x2 - x1, dy = y2 - y1;
  const double p[4] = {-dx, dx, -dy, dy}, q[4] = {x1 - b.x0, b.x1 - x1, y1 - b.y0, b.y1 - y1};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}
}  // namespace

bool LabelPlacer::crosses_line(const Box& b) const
{
  return std::any_of(lines_.begin(), lines_.end(),
                     [&](const Segment& s) { return segment_meets(s.x1, s.y1, s.x2, s.y2, b); });
}

Placed LabelPlacer::choose(const std::vector<Placed>& cands)
{
  // Pass 1: free and off the lines; pass 2: free; else the least overlap (first on ties).
  const Placed* pick = nullptr;
  for (const Placed& c : cands)
    if (free_of_boxes(c.box) && !crosses_line(c.box)) { pick = &c; break; }
  if (!pick)
    for (const Placed& c : cands)
      if (free_of_boxes(c.box)) { pick = &c; break; }
  Placed out;
  if (pick) {
    out = *pick;
  } else {
    double best = 1e300;
    for (const Placed& c : cands) {
      if (!c.box.inside(area_)) continue;
      double o = 0;
      for (const Box& b : obstacles_) o += c.box.overlap(b);
      for (const Box& b : labels_) o += c.box.overlap(b);
      if (o < best) best = o, out = c;
    }
    if (best == 1e300 && !cands.empty()) out = cands.front();
    out.collides = true;
  }
  labels_.push_back(out.box);
  return out;
}

Placed LabelPlacer::place_near(double px, double py, double clearance, std::string_view text, double size, bool bold)
{
  const double w = label_width(text, size, bold), up = 0.95 * size, down = 0.3 * size;
  std::vector<Placed> cands;
  for (int ring = 0; ring < 6; ++ring) {
    const double g = clearance + 2 + 9 * ring;  // the gap between the marker's centre and the label
    const double xs[8] = {px - w / 2, px - w / 2, px + g, px - g - w, px + g * 0.7, px + g * 0.7, px - g * 0.7 - w,
                          px - g * 0.7 - w};
    const double ys[8] = {py - g - down, py + g + up, py + up / 2 - down / 2, py + up / 2 - down / 2,
                          py - g * 0.7 - down, py + g * 0.7 + up, py - g * 0.7 - down, py + g * 0.7 + up};
    for (int i = 0; i < 8; ++i) {
      Placed c;
      c.x = xs[i], c.baseline = ys[i];
      c.box = text_box(c.x, c.baseline, text, size, bold);
      c.far = ring > 0;
      cands.push_back(c);
    }
  }
  return choose(cands);
}

Placed LabelPlacer::place_at(const std::vector<std::pair<double, double>>& starts, std::string_view text, double size,
                             bool bold)
{
  std::vector<Placed> cands;
  for (const auto& [x, y] : starts) {
    Placed c;
    c.x = x, c.baseline = y;
    c.box = text_box(x, y, text, size, bold);
    cands.push_back(c);
  }
  return choose(cands);
}

}  // namespace ddpsim::app::svg
