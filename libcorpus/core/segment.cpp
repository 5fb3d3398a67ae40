#include "libcorpus/core/segment.h"

#include <algorithm>
#include <map>
#include <mutex>

#include <unicode/brkiter.h>
#include <unicode/utext.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/segment_rules.h"
#include "libcorpus/core/uchar.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

namespace {

// One prototype iterator per language, shared; every Segmenter clones its own
// (ICU iterators are not thread-safe).
std::unique_ptr<icu::BreakIterator> clone_sentence_iterator(const std::string& lang) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<icu::BreakIterator>> protos;
  std::lock_guard lock(mu);
  auto& proto = protos[lang];
  if (!proto) {
    UErrorCode st = U_ZERO_ERROR;
    proto.reset(icu::BreakIterator::createSentenceInstance(icu::Locale(lang.empty() ? "root" : lang.c_str()), st));
    if (U_FAILURE(st) || !proto) throw Error(std::string("ICU cannot make a sentence iterator: ") + u_errorName(st));
  }
  return std::unique_ptr<icu::BreakIterator>(proto->clone());
}

bool clause_mark(UChar32 c) {
  return c == ',' || c == ';' || c == ':' || c == 0x3001 || c == 0xFF0C || c == 0xFF1B || c == 0xFF1A ||
         c == 0x060C || c == 0x061B;
}

}  // namespace

size_t safe_cut(std::string_view s, size_t limit) {
  if (limit >= s.size()) return s.size();
  if (limit == 0) limit = 1;
  // A character boundary at or below limit.
  size_t cut = utf8_cut_at_or_before(s, limit);
  const size_t lo = cut / 2;
  size_t space = 0, clause_space = 0, clause = 0;
  for (size_t i = cut; i > lo;) {
    size_t st;
    UChar32 c = uc::before(s, i, &st);
    if (uc::is_space(c)) {
      if (!space) space = i;
      if (!clause_space && st > 0 && clause_mark(uc::before(s, st))) clause_space = i;
    } else if (!clause && clause_mark(c)) {
      clause = i;
    }
    if (clause_space) break;
    i = st;
  }
  if (clause_space) return clause_space;
  if (space) return space;
  if (clause) return clause;
  // Do not separate a combining mark (or ZWJ, variation selector) from its base.
  size_t c2 = cut;
  while (c2 > lo && uc::is_mark(uc::at(s, c2))) uc::before(s, c2, &c2);
  if (c2 > 0 && !uc::is_mark(uc::at(s, c2))) return c2;
  return cut > 0 ? cut : std::min(s.size(), size_t{4});
}

struct Segmenter::Impl {
  struct Lang {
    LanguageRules rules;
    std::unique_ptr<icu::BreakIterator> it;
  };
  std::map<std::string, Lang, std::less<>> langs;
  UText ut = UTEXT_INITIALIZER;
  std::vector<size_t> cuts;
  std::vector<Span> spans;

  ~Impl() { utext_close(&ut); }

  Lang& lang(std::string_view tag, const std::string& dir) {
    std::string base = base_language(tag);
    if (base == "und" || base == "zxx" || base == "mul") base.clear();
    auto it = langs.find(base);
    if (it != langs.end()) return it->second;
    Lang l{make_language_rules(base, dir), clone_sentence_iterator(base)};
    return langs.emplace(base, std::move(l)).first->second;
  }
};

Segmenter::Segmenter(SegmentOptions o) : opt_(std::move(o)), impl_(std::make_unique<Impl>()) {}
Segmenter::~Segmenter() = default;

std::vector<std::string> Segmenter::split(std::string_view para, std::string_view lang) {
  std::vector<Span> spans;
  split(para, lang, spans);
  std::vector<std::string> out;
  out.reserve(spans.size());
  for (const Span& s : spans) out.emplace_back(para.substr(s.begin, s.size()));
  return out;
}

void Segmenter::split(std::string_view para, std::string_view lang, std::vector<Span>& out) {
  Impl& m = *impl_;
  Impl::Lang& L = m.lang(lang, opt_.prefix_dir);
  const size_t window = std::max(kSegmentWindow, 4 * opt_.max_bytes);
  const size_t guard = 4096;  // boundaries this close to a window's end wait for the next window
  const size_t first_out = out.size();

  size_t pos = 0;
  while (pos < para.size()) {
    size_t end = para.size();
    const bool last_window = para.size() - pos <= window;
    if (!last_window) {
      end = utf8_cut_at_or_before(para, pos + window);
    }
    std::string_view v = para.substr(pos, end - pos);

    // Candidate boundaries: ICU's, corrected, plus the extra ones.
    m.cuts.clear();
    UErrorCode st = U_ZERO_ERROR;
    utext_openUTF8(&m.ut, v.data(), static_cast<int64_t>(v.size()), &st);
    L.it->setText(&m.ut, st);
    if (U_FAILURE(st)) throw Error(std::string("ICU cannot segment the text: ") + u_errorName(st));
    for (int32_t b = L.it->next(); b != icu::BreakIterator::DONE; b = L.it->next()) {
      auto ub = static_cast<size_t>(b);
      if (ub >= v.size()) break;
      if (opt_.icu_only) {
        m.cuts.push_back(ub);
      } else if (keep_icu_boundary(v, ub, L.rules)) {
        ub = move_past_spaced_closer(v, ub);
        if (ub < v.size()) m.cuts.push_back(ub);
      }
    }
    if (!opt_.icu_only) {
      const size_t n_icu = m.cuts.size();
      extra_boundaries(v, L.rules, m.cuts);
      if (m.cuts.size() > n_icu) {
        std::sort(m.cuts.begin(), m.cuts.end());
        m.cuts.erase(std::unique(m.cuts.begin(), m.cuts.end()), m.cuts.end());
      }
    }
    size_t stop = v.size();  // bytes of v consumed in this round
    if (!last_window) {
      while (!m.cuts.empty() && m.cuts.back() + guard > v.size()) m.cuts.pop_back();
      stop = m.cuts.empty() ? safe_cut(v, v.size() - guard) : m.cuts.back();
      if (!m.cuts.empty()) m.cuts.pop_back();
    }
    m.cuts.push_back(stop);

    // Segments, trimmed of white space.
    size_t from = 0;
    for (size_t c : m.cuts) {
      size_t b = from, e = c;
      while (b < e) {
        size_t nx;
        if (!uc::is_space(uc::at(v, b, &nx))) break;
        b = nx;
      }
      while (e > b) {
        size_t stt;
        if (!uc::is_space(uc::before(v, e, &stt))) break;
        e = stt;
      }
      if (e > b) out.push_back({pos + b, pos + e});
      from = c;
    }
    pos += stop;
  }

  // Minimum length: join a short sentence to the next one (the last to the one before).
  if (opt_.min_bytes > 0 && out.size() - first_out > 1) {
    size_t w = first_out;
    for (size_t r = first_out; r < out.size(); ++r) {
      if (w > first_out && out[w - 1].size() < opt_.min_bytes) {
        out[w - 1].end = out[r].end;
      } else {
        out[w++] = out[r];
      }
    }
    out.resize(w);
    if (out.size() - first_out > 1 && out.back().size() < opt_.min_bytes) {
      out[out.size() - 2].end = out.back().end;
      out.pop_back();
    }
  }

  // Maximum length: cut at safe points.
  if (opt_.max_bytes > 0) {
    bool any = false;
    for (size_t i = first_out; i < out.size() && !any; ++i) any = out[i].size() > opt_.max_bytes;
    if (any) {
      m.spans.assign(out.begin() + static_cast<std::ptrdiff_t>(first_out), out.end());
      out.resize(first_out);
      for (Span s : m.spans) {
        while (s.size() > opt_.max_bytes) {
          std::string_view t = para.substr(s.begin, s.size());
          size_t c = safe_cut(t, opt_.max_bytes);
          size_t e = c;
          while (e > 0) {
            size_t stt;
            if (!uc::is_space(uc::before(t, e, &stt))) break;
            e = stt;
          }
          if (e > 0) out.push_back({s.begin, s.begin + e});
          size_t b = c;
          while (b < t.size()) {
            size_t nx;
            if (!uc::is_space(uc::at(t, b, &nx))) break;
            b = nx;
          }
          s.begin += b;
        }
        if (s.size() > 0) out.push_back(s);
      }
    }
  }
}

}  // namespace corpus
