// Deterministic label placement for the SVG charts (issue 20: a plan chart's labels overlapped
// points). Markers and other drawn things are registered as obstacles; each label then takes the
// first of its candidate positions that stays inside the plot area and meets no obstacle and no
// label placed before it (first without crossing a registered line, then allowing that). When every
// candidate collides, the one with the least overlap is taken and reported, so the caller may
// decide; the chart tests (tests/cli/plan_labels.sh) measure the result in a real browser.
// Same inputs, same order -> same positions (no randomness, no floating-point ties left open).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ddpsim::app::svg {

struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // left, top, right, bottom (pixels grow downwards)
  bool intersects(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool inside(const Box& o) const { return x0 >= o.x0 && x1 <= o.x1 && y0 >= o.y0 && y1 <= o.y1; }
  double overlap(const Box& o) const;  // area of the intersection (0 when apart)
};

// The box a <text> of `size` px occupies in DejaVu Sans (the reports' first font), measured in
// headless Chromium: advance 0.64 em per character (0.75 em bold), ascent 0.93 em, descent 0.27 em;
// rounded up a little. (x, baseline) is the text's start point (text-anchor "start").
double label_width(std::string_view s, double size, bool bold = false);
Box text_box(double x, double baseline, std::string_view s, double size, bool bold = false);

// A label placed: its start point for Writer::text (anchor "start"), its box, whether it is away
// from its point (draw a leader line), and whether it still collides with something.
struct Placed {
  double x = 0, baseline = 0;
  Box box;
  bool far = false, collides = false;
};

class LabelPlacer {
 public:
  explicit LabelPlacer(Box area) : area_(area) {}
  void block(const Box& b) { obstacles_.push_back(b); }
  // A marker of radius r at (cx, cy): the box of its widest shape (diamond, 1.3 r) and its stroke.
  void block_marker(double cx, double cy, double r);
  // A line labels should rather not cross (the frontier, goal lines).
  void avoid_line(double x1, double y1, double x2, double y2) { lines_.push_back({x1, y1, x2, y2}); }
  // Places `text` beside the point (px, py) whose marker has half-size `clearance`: above, below,
  // right, left, then the corners, then the same farther out.
  Placed place_near(double px, double py, double clearance, std::string_view text, double size, bool bold = false);
  // Places `text` at the first free start point of `starts` (baseline y), in order.
  Placed place_at(const std::vector<std::pair<double, double>>& starts, std::string_view text, double size,
                  bool bold = false);
  const std::vector<Box>& labels() const { return labels_; }

 private:
  struct Segment {
    double x1, y1, x2, y2;
  };
  Placed choose(const std::vector<Placed>& cands);
  bool free_of_boxes(const Box& b) const;
  bool crosses_line(const Box& b) const;
  Box area_;
  std::vector<Box> obstacles_, labels_;
  std::vector<Segment> lines_;
};

}  // namespace ddpsim::app::svg
