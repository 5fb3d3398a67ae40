#include "mt/decode/ddg_svg.h"

#include <fmt/format.h>

#include <algorithm>

namespace mt {

namespace {

constexpr int kCellW = 64, kCellH = 22, kLeft = 64, kGap = 28, kLineH = 18;
constexpr size_t kCellChars = 8;  // code points shown in a cell; the tooltip has the whole piece

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// At most n code points of valid UTF-8 s, with an ellipsis when cut.
std::string shorten(const std::string& s, size_t n) {
  size_t cps = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;  // a continuation byte
    if (cps++ == n) return s.substr(0, i) + "…";
  }
  return s;
}

// Greedy's final token at each position: what the passes accepted there.
std::vector<int32_t> final_tokens(const DecodeTrace& t) {
  std::vector<int32_t> y;
  for (const PassTrace& p : t)
    for (int i = 0; i < p.accepted; ++i) {
      const size_t pos = static_cast<size_t>(p.t0 + i);
      if (y.size() <= pos) y.resize(pos + 1, -1);
      y[pos] = p.out[static_cast<size_t>(i)];
    }
  return y;
}

void sentence_graph(std::string& svg, const DdgSentence& s, const std::function<std::string(int32_t)>& piece,
                    int& y) {
  const std::vector<int32_t> fin = final_tokens(s.passes);
  int tokens = 0;
  for (const PassTrace& p : s.passes) tokens += p.accepted;
  svg += fmt::format("<text x=\"4\" y=\"{}\" class=\"h\">sentence {}: {} passes, {} tokens ({:.2f} a pass)</text>\n",
                     y + 13, s.number, s.passes.size(), tokens,
                     s.passes.empty() ? 0.0 : static_cast<double>(tokens) / static_cast<double>(s.passes.size()));
  svg += fmt::format("<text x=\"4\" y=\"{}\" class=\"s\">{}</text>\n", y + 13 + kLineH, escape(shorten(s.source, 120)));
  y += 2 * kLineH + 4;
  for (size_t pos = 0; pos < fin.size(); ++pos)
    svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"n\">{}</text>\n", kLeft + static_cast<int>(pos) * kCellW + kCellW / 2,
                       y + 12, pos);
  y += kLineH;
  for (size_t k = 0; k < s.passes.size(); ++k) {
    const PassTrace& p = s.passes[k];
    const int row_y = y + static_cast<int>(k) * kCellH;
    svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"n\">pass {}</text>\n", kLeft / 2, row_y + 15, k + 1);
    for (size_t i = 0; i < p.out.size(); ++i) {
      const size_t pos = static_cast<size_t>(p.t0) + i;
      const bool accepted = static_cast<int>(i) < p.accepted;
      const bool right = pos < fin.size() && fin[pos] == p.out[i];
      const char* kind = accepted ? "accepted" : right ? "right" : "wrong";
      const char* colour = accepted ? "#2e8b57" : right ? "#e0a030" : "#c04040";
      const std::string text = piece(p.out[i]);
      const int x = kLeft + static_cast<int>(pos) * kCellW;
      svg += fmt::format(
          "<g><title>pass {}, position {}: {} (p={:.3f}, {})</title>"
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"{:.2f}\" stroke=\"{}\"/>"
          "<text x=\"{}\" y=\"{}\" class=\"t\">{}</text></g>\n",
          k + 1, pos, escape(text), p.prob[i], kind, x + 1, row_y + 1, kCellW - 2, kCellH - 2, colour,
          0.25 + 0.65 * p.prob[i], colour, x + kCellW / 2, row_y + 15, escape(shorten(text, kCellChars)));
    }
  }
  y += static_cast<int>(s.passes.size()) * kCellH + kGap;
}

}  // namespace

std::string ddg_svg(const std::vector<DdgSentence>& sentences, const std::function<std::string(int32_t)>& piece,
                    const std::string& caption) {
  size_t columns = 1;
  for (const DdgSentence& s : sentences) columns = std::max(columns, final_tokens(s.passes).size());
  std::string body;
  int y = 2 * kLineH + 8;
  body += fmt::format("<text x=\"4\" y=\"16\" class=\"h\">{}</text>\n", escape(caption));
  body += "<text x=\"4\" y=\"34\" class=\"s\">cells: the model's token at a position in a pass; "
          "green: accepted there; amber: greedy's final token, not yet accepted; red: a token greedy does not keep; "
          "strength: its probability</text>\n";
  for (const DdgSentence& s : sentences) sentence_graph(body, s, piece, y);
  const int width = std::max(900, kLeft + static_cast<int>(columns) * kCellW + 8);
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n"
      "<style>text{{font-family:sans-serif}} .h{{font-size:14px;font-weight:bold}} .s{{font-size:12px}} "
      ".n{{font-size:10px;text-anchor:middle;fill:#555}} .t{{font-size:11px;text-anchor:middle}}</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{2}</svg>\n",
      width, y, body);
}

}  // namespace mt
