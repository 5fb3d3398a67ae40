#include "align/corpus_ids.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace align {

uint32_t Vocab::find(std::string_view w) const {
  if (w.empty()) return kUnknown;
  auto it = std::lower_bound(words.begin() + 1, words.end(), w,
                             [](const std::string& a, std::string_view b) { return std::string_view(a) < b; });
  return it != words.end() && *it == w ? static_cast<uint32_t>(it - words.begin()) : kUnknown;
}

namespace {

struct Hash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Interns words in first-seen order; finish() renumbers them in byte order.
class Interner {
 public:
  uint32_t id(std::string_view w) {
    auto it = map_.find(w);
    if (it != map_.end()) {
      ++counts_[it->second];
      return it->second;
    }
    uint32_t id = static_cast<uint32_t>(words_.size());
    words_.emplace_back(w);
    counts_.push_back(1);
    map_.emplace(words_.back(), id);
    return id;
  }
  // Fills `v` and renumbers `ids` (first-seen ids) to the final ids.
  void finish(Vocab& v, std::vector<uint32_t>& ids) {
    std::vector<uint32_t> order(words_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return words_[a] < words_[b]; });
    std::vector<uint32_t> remap(words_.size());
    v.words.assign(1, std::string());
    v.counts.assign(1, 0);
    for (uint32_t k = 0; k < order.size(); ++k) {
      remap[order[k]] = k + 1;
      v.words.push_back(std::move(words_[order[k]]));
      v.counts.push_back(counts_[order[k]]);
    }
    for (uint32_t& x : ids) x = remap[x];
    map_.clear();
  }

 private:
  std::vector<std::string> words_;
  std::vector<uint64_t> counts_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> map_;
};

}  // namespace

CorpusIds load_corpus(corpus::BitextLines& in, const LoadOptions& opt,
                      const std::function<void(uint64_t, uint64_t)>& progress) {
  CorpusIds c;
  Interner si, ti;
  // Each row's tokens travel from the workers to the interner as
  // "KIND src tokens \t trg tokens \n" (tokens never hold a space or a tab);
  // KIND is 'p' (a pair), 'e' (an empty side), 'l' (too long), 'b' (bad row).
  auto fn = [&](RowInput& r, std::string& out) {
    char kind = r.bad ? 'b' : (r.src.empty() || r.trg.empty()) ? 'e'
                          : (opt.max_len && (r.src.size() > opt.max_len || r.trg.size() > opt.max_len)) ? 'l'
                                                                                                          : 'p';
    out.push_back(kind);
    if (kind == 'p') {
      for (const auto& t : r.src) out.append(" ").append(t);
      out.push_back('\t');
      for (const auto& t : r.trg) out.append(" ").append(t);
    }
    out.push_back('\n');
  };
  auto take = [&](std::string_view w) {
    size_t p = 0;
    while (p < w.size()) {
      size_t nl = w.find('\n', p);
      std::string_view line = w.substr(p, nl - p);
      p = nl + 1;
      uint64_t row = c.rows_in++;
      switch (line[0]) {
        case 'b': ++c.bad_skipped; continue;
        case 'e': ++c.empty_skipped; continue;
        case 'l': ++c.long_skipped; continue;
        default: break;
      }
      size_t tab = line.find('\t');
      auto add = [](std::string_view toks, Interner& in2, Side& side) {
        for (size_t q = 0; q < toks.size();) {  // each token follows one space
          size_t b = q + 1, e = toks.find(' ', b);
          if (e == std::string_view::npos) e = toks.size();
          side.ids.push_back(in2.id(toks.substr(b, e - b)));
          q = e;
        }
        side.start.push_back(side.ids.size());
      };
      add(line.substr(1, tab - 1), si, c.src);
      add(line.substr(tab + 1), ti, c.trg);
      c.row.push_back(row);
    }
  };
  map_rows(in, opt.rows, fn, take, progress);
  si.finish(c.src_vocab, c.src.ids);
  ti.finish(c.trg_vocab, c.trg.ids);
  return c;
}

}  // namespace align
