#include "app/output/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/text.hpp"

namespace ddpsim::app::svg {
namespace {

// 1, 2 or 5 x 10^k closest above `raw` (the step of a linear axis).
double nice_step(double raw)
{
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (raw <= m * p * (1 + 1e-9)) return m * p;
  return 10 * p;
}

// The 1-2-5 sequence value at or below (down) / at or above (!down) `v` > 0.
double nice125(double v, bool down)
{
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  const double ms[] = {1, 2, 5, 10};
  if (down) {
    double best = p;
    for (double m : ms)
      if (m * p <= v * (1 + 1e-9)) best = m * p;
    return best;
  }
  for (double m : ms)
    if (m * p >= v * (1 - 1e-9)) return m * p;
  return 10 * p;
}

std::string attr(std::string_view name, std::string_view value)
{
  return value.empty() ? std::string() : " " + std::string(name) + "=\"" + escape(value) + "\"";
}

std::string titled(std::string_view open, std::string_view title, std::string_view tag)
{
  if (title.empty()) return std::string(open) + "/>\n";
  return std::string(open) + "><title>" + escape(title) + "</title></" + std::string(tag) + ">\n";
}

}  // namespace

std::string escape(std::string_view s)
{
  const std::string p = printable(s);
  std::string out;
  out.reserve(p.size());
  for (char c : p) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v)
{
  if (!std::isfinite(v)) return "0";
  std::string s = fmt("%.2f", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

double Scale::operator()(double v) const
{
  double a = d0, b = d1, x = v;
  if (log) {
    a = std::log(std::max(a, 1e-300)), b = std::log(std::max(b, 1e-300)), x = std::log(std::max(x, 1e-300));
  }
  if (!(b != a)) return (r0 + r1) / 2;
  return r0 + (x - a) / (b - a) * (r1 - r0);
}

constexpr std::size_t kMaxTicks = 256;

std::vector<double> linear_ticks(double lo, double hi, int target)
{
  std::vector<double> out;
  if (!(hi > lo) || !std::isfinite(hi - lo)) return {lo};
  const double step = nice_step((hi - lo) / std::max(1, target));
  // At most a few hundred ticks whatever the values (issue 21: a non-finite axis never ended).
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9 && out.size() < kMaxTicks; ++k) {
    const double v = k * step;
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  }
  return out;
}

std::vector<double> log_ticks(double lo, double hi, bool base2)
{
  std::vector<double> out;
  if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi)) return out;
  if (base2) {
    for (double v = std::exp2(std::ceil(std::log2(lo) - 1e-9)); v <= hi * (1 + 1e-9) && out.size() < kMaxTicks; v *= 2)
      out.push_back(v);
    return out;
  }
  const double decades = std::log10(hi / lo);
  const double first = std::pow(10.0, std::floor(std::log10(lo)));
  std::vector<double> ms = decades < 3 ? std::vector<double>{1, 2, 5} : std::vector<double>{1};
  if (decades < 0.7) ms = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (double p = first; p <= hi * (1 + 1e-9) && out.size() < kMaxTicks; p *= 10)
    for (double m : ms)
      if (m * p >= lo * (1 - 1e-9) && m * p <= hi * (1 + 1e-9)) out.push_back(m * p);
  return out;
}

void nice_domain(double& lo, double& hi, bool log, bool base2)
{
  if (log) {
    lo = std::max(lo, 1e-12);
    hi = std::max(hi, lo);
    if (base2) {
      lo = std::exp2(std::floor(std::log2(lo) + 1e-9));
      hi = std::exp2(std::ceil(std::log2(hi) - 1e-9));
      if (hi <= lo) hi = lo * 2;
      return;
    }
    lo = nice125(lo, true);
    hi = nice125(hi, false);
    if (hi <= lo) hi = nice125(lo * 1.5, false);
    return;
  }
  if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
  const double step = nice_step((hi - lo) / 6);
  lo = std::floor(lo / step + 1e-9) * step;
  hi = std::ceil(hi / step - 1e-9) * step;
}

std::string tick_label(double v)
{
  const double a = std::fabs(v);
  if (a >= 1e9) return fmt("%.3g", v / 1e9) + "G";
  if (a >= 1e6) return fmt("%.3g", v / 1e6) + "M";
  if (a >= 1e4) return fmt("%.3g", v / 1e3) + "k";
  if (a >= 1000) return fmt("%.0f", v);
  if (a == 0) return "0";
  return fmt("%.3g", v);
}

const char* colour(std::size_t i)
{
  // Okabe & Ito (2008), "Color Universal Design", without the yellow that vanishes on white.
  static const char* const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
  return palette[i % (sizeof palette / sizeof *palette)];
}

Writer::Writer(double width, double height, std::string_view aria_label)
{
  out_ = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
         "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\" role=\"img\"" + attr("aria-label", aria_label) + ">\n";
}

void Writer::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width, std::string_view dash)
{
  out_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\"" +
          attr("stroke", stroke) + " stroke-width=\"" + num(width) + "\"" + attr("stroke-dasharray", dash) + "/>\n";
}

void Writer::rect(double x, double y, double w, double h, std::string_view fill, std::string_view title,
                  std::string_view stroke)
{
  out_ += titled("<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(std::max(0.0, w)) + "\" height=\"" +
                     num(std::max(0.0, h)) + "\"" + attr("fill", fill) + attr("stroke", stroke),
                 title, "rect");
}

void Writer::circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke, std::string_view title)
{
  out_ += titled("<circle cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"" + num(r) + "\"" + attr("fill", fill) +
                     attr("stroke", stroke) + (stroke.empty() ? "" : " stroke-width=\"1.5\""),
                 title, "circle");
}

void Writer::marker(int shape, double cx, double cy, double r, std::string_view fill, std::string_view stroke,
                    std::string_view title)
{
  std::string pts;
  switch (((shape % 8) + 8) % 8) {  // issue 20: eight shapes, so that up to eight frameworks differ
    case 0: circle(cx, cy, r, fill, stroke, title); return;
    case 1: pts = num(cx - r) + "," + num(cy - r) + " " + num(cx + r) + "," + num(cy - r) + " " + num(cx + r) + "," +
                  num(cy + r) + " " + num(cx - r) + "," + num(cy + r);
      break;
    case 2: pts = num(cx) + "," + num(cy - r * 1.25) + " " + num(cx + r * 1.2) + "," + num(cy + r * 0.9) + " " +
                  num(cx - r * 1.2) + "," + num(cy + r * 0.9);
      break;
    case 3: pts = num(cx) + "," + num(cy - r * 1.3) + " " + num(cx + r * 1.3) + "," + num(cy) + " " + num(cx) + "," +
                  num(cy + r * 1.3) + " " + num(cx - r * 1.3) + "," + num(cy);
      break;
    case 4:  // triangle pointing down
      pts = num(cx) + "," + num(cy + r * 1.25) + " " + num(cx + r * 1.2) + "," + num(cy - r * 0.9) + " " +
            num(cx - r * 1.2) + "," + num(cy - r * 0.9);
      break;
    default: {  // 5: pentagon, 6: hexagon, 7: eight-pointed star
      const int k = shape % 8 == 5 ? 5 : shape % 8 == 6 ? 6 : 16;
      for (int i = 0; i < k; ++i) {
        const double a = -1.5707963267948966 + 6.283185307179586 * i / k, rr = k == 16 && i % 2 ? r * 0.55 : r * 1.2;
        pts += (i ? " " : "") + num(cx + rr * std::cos(a)) + "," + num(cy + rr * std::sin(a));
      }
    }
  }
  out_ += titled("<polygon points=\"" + pts + "\"" + attr("fill", fill) + attr("stroke", stroke) +
                     (stroke.empty() ? "" : " stroke-width=\"1.5\""),
                 title, "polygon");
}

void Writer::polyline(const std::vector<std::pair<double, double>>& pts, std::string_view stroke, double width,
                      std::string_view dash)
{
  if (pts.size() < 2) return;
  std::string p;
  for (const auto& [x, y] : pts) p += (p.empty() ? "" : " ") + num(x) + "," + num(y);
  out_ += "<polyline points=\"" + p + "\" fill=\"none\"" + attr("stroke", stroke) + " stroke-width=\"" + num(width) +
          "\"" + attr("stroke-dasharray", dash) + " stroke-linejoin=\"round\"/>\n";
}

void Writer::text(double x, double y, std::string_view s, std::string_view anchor, double size, std::string_view extra,
                  double rotate)
{
  out_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(size) + "\"" +
          (anchor == "start" ? std::string() : attr("text-anchor", anchor)) +
          (rotate != 0 ? " transform=\"rotate(" + num(rotate) + " " + num(x) + " " + num(y) + ")\"" : std::string()) +
          (extra.empty() ? std::string() : " " + std::string(extra)) + ">" + escape(s) + "</text>\n";
}

std::string Writer::finish() { return out_ + "</svg>\n"; }

void Axes::fit()
{
  x.r0 = x0(), x.r1 = x1();
  y.r0 = y0(), y.r1 = y1();
}

void Axes::draw(Writer& w) const
{
  if (!title.empty()) w.text(x0(), 22, title, "start", 16, "font-weight=\"bold\"");
  for (double t : yticks) {
    const double py = y(t);
    w.line(x0(), py, x1(), py, "#e3e3e3");
    w.line(x0() - 5, py, x0(), py, "#333");
    w.text(x0() - 8, py + 4.5, tick_label(t), "end", 12);
  }
  for (double t : xticks) {
    const double px = x(t);
    w.line(px, y0(), px, y1(), "#ececec");
    w.line(px, y0(), px, y0() + 5, "#333");
    w.text(px, y0() + 20, tick_label(t), "middle", 12);
  }
  w.line(x0(), y0(), x1(), y0(), "#333", 1.2);
  w.line(x0(), y0(), x0(), y1(), "#333", 1.2);
  if (!xlabel.empty()) w.text((x0() + x1()) / 2, height - 12, xlabel, "middle", 13);
  if (!ylabel.empty()) w.text(18, (y0() + y1()) / 2, ylabel, "middle", 13, "", -90);
}

void legend(Writer& w, double x, double y, const std::vector<LegendEntry>& entries)
{
  if (entries.empty()) return;
  std::size_t longest = 0;
  for (const LegendEntry& e : entries) longest = std::max(longest, e.label.size());
  const double width = 44 + 7.4 * static_cast<double>(longest), row = 19;
  w.rect(x, y, width, row * static_cast<double>(entries.size()) + 8, "#ffffff", "", "#bbbbbb");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LegendEntry& e = entries[i];
    const double cy = y + 4 + row * (static_cast<double>(i) + 0.5);
    if (e.shape == -1)
      w.line(x + 8, cy, x + 30, cy, e.colour, 2.5, e.dash);
    else if (e.shape == -2)
      w.rect(x + 11, cy - 6, 14, 12, e.colour);
    else if (e.hollow)
      w.marker(e.shape, x + 19, cy, 5, "#ffffff", e.colour);
    else
      w.marker(e.shape, x + 19, cy, 5, e.colour, "#ffffff");
    w.text(x + 36, cy + 4.5, e.label, "start", 12);
  }
}

}  // namespace ddpsim::app::svg
