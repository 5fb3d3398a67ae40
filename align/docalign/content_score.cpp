#include "align/docalign/content_score.h"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "align/ibm1_apply.h"
#include "align/tokenize.h"

namespace align {
namespace {

using Range = oneapi::tbb::blocked_range<size_t>;

// The k best of one source row (score descending, then target index), appended.
void keep_best(uint32_t src, std::vector<std::pair<double, uint32_t>>& row, size_t k, std::vector<DocCandidate>& out) {
  auto better = [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
  const size_t n = std::min(k, row.size());
  std::partial_sort(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(n), row.end(), better);
  for (size_t i = 0; i < n; ++i) out.push_back({row[i].first, src, row[i].second});
}

// Per-row results joined in row order: the same list for any thread count.
std::vector<DocCandidate> join(std::vector<std::vector<DocCandidate>>& rows) {
  std::vector<DocCandidate> out;
  for (auto& r : rows) out.insert(out.end(), r.begin(), r.end());
  return out;
}

bool has_alnum(std::string_view t) {
  for (unsigned char c : t)
    if (c >= 0x80 || std::isalnum(c)) return true;
  return false;
}

// Four independent sums in a fixed order: the same bits on every run and
// thread count, without one add's latency per element.
double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s[4] = {0, 0, 0, 0};
  const size_t n = a.size(), n4 = n - n % 4;
  for (size_t x = 0; x < n4; x += 4)
    for (size_t u = 0; u < 4; ++u) s[u] += a[x + u] * b[x + u];
  for (size_t x = n4; x < n; ++x) s[0] += a[x] * b[x];
  return (s[0] + s[1]) + (s[2] + s[3]);
}

struct Bag {
  std::vector<std::pair<uint32_t, double>> terms;  // term id ascending, weight
};

}  // namespace

std::vector<DocCandidate> tfidf_candidates(const std::vector<const DocRecord*>& src,
                                           const std::vector<const DocRecord*>& trg, const Ibm1Model* model,
                                           size_t k) {
  const size_t ns = src.size(), nt = trg.size(), n = ns + nt;
  const TokenizerOptions topt = model ? model->tokenizer() : TokenizerOptions{TokenMode::kIcu, true};
  std::unique_ptr<WordTranslator> tr;
  if (model) tr = std::make_unique<WordTranslator>(*model, false);

  // Words of every document in the target language's space: source
  // documents translated, target documents as they are.
  std::vector<std::vector<std::string>> words(n);
  oneapi::tbb::enumerable_thread_specific<Tokenizer> toks([&] { return Tokenizer(topt); });
  oneapi::tbb::parallel_for(Range(0, n, 1), [&](const Range& r) {
    Tokenizer& tk = toks.local();
    std::vector<std::string> t;
    std::string line;
    for (size_t d = r.begin(); d != r.end(); ++d) {
      const bool is_src = d < ns;
      const DocRecord& doc = is_src ? *src[d] : *trg[d - ns];
      for (const std::string& s : doc.sentences) {
        t.clear();
        tk.tokenize(s, t);
        if (is_src && tr) {
          line.clear();
          tr->translate(t, line);  // the source words stay too: names and commands match as they are
          for (size_t p = 0; p < line.size();) {
            size_t sp = line.find(' ', p);
            if (sp == std::string::npos) sp = line.size();
            if (sp > p) t.emplace_back(line, p, sp - p);
            p = sp + 1;
          }
        }
        for (std::string& w : t)
          if (has_alnum(w)) words[d].push_back(std::move(w));
      }
    }
  });

  // Term ids in document order (deterministic), counts and document frequencies.
  std::unordered_map<std::string, uint32_t> ids;
  std::vector<uint32_t> df;
  std::vector<Bag> bags(n);
  for (size_t d = 0; d < n; ++d) {
    std::vector<uint32_t> v;
    v.reserve(words[d].size());
    for (const std::string& w : words[d]) {
      auto [it, fresh] = ids.try_emplace(w, static_cast<uint32_t>(ids.size()));
      if (fresh) df.push_back(0);
      v.push_back(it->second);
    }
    std::vector<std::string>().swap(words[d]);
    std::sort(v.begin(), v.end());
    for (size_t i = 0; i < v.size();) {
      size_t j = i;
      while (j < v.size() && v[j] == v[i]) ++j;
      bags[d].terms.push_back({v[i], static_cast<double>(j - i)});
      ++df[v[i]];
      i = j;
    }
  }
  for (Bag& b : bags) {
    double norm = 0;
    for (auto& [t, w] : b.terms) {
      w = (1 + std::log(w)) * std::log((n + 1.0) / df[t]);
      norm += w * w;
    }
    norm = std::sqrt(norm);
    for (auto& tw : b.terms) tw.second = norm > 0 ? tw.second / norm : 0;
  }

  // Postings of the target documents; each source row accumulates over them.
  std::vector<std::vector<std::pair<uint32_t, double>>> post(df.size());
  for (size_t j = 0; j < nt; ++j)
    for (const auto& [t, w] : bags[ns + j].terms) post[t].push_back({static_cast<uint32_t>(j), w});

  std::vector<std::vector<DocCandidate>> rows(ns);
  oneapi::tbb::enumerable_thread_specific<std::vector<double>> accs([&] { return std::vector<double>(nt, 0.0); });
  oneapi::tbb::parallel_for(Range(0, ns, 1), [&](const Range& r) {
    std::vector<double>& acc = accs.local();
    std::vector<uint32_t> touched;
    std::vector<std::pair<double, uint32_t>> row;
    for (size_t i = r.begin(); i != r.end(); ++i) {
      touched.clear();
      for (const auto& [t, w] : bags[i].terms)
        for (const auto& [j, v] : post[t]) {
          if (acc[j] == 0) touched.push_back(j);
          acc[j] += w * v;
        }
      row.clear();
      for (uint32_t j : touched) {
        row.push_back({acc[j], j});
        acc[j] = 0;
      }
      keep_best(static_cast<uint32_t>(i), row, k, rows[i]);
    }
  });
  return join(rows);
}

std::vector<DocCandidate> embed_candidates(const std::vector<const DocRecord*>& src,
                                           const std::vector<const DocRecord*>& trg, const SentenceEncoder& enc,
                                           size_t k) {
  const size_t dim = enc.dim(), ns = src.size(), nt = trg.size();
  constexpr size_t kChunk = 256;  // sentences per encode call: bounds the buffer for long documents
  std::vector<std::vector<double>> vec(ns + nt, std::vector<double>(dim, 0.0));
  oneapi::tbb::parallel_for(Range(0, ns + nt, 1), [&](const Range& r) {
    std::vector<float> buf;
    std::vector<std::string_view> sv;
    for (size_t d = r.begin(); d != r.end(); ++d) {
      const bool is_src = d < ns;
      const DocRecord& doc = is_src ? *src[d] : *trg[d - ns];
      for (size_t b = 0; b < doc.sentences.size(); b += kChunk) {
        const size_t e = std::min(doc.sentences.size(), b + kChunk);
        sv.assign(doc.sentences.begin() + static_cast<std::ptrdiff_t>(b),
                  doc.sentences.begin() + static_cast<std::ptrdiff_t>(e));
        buf.assign(sv.size() * dim, 0.f);
        enc.encode(sv, is_src ? SentenceEncoder::Side::kSource : SentenceEncoder::Side::kTarget, buf);
        for (size_t s = 0; s < sv.size(); ++s)
          for (size_t x = 0; x < dim; ++x) vec[d][x] += buf[s * dim + x];
      }
      for (double& x : vec[d]) x /= static_cast<double>(doc.sentences.size());
    }
  });
  // Centre each side (with three documents or more: fewer have no common
  // direction to remove), then normalise.
  auto centre = [&](size_t b, size_t e) {
    if (e - b < 3) return;
    std::vector<double> mean(dim, 0.0);
    for (size_t d = b; d < e; ++d)
      for (size_t x = 0; x < dim; ++x) mean[x] += vec[d][x];
    for (size_t d = b; d < e; ++d)
      for (size_t x = 0; x < dim; ++x) vec[d][x] -= mean[x] / static_cast<double>(e - b);
  };
  centre(0, ns);
  centre(ns, ns + nt);
  for (auto& v : vec) {
    double nn = 0;
    for (double x : v) nn += x * x;
    nn = std::sqrt(nn);
    if (nn > 0)
      for (double& x : v) x /= nn;
  }
  std::vector<std::vector<DocCandidate>> rows(ns);
  oneapi::tbb::parallel_for(Range(0, ns, 1), [&](const Range& r) {
    std::vector<std::pair<double, uint32_t>> row;
    for (size_t i = r.begin(); i != r.end(); ++i) {
      row.clear();
      for (size_t j = 0; j < nt; ++j) row.push_back({dot(vec[i], vec[ns + j]), static_cast<uint32_t>(j)});
      keep_best(static_cast<uint32_t>(i), row, k, rows[i]);
    }
  });
  return join(rows);
}

}  // namespace align
