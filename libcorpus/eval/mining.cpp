#include "libcorpus/eval/mining.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/tsv.h"
#include "libcorpus/core/utf8.h"

namespace corpus::eval {

namespace {

MiningCounts counts(uint64_t extracted, uint64_t correct, uint64_t gold) {
  MiningCounts c;
  c.extracted = extracted;
  c.correct = correct;
  c.gold = gold;
  if (correct > 0) {
    c.precision = static_cast<double>(correct) / static_cast<double>(extracted);
    c.recall = static_cast<double>(correct) / static_cast<double>(gold);
    c.f1 = 2 * c.precision * c.recall / (c.precision + c.recall);
  }
  return c;
}

std::string_view chomp(std::string_view s) {
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

// Checked lines with a trailing CR removed.
struct Lines {
  Lines(const std::string& path, corpus::LineLimit limit) : text(path, limit) {}
  bool next(std::string_view& line) {
    if (!text.next(line)) return false;
    line = chomp(line);
    return true;
  }
  uint64_t line_number() const { return text.line_number(); }
  const std::string& name() const { return text.name(); }
  corpus::TextLines text;
};

double parse_score(std::string_view s, const Lines& in) {
  std::string t(trim_blanks(s));
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || errno == ERANGE || std::isnan(v))
    throw corpus::Error("bad score " + corpus::quote(t), "a score is a decimal number such as 1.0734")
        .at(in.name(), in.line_number());
  return v;
}

// ID <TAB> SENTENCE files.
struct SentenceFile {
  std::string path;
  std::unordered_set<std::string> ids;
  std::unordered_map<std::string, std::string> text_to_id;  // "" value: ambiguous
  void read(const std::string& p, size_t max_line) {
    path = p;
    Lines in(p, max_line);
    std::string_view line;
    std::vector<std::string_view> f;
    while (in.next(line)) {
      size_t tab = line.find('\t');
      std::string_view id = tab == std::string_view::npos ? line : trim_blanks(line.substr(0, tab));
      if (tab == std::string_view::npos || id.empty())
        throw corpus::Error("malformed sentence line " + corpus::quote(line),
                            "each line is ID<TAB>SENTENCE, as in the BUCC *.de/*.en files")
            .at(in.name(), in.line_number());
      if (!ids.emplace(id).second)
        throw corpus::Error("duplicate id " + corpus::quote(id)).at(in.name(), in.line_number());
      std::string text(trim_blanks(line.substr(tab + 1)));
      auto [it, fresh] = text_to_id.emplace(text, std::string(id));
      if (!fresh) it->second.clear();  // the same text under several ids
    }
  }
};

}  // namespace

MiningReport score_mining(std::vector<MiningCandidate> cands,
                          const std::vector<std::pair<std::string, std::string>>& gold_pairs, bool scored,
                          std::optional<double> threshold) {
  std::set<std::pair<std::string, std::string>> gold(gold_pairs.begin(), gold_pairs.end());
  // Distinct pairs, highest score.
  std::map<std::pair<std::string, std::string>, double> best_score;
  for (auto& c : cands) {
    auto key = std::make_pair(std::move(c.src_id), std::move(c.trg_id));
    auto [it, fresh] = best_score.emplace(std::move(key), c.score);
    if (!fresh) it->second = std::max(it->second, c.score);
  }
  struct Item {
    double score;
    bool correct;
  };
  std::vector<Item> items;
  items.reserve(best_score.size());
  for (const auto& [k, s] : best_score) items.push_back({s, gold.count(k) > 0});

  MiningReport r;
  r.candidates = items.size();
  r.scored = scored;
  const auto ngold = static_cast<uint64_t>(gold.size());
  uint64_t extracted = 0, correct = 0;
  for (const auto& it : items) {
    if (threshold && scored && it.score < *threshold) continue;
    ++extracted;
    correct += it.correct;
  }
  r.selected = counts(extracted, correct, ngold);
  if (threshold && scored) {
    r.thresholded = true;
    r.selected.threshold = *threshold;
  }
  if (scored && !items.empty()) {
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.score > b.score; });
    extracted = correct = 0;
    std::optional<MiningCounts> best;
    for (size_t i = 0; i < items.size();) {
      size_t j = i;
      while (j < items.size() && items[j].score == items[i].score) {
        ++extracted;
        correct += items[j].correct;
        ++j;
      }
      MiningCounts c = counts(extracted, correct, ngold);
      if (!best || c.f1 > best->f1) {
        c.threshold = items[i].score;
        if (j < items.size()) {
          const double mid = (items[i].score + items[j].score) / 2;
          if (mid > items[j].score && mid <= items[i].score) c.threshold = mid;
        }
        best = c;
      }
      i = j;
    }
    r.best = best;
  }
  return r;
}

MiningReport score_mining_files(const MiningFiles& f) {
  if (f.gold.empty()) throw corpus::ConfigError("mining needs a gold file", "add --gold FILE (BUCC format: SRC_ID<TAB>TRG_ID)");
  if (f.src_sents.empty() != f.trg_sents.empty())
    throw corpus::ConfigError("--src-sents and --trg-sents go together");
  const bool have_sents = !f.src_sents.empty();
  SentenceFile src, trg;
  if (have_sents) {
    src.read(f.src_sents, f.max_line);
    trg.read(f.trg_sents, f.max_line);
  }
  // Gold.
  std::vector<std::pair<std::string, std::string>> gold;
  {
    Lines in(f.gold, f.max_line);
    std::string_view line;
    std::vector<std::string_view> fl;
    while (in.next(line)) {
      corpus::split_tsv(line, fl);
      if (fl.size() != 2 || trim_blanks(fl[0]).empty() || trim_blanks(fl[1]).empty())
        throw corpus::Error("malformed gold line " + corpus::quote(line),
                            "each gold line is SRC_ID<TAB>TRG_ID (BUCC format)")
            .at(in.name(), in.line_number());
      std::string s(trim_blanks(fl[0])), t(trim_blanks(fl[1]));
      if (have_sents && !src.ids.count(s))
        throw corpus::Error("gold id " + corpus::quote(s) + " is not in " + f.src_sents).at(in.name(), in.line_number());
      if (have_sents && !trg.ids.count(t))
        throw corpus::Error("gold id " + corpus::quote(t) + " is not in " + f.trg_sents).at(in.name(), in.line_number());
      gold.emplace_back(std::move(s), std::move(t));
    }
    if (gold.empty()) throw corpus::Error("the gold file has no pairs").at(in.name());
  }
  // Candidates: id pairs, or sentence pairs when the first line is not made of
  // known ids... decided by the presence of sentence files and a header.
  std::vector<MiningCandidate> cands;
  MiningReport extra;
  bool scored = false;
  {
    Lines in(f.candidates, {f.max_line, f.skip_bad});
    std::string_view line;
    std::vector<std::string_view> fl;
    int src_col = 0, trg_col = 1, score_col = -1;
    size_t ncols = 0;
    bool first = true, text_mode = false;
    while (in.next(line)) {
      corpus::split_tsv(line, fl);
      if (first) {
        first = false;
        corpus::TsvColumns cols = corpus::columns_from_first_line(line);
        if (cols.header) {
          // A bitext TSV with a header: sentence pairs.
          text_mode = true;
          src_col = cols.index("src_text");
          trg_col = cols.index("trg_text");
          score_col = cols.index(f.score_column);
          ncols = cols.size();
          if (src_col < 0 || trg_col < 0)
            throw corpus::ConfigError("the candidates' header has no src_text and trg_text columns").at(in.name(), 1);
          continue;
        }
        ncols = fl.size();
        if (ncols != 2 && ncols != 3)
          throw corpus::Error(fmt::format("candidates have {} fields; expected 2 or 3", ncols),
                              "each line is SRC<TAB>TRG[<TAB>SCORE] (ids, or sentences with --src-sents/--trg-sents)")
              .at(in.name(), in.line_number());
        score_col = ncols == 3 ? 2 : -1;
        // Ids unless sentence files are given and the fields are not ids.
        text_mode = have_sents && !(src.ids.count(std::string(trim_blanks(fl[0]))) && trg.ids.count(std::string(trim_blanks(fl[1]))));
      }
      if (fl.size() != ncols) {
        if (f.skip_bad) {
          ++extra.skipped;
          continue;
        }
        throw corpus::Error(fmt::format("expected {} tab-separated fields, found {}", ncols, fl.size()))
            .at(in.name(), in.line_number());
      }
      MiningCandidate c;
      if (score_col >= 0) c.score = parse_score(fl[static_cast<size_t>(score_col)], in);
      std::string s(trim_blanks(fl[static_cast<size_t>(src_col)])), t(trim_blanks(fl[static_cast<size_t>(trg_col)]));
      if (text_mode) {
        if (!have_sents)
          throw corpus::ConfigError("sentence candidates need the sentence files",
                                   "add --src-sents FILE --trg-sents FILE (ID<TAB>SENTENCE)");
        auto is = src.text_to_id.find(s);
        auto it = trg.text_to_id.find(t);
        if (is == src.text_to_id.end() || it == trg.text_to_id.end()) {
          if (f.skip_bad) {
            ++extra.skipped;
            continue;
          }
          const bool src_missing = is == src.text_to_id.end();
          throw corpus::Error(fmt::format("{} sentence {} is not in {}", src_missing ? "source" : "target",
                                          corpus::quote(src_missing ? s : t), src_missing ? f.src_sents : f.trg_sents),
                              "the candidates must come from the same sentence files")
              .at(in.name(), in.line_number());
        }
        if (is->second.empty() || it->second.empty()) {
          ++extra.ambiguous;  // LASER's practice: a repeated sentence maps to no id
          continue;
        }
        c.src_id = is->second;
        c.trg_id = it->second;
      } else {
        if (s.empty() || t.empty())
          throw corpus::Error("empty id in candidate " + corpus::quote(line)).at(in.name(), in.line_number());
        if (have_sents && (!src.ids.count(s) || !trg.ids.count(t))) {
          if (f.skip_bad) {
            ++extra.skipped;
            continue;
          }
          const bool src_missing = !src.ids.count(s);
          throw corpus::Error(fmt::format("id {} is not in {}", corpus::quote(src_missing ? s : t),
                                          src_missing ? f.src_sents : f.trg_sents))
              .at(in.name(), in.line_number());
        }
        c.src_id = std::move(s);
        c.trg_id = std::move(t);
      }
      cands.push_back(std::move(c));
    }
    scored = score_col >= 0;
    extra.skipped += in.text.long_lines_skipped();
  }
  if (f.threshold && !scored && !cands.empty())
    throw corpus::ConfigError("--threshold needs candidates with scores", "give SRC<TAB>TRG<TAB>SCORE lines");
  MiningReport r = score_mining(std::move(cands), gold, scored, f.threshold);
  r.ambiguous = extra.ambiguous;
  r.skipped = extra.skipped;
  return r;
}

}  // namespace corpus::eval
