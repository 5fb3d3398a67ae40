#include "mt/train/plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace mt {

namespace {

using Series = std::vector<std::pair<double, double>>;

struct Panel {
  double x0, y0, w, h;  // pixel box
  std::string title;
};

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

std::string draw(const Panel& p, const std::vector<std::pair<std::string, Series>>& lines,
                 const std::vector<const char*>& colours) {
  double xmin = std::numeric_limits<double>::max(), xmax = -xmin, ymin = xmin, ymax = -xmin;
  for (const auto& [name, s] : lines)
    for (auto [x, y] : s) {
      xmin = std::min(xmin, x), xmax = std::max(xmax, x);
      ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
  std::string o = fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n"
      "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>\n",
      p.x0, p.y0, p.w, p.h, p.x0 + p.w / 2, p.y0 - 8, escape(p.title));
  if (xmin > xmax) return o + fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\">no data yet</text>\n",
                                          p.x0 + 10, p.y0 + 20);
  if (xmax == xmin) xmax = xmin + 1;
  if (ymax == ymin) ymax = ymin + 1;
  auto X = [&](double x) { return p.x0 + (x - xmin) / (xmax - xmin) * p.w; };
  auto Y = [&](double y) { return p.y0 + p.h - (y - ymin) / (ymax - ymin) * p.h; };
  for (int i = 0; i <= 4; ++i) {
    double yv = ymin + (ymax - ymin) * i / 4, xv = xmin + (xmax - xmin) * i / 4;
    o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"10\" text-anchor=\"end\">{:.3g}</text>\n",
                     p.x0 - 4, Y(yv) + 3, yv);
    o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"10\" text-anchor=\"middle\">{:.0f}</text>\n", X(xv),
                     p.y0 + p.h + 14, xv);
  }
  o += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">step</text>\n", p.x0 + p.w / 2,
                   p.y0 + p.h + 28);
  for (size_t k = 0; k < lines.size(); ++k) {
    const auto& [name, s] = lines[k];
    if (s.empty()) continue;
    std::string pts;
    for (auto [x, y] : s) pts += fmt::format("{:.1f},{:.1f} ", X(x), Y(y));
    o += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n", colours[k], pts);
    o += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{}\">{}</text>\n", p.x0 + p.w - 90,
                     p.y0 + 16 + 14 * k, colours[k], escape(name));
  }
  return o;
}

}  // namespace

std::string log_svg(const std::vector<nlohmann::ordered_json>& log, const std::string& title,
                    const std::string& loss_title, const ValidPanel& right) {
  Series train_loss, valid_loss, first, second;
  for (const auto& r : log) {
    const double step = r.value("step", 0.0);
    if (r.value("type", "") == "train") train_loss.emplace_back(step, r.value("loss", 0.0));
    if (r.value("type", "") == "valid") {
      valid_loss.emplace_back(step, r.value("loss", 0.0));
      first.emplace_back(step, r.value(right.first.second, 0.0));
      second.emplace_back(step, r.value(right.second.second, 0.0));
    }
  }
  std::string o =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"380\" font-family=\"sans-serif\">\n"
      "<rect width=\"900\" height=\"380\" fill=\"white\"/>\n";
  o += fmt::format("<text x=\"450\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n", escape(title));
  o += draw({60, 50, 360, 280, loss_title}, {{"train", train_loss}, {right.valid_loss_label, valid_loss}},
            {"#1f77b4", "#d62728"});
  o += draw({510, 50, 360, 280, right.title}, {{right.first.first, first}, {right.second.first, second}},
            {"#2ca02c", "#9467bd"});
  return o + "</svg>\n";
}

std::string training_svg(const std::vector<nlohmann::ordered_json>& log, const std::string& title) {
  return log_svg(log, title, "loss per target token", {"validation score", "validation", {"chrF", "chrf"}, {"BLEU", "bleu"}});
}

}  // namespace mt
