#include "libcorpus/eval/align_score.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/pharaoh.h"
#include "libcorpus/core/utf8.h"

namespace corpus::eval {

namespace {

// "[1, 2]" -> {1, 2}; "[]" -> {}.
bool parse_list(std::string_view s, std::vector<int>& out) {
  s = trim_blanks(s);
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return false;
  s = trim_blanks(s.substr(1, s.size() - 2));
  out.clear();
  if (s.empty()) return true;
  while (true) {
    size_t comma = s.find(',');
    std::string_view item = trim_blanks(s.substr(0, comma));
    if (item.empty() || item.find_first_not_of("0123456789") != std::string_view::npos || item.size() > 9) return false;
    out.push_back(std::stoi(std::string(item)));
    if (comma == std::string_view::npos) break;
    s = s.substr(comma + 1);
  }
  return true;
}

std::vector<SentAlignment> read_vecalign(const std::string& path, size_t max_line) {
  corpus::TextLines in(path, max_line);
  std::vector<SentAlignment> out;
  std::string_view line;
  while (in.next(line)) {
    if (trim_blanks(line).empty()) continue;
    try {
      out.push_back(parse_vecalign_line(line));
    } catch (corpus::Error& e) {
      e.at(in.name(), in.line_number());
      throw;
    }
  }
  return out;
}

double ratio(uint64_t a, uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }
double f1(double p, double r) { return p + r == 0 ? 0.0 : 2 * (p * r) / (p + r); }

using Link = corpus::AlignLink;

// The links of one Pharaoh line as sets; `possible` gets "i?j"/"ipj" links when not null.
void parse_links(std::string_view line, std::set<Link>& sure, std::set<Link>* possible) {
  std::vector<Link> s, p;
  corpus::parse_pharaoh(line, s, possible ? &p : nullptr);
  sure.clear();
  sure.insert(s.begin(), s.end());
  if (possible) {
    possible->clear();
    possible->insert(p.begin(), p.end());
  }
}

}  // namespace

SentAlignment parse_vecalign_line(std::string_view line) {
  // fields = [x.strip() for x in line.split(':') if len(x.strip())]
  std::vector<std::string_view> fields;
  size_t b = 0;
  while (b <= line.size()) {
    size_t e = line.find(':', b);
    if (e == std::string_view::npos) e = line.size();
    std::string_view f = trim_blanks(line.substr(b, e - b));
    if (!f.empty()) fields.push_back(f);
    b = e + 1;
  }
  SentAlignment a;
  if (fields.size() < 2 || !parse_list(fields[0], a.first) || !parse_list(fields[1], a.second))
    throw corpus::Error("malformed alignment line " + corpus::quote(line),
                        "Vecalign lines look like [0, 1]:[2] (0-based sentence indices; [] for none)");
  return a;
}

StrictLax vecalign_precision(const std::vector<SentAlignment>& gold_in, const std::vector<SentAlignment>& test_in) {
  StrictLax c;
  auto nonempty = [](const std::vector<SentAlignment>& v) {
    std::set<SentAlignment> s;
    for (const auto& a : v)
      if (!a.first.empty() || !a.second.empty()) s.insert(a);
    return s;
  };
  const std::set<SentAlignment> test = nonempty(test_in), gold = nonempty(gold_in);
  std::map<int, std::set<int>> src_to_gold_tgt;
  for (const auto& [gs, gt] : gold)
    for (int s : gs) src_to_gold_tgt[s].insert(gt.begin(), gt.end());
  for (const auto& a : test) {
    if (gold.count(a)) {
      ++c.tp_strict;
      ++c.tp_lax;
      continue;
    }
    std::set<int> targets;
    for (int s : a.first) {
      auto it = src_to_gold_tgt.find(s);
      if (it != src_to_gold_tgt.end()) targets.insert(it->second.begin(), it->second.end());
    }
    bool overlap = std::any_of(a.second.begin(), a.second.end(), [&](int t) { return targets.count(t) > 0; });
    ++c.fp_strict;
    if (overlap) ++c.tp_lax;
    else ++c.fp_lax;
  }
  return c;
}

SentAlignScores score_sentence_alignment(const std::vector<std::vector<SentAlignment>>& gold,
                                         const std::vector<std::vector<SentAlignment>>& test) {
  SentAlignScores r;
  auto no_del = [](const std::vector<SentAlignment>& v) {
    std::vector<SentAlignment> o;
    for (const auto& a : v)
      if (!a.first.empty() && !a.second.empty()) o.push_back(a);
    return o;
  };
  for (size_t d = 0; d < gold.size() && d < test.size(); ++d) {
    StrictLax p = vecalign_precision(gold[d], test[d]);
    StrictLax q = vecalign_precision(no_del(test[d]), no_del(gold[d]));
    r.pcounts.tp_strict += p.tp_strict, r.pcounts.fp_strict += p.fp_strict;
    r.pcounts.tp_lax += p.tp_lax, r.pcounts.fp_lax += p.fp_lax;
    r.rcounts.tp_strict += q.tp_strict, r.rcounts.fp_strict += q.fp_strict;
    r.rcounts.tp_lax += q.tp_lax, r.rcounts.fp_lax += q.fp_lax;
  }
  r.precision_strict = ratio(r.pcounts.tp_strict, r.pcounts.tp_strict + r.pcounts.fp_strict);
  r.precision_lax = ratio(r.pcounts.tp_lax, r.pcounts.tp_lax + r.pcounts.fp_lax);
  r.recall_strict = ratio(r.rcounts.tp_strict, r.rcounts.tp_strict + r.rcounts.fp_strict);
  r.recall_lax = ratio(r.rcounts.tp_lax, r.rcounts.tp_lax + r.rcounts.fp_lax);
  r.f1_strict = f1(r.precision_strict, r.recall_strict);
  r.f1_lax = f1(r.precision_lax, r.recall_lax);
  return r;
}

SentAlignScores score_sentence_alignment_files(const std::vector<std::string>& gold,
                                               const std::vector<std::string>& test, size_t max_line) {
  if (gold.size() != test.size())
    throw corpus::ConfigError(fmt::format("{} gold files but {} test files", gold.size(), test.size()),
                             "give one --gold per test file, in the same order");
  std::vector<std::vector<SentAlignment>> g, t;
  for (size_t i = 0; i < gold.size(); ++i) {
    g.push_back(read_vecalign(gold[i], max_line));
    t.push_back(read_vecalign(test[i], max_line));
  }
  return score_sentence_alignment(g, t);
}

namespace {
void accumulate(WordAlignScores& acc, const std::set<Link>& a, const std::set<Link>& s, std::set<Link>& p) {
  p.insert(s.begin(), s.end());
  acc.links += a.size();
  acc.sure += s.size();
  acc.possible += p.size();
  for (const Link& l : a) {
    acc.a_and_s += s.count(l);
    acc.a_and_p += p.count(l);
  }
}
}  // namespace

void add_word_alignment(WordAlignScores& acc, std::string_view test_line, std::string_view gold_line) {
  std::set<Link> a, s, p;
  parse_links(test_line, a, nullptr);
  parse_links(gold_line, s, &p);
  accumulate(acc, a, s, p);
}

void finish(WordAlignScores& acc) {
  acc.precision = ratio(acc.a_and_p, acc.links);
  acc.recall = ratio(acc.a_and_s, acc.sure);
  acc.aer = acc.links + acc.sure == 0
                ? 0.0
                : 1.0 - static_cast<double>(acc.a_and_s + acc.a_and_p) / static_cast<double>(acc.links + acc.sure);
}

WordAlignScores score_word_alignment_files(const std::string& gold, const std::string& test, size_t max_line) {
  corpus::TextLines g(gold, max_line), t(test, max_line);
  WordAlignScores acc;
  std::string_view gl, tl;
  std::set<Link> a, sure, poss;
  while (true) {
    const bool hg = g.next(gl), ht = t.next(tl);
    if (hg != ht) {
      const corpus::TextLines& shorter = hg ? t : g;
      const corpus::TextLines& longer = hg ? g : t;
      throw corpus::ConfigError(fmt::format("{} has {} lines but {} has more", shorter.name(),
                                           shorter.line_number(), longer.name()),
                               "gold and test need one line per sentence pair");
    }
    if (!hg) break;
    try {
      parse_links(tl, a, nullptr);
    } catch (corpus::Error& e) {
      e.at(t.name(), t.line_number());
      throw;
    }
    try {
      parse_links(gl, sure, &poss);
    } catch (corpus::Error& e) {
      e.at(g.name(), g.line_number());
      throw;
    }
    accumulate(acc, a, sure, poss);
  }
  finish(acc);
  return acc;
}

std::string detect_alignment_format(const std::string& path, size_t max_line) {
  corpus::TextLines in(path, max_line);
  std::string_view line;
  while (in.next(line)) {
    std::string_view t = trim_blanks(line);
    if (t.empty()) continue;
    return t.front() == '[' ? "vecalign" : "pharaoh";
  }
  return "pharaoh";
}

}  // namespace corpus::eval
