#include "libcorpus/xml_escape.h"

#include <array>

namespace corpus {

namespace {

// 0: copy, 1: needs escaping or checking.
constexpr std::array<unsigned char, 256> make_table() {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = 1;
  t['&'] = t['<'] = t['>'] = t['"'] = 1;
  t[0xEF] = 1;  // lead byte of U+FFFE / U+FFFF
  return t;
}
constexpr auto kSpecial = make_table();

}  // namespace

bool append_xml_escaped(std::string& out, std::string_view s, bool attribute, size_t* bad) {
  const size_t start_size = out.size();
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t run = 0;  // start of the pending run to copy
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = p[i];
    if (!kSpecial[c]) continue;
    const char* rep = nullptr;
    switch (c) {
      case '&': rep = "&amp;"; break;
      case '<': rep = "&lt;"; break;
      case '>': rep = "&gt;"; break;
      case '"': rep = attribute ? "&quot;" : nullptr; break;
      case '\r': rep = "&#xD;"; break;
      case '\t': rep = attribute ? "&#x9;" : nullptr; break;
      case '\n': rep = attribute ? "&#xA;" : nullptr; break;
      case 0xEF:
        if (i + 2 < n && p[i + 1] == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF)) {
          out.resize(start_size);
          if (bad) *bad = i;
          return false;
        }
        break;
      default:  // other C0 controls
        out.resize(start_size);
        if (bad) *bad = i;
        return false;
    }
    if (rep) {
      out.append(s.data() + run, i - run);
      out.append(rep);
      run = i + 1;
    }
  }
  out.append(s.data() + run, n - run);
  return true;
}

}  // namespace corpus
