// Inline SVG for the HTML reports (app/output/html_report.cpp): scales, "nice" axis ticks, escaping and
// a small element writer. No JavaScript and no external resources: the page must render offline.
// Coordinates are SVG user units (CSS pixels); numbers are printed with a fixed format so the same
// report gives byte-identical pages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ddpsim::app::svg {

// Text or an attribute value made safe for HTML/SVG: & < > " ' escaped, control characters and
// invalid UTF-8 made printable (core/text.hpp), so user strings cannot break the markup.
std::string escape(std::string_view s);

// A coordinate: at most 2 decimals, trailing zeros dropped, never "-0".
std::string num(double v);

// Maps [d0, d1] (data) onto [r0, r1] (pixels). Log scales need d0, d1 > 0; a zero-width domain
// maps everything to the middle of the range.
struct Scale {
  double d0 = 0, d1 = 1, r0 = 0, r1 = 1;
  bool log = false;
  double operator()(double v) const;
};

// Ticks covering [lo, hi] at 1, 2 or 5 x 10^k steps, about `target` of them (linear axes).
std::vector<double> linear_ticks(double lo, double hi, int target = 6);
// Ticks for a log axis over [lo, hi] (> 0): powers of ten, or 1-2-5 per decade when the range is
// under three decades, or powers of two when `base2` (node counts).
std::vector<double> log_ticks(double lo, double hi, bool base2 = false);
// The domain widened outwards to whole ticks: [0, 7.3] -> [0, 8]; log: to the 1-2-5 or 2^k below/above.
void nice_domain(double& lo, double& hi, bool log, bool base2 = false);

// A tick label: 3 significant digits, k/M/G suffixes from 10 000 up ("12k", "1.5M").
std::string tick_label(double v);

// Colours of the series (colour-blind-safe Okabe-Ito palette), cycled.
const char* colour(std::size_t i);

// Appends SVG elements to a string; `title` becomes a hover tooltip (<title>), no script needed.
class Writer {
 public:
  Writer(double width, double height, std::string_view aria_label);
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width = 1,
            std::string_view dash = "");
  void rect(double x, double y, double w, double h, std::string_view fill, std::string_view title = "",
            std::string_view stroke = "");
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke, std::string_view title = "");
  // A marker of shape 0 circle, 1 square, 2 triangle, 3 diamond (cycled), centred at (cx, cy).
  void marker(int shape, double cx, double cy, double r, std::string_view fill, std::string_view stroke,
              std::string_view title = "");
  void polyline(const std::vector<std::pair<double, double>>& pts, std::string_view stroke, double width = 2,
                std::string_view dash = "");
  // anchor: "start", "middle" or "end"; rotate: degrees about (x, y).
  void text(double x, double y, std::string_view s, std::string_view anchor = "start", double size = 13,
            std::string_view extra = "", double rotate = 0);
  std::string finish();  // closes the <svg> element and returns it

 private:
  std::string out_;
};

// A plot frame: the data area inside margins, axes with ticks, grid lines and labels.
struct Axes {
  double width = 1100, height = 380;
  double left = 78, right = 24, top = 36, bottom = 58;
  Scale x, y;
  std::vector<double> xticks, yticks;
  std::string title, xlabel, ylabel;
  double x0() const { return left; }
  double x1() const { return width - right; }
  double y0() const { return height - bottom; }  // bottom of the data area (pixels grow downwards)
  double y1() const { return top; }
  // Sets the scales' pixel ranges to the data area.
  void fit();
  // Draws the title, the grid, the axes, the tick marks and labels and the axis labels.
  void draw(Writer& w) const;
};

// A legend row per entry: a marker (shape >= 0), a line (shape -1, dash optional) or a swatch
// (shape -2), then the label. Drawn in a box at (x, y), top-left.
struct LegendEntry {
  std::string label, colour;
  int shape = 0;
  std::string dash;
  bool hollow = false;  // an outlined marker (e.g. observed points)
};
void legend(Writer& w, double x, double y, const std::vector<LegendEntry>& entries);

}  // namespace ddpsim::app::svg
