#include "libcorpus/core/pharaoh.h"

#include "libcorpus/core/error.h"

namespace corpus {

void append_pharaoh(std::string& out, const std::vector<AlignLink>& links) {
  for (size_t k = 0; k < links.size(); ++k) {
    if (k) out.push_back(' ');
    out.append(std::to_string(links[k].first)).push_back('-');
    out.append(std::to_string(links[k].second));
  }
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A position: 1 to 9 digits, so that it fits any 32-bit type.
bool is_position(std::string_view x) {
  return !x.empty() && x.size() <= 9 && x.find_first_not_of("0123456789") == std::string_view::npos;
}

uint32_t position(std::string_view x) {
  uint32_t v = 0;
  for (char c : x) v = v * 10 + static_cast<uint32_t>(c - '0');
  return v;
}

}  // namespace

void parse_pharaoh(std::string_view line, std::vector<AlignLink>& sure, std::vector<AlignLink>* possible) {
  sure.clear();
  if (possible) possible->clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size()) break;
    size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    std::string_view tok = line.substr(i, j - i);
    size_t sep = tok.find_first_of(possible ? "-?p" : "-");
    std::string_view a = sep == std::string_view::npos ? "" : tok.substr(0, sep);
    std::string_view b = sep == std::string_view::npos ? "" : tok.substr(sep + 1);
    if (!is_position(a) || !is_position(b))
      throw Error("malformed alignment link " + quote(tok),
                  possible ? "links are i-j (sure) or i?j (possible), 0-based" : "links are i-j, 0-based");
    const AlignLink l{position(a), position(b)};
    // '?' and 'p' are only searched for when `possible` is given.
    if (tok[sep] == '-') sure.push_back(l);
    else possible->push_back(l);
    i = j;
  }
}

}  // namespace corpus
