#include "filter/rules.h"

#include <fmt/format.h>
#include <unicode/uscript.h>

#include <algorithm>
#include <cmath>

#include "filter/text_stats.h"
#include "libcorpus/core/digit_runs.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/split_fields.h"
#include "libcorpus/core/uchar.h"
#include "filter/alphabet.h"
#include "filter/debris.h"
#include "filter/length_table.h"
#include "filter/fasttext_lid.h"
#include "filter/lid.h"
#include "filter/lid_view.h"
#include "filter/spell.h"

namespace filter {

// Per-pair views computed once, on first use by a rule.
struct SidePair {
  std::string_view s, t;
  mutable std::optional<TextStats> ss, ts;
  const TextStats& src() const {
    if (!ss) ss = text_stats(s);
    return *ss;
  }
  const TextStats& trg() const {
    if (!ts) ts = text_stats(t);
    return *ts;
  }
  // The lid views (filter/lid_view.h), for lid and spell.
  mutable std::optional<std::pair<std::string, std::string>> views;
  const std::pair<std::string, std::string>& view() const {
    if (!views) {
      views.emplace();
      lid_views(s, t, views->first, views->second);
    }
    return *views;
  }
};

namespace {

std::string lower_ascii(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c | 0x20);
  return r;
}

std::vector<int> scripts_of(const std::string& lang) {
  if (lang.empty()) return {};
  std::vector<int> v = language_scripts(lang);
  if (v.empty())
    throw corpus::ConfigError("no script is known for language '" + lang + "' (rule script)",
                              "give an ISO 639 code with -s/-t, or leave the script rule out of --chain");
  return v;
}

double share(uint32_t part, uint32_t whole) { return whole ? static_cast<double>(part) / whole : 0.0; }

// A side is unbalanced when some bracket kind opens and closes a different
// number of times, or it holds an odd number of '"'. Translators add
// parentheses and quotes, so only a difference in balance counts.
bool unbalanced(std::string_view s) {
  int open[3] = {}, close[3] = {}, quotes = 0;
  for (char c : s) {
    switch (c) {
      case '(': ++open[0]; break;
      case ')': ++close[0]; break;
      case '[': ++open[1]; break;
      case ']': ++close[1]; break;
      case '{': ++open[2]; break;
      case '}': ++close[2]; break;
      case '"': ++quotes; break;
      default: break;
    }
  }
  return open[0] != close[0] || open[1] != close[1] || open[2] != close[2] || quotes % 2;
}

bool script_fails(const TextStats& st, const std::vector<int>& want) {
  if (st.letters < 3) return false;
  uint32_t in = 0;
  for (size_t k = 0; k < 8; ++k)
    if (std::find(want.begin(), want.end(), st.script_code[k]) != want.end()) in += st.script_letters[k];
  return in == 0;
}

// The words that say whether a side was translated: space-separated tokens
// that are letters only once surrounding punctuation is stripped and start
// with a small letter, lower-cased. Options (--quiet), placeholders (USER,
// FILE1), names (Ubuntu 'Precise Pangolin') and code share their spelling in
// every language and are left out.
void prose_words(std::string_view s, std::vector<std::string>& out) {
  out.clear();
  std::vector<std::string> w;
  size_t b = 0;
  while (b < s.size()) {
    size_t e = s.find(' ', b);
    if (e == std::string_view::npos) e = s.size();
    std::string_view tok = s.substr(b, e - b);
    b = e + 1;
    while (!tok.empty() && std::string_view(".,:;!?'\"()[]").find(tok.back()) != std::string_view::npos) tok.remove_suffix(1);
    while (!tok.empty() && std::string_view("'\"([").find(tok.front()) != std::string_view::npos) tok.remove_prefix(1);
    if (tok.size() < 2) continue;
    bool ascii = true, lower = true;
    for (char c : tok) {
      ascii = ascii && static_cast<unsigned char>(c) < 0x80;
      lower = lower && c >= 'a' && c <= 'z';
    }
    if (ascii) {  // the common case, without ICU
      if (lower) out.emplace_back(tok);
      continue;
    }
    TextStats st = text_stats(tok);
    if (st.letters != st.chars || st.upper > 0) continue;
    letter_words(tok, w);
    if (w.size() == 1) out.push_back(w[0]);
  }
}

bool untranslated(std::string_view s, std::string_view t, double thr) {
  // Per-thread word lists, whose storage is reused from row to row, and the
  // target's words sorted instead of hashed (a row has a few dozen): a hash
  // set's node per word was most of this rule's allocations.
  thread_local std::vector<std::string> sw, tw;
  prose_words(s, sw);
  if (sw.size() < 4) return false;
  prose_words(t, tw);
  std::sort(tw.begin(), tw.end());
  size_t hit = 0;
  for (const auto& w : sw) hit += std::binary_search(tw.begin(), tw.end(), w);
  return static_cast<double>(hit) >= thr * static_cast<double>(sw.size());
}

// Case-folded text without white space (letters_key keeps letters and digits
// only, which would call a translated "'Lenny'" / "« Lenny »" a copy).
std::string copy_key(std::string_view s) {
  std::string r;
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
      if (b == ' ') continue;
      r.push_back(b >= 'A' && b <= 'Z' ? static_cast<char>(b | 0x20) : static_cast<char>(b));
      continue;
    }
    size_t start = i;
    UChar32 c = corpus::uc::at(s, i, &i);
    if (corpus::uc::is_space(c)) continue;
    UChar32 l = u_tolower(c);
    if (l == c) r.append(s.substr(start, i - start));
    else append_utf8(l, r);
  }
  return r;
}

// copy_key(s) == copy_key(t) without building the keys, while both are
// ASCII: 0 differ, 1 equal (and not empty), 2 non-ASCII met (ask copy_key).
int ascii_copy_compare(std::string_view s, std::string_view t) {
  size_t i = 0, j = 0;
  bool any = false;
  for (;;) {
    while (i < s.size() && s[i] == ' ') ++i;
    while (j < t.size() && t[j] == ' ') ++j;
    if (i == s.size() || j == t.size()) return i == s.size() && j == t.size() && any ? 1 : 0;
    auto a = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(t[j]);
    if (a >= 0x80 || b >= 0x80) return 2;
    if (a >= 'A' && a <= 'Z') a |= 0x20;
    if (b >= 'A' && b <= 'Z') b |= 0x20;
    if (a != b) return 0;
    any = true;
    ++i;
    ++j;
  }
}


// The lid rule's fastText opinion (chosen on the package split's valid
// pairs, docs/clean.md): a side is in another language when the model's best
// label is another language with p >= kFastTextTop and the expected one gets
// p < kFastTextExpected. A side of one word is left alone: catalogue strings
// such as "Éxito" are Galician and Spanish alike, and the model is sure of
// one of them. English or the other side's language on a side under 10
// words is not evidence either, as for CLD2 (shared technical terms).
constexpr float kFastTextTop = 0.5f;
constexpr float kFastTextExpected = 0.02f;
constexpr uint32_t kFastTextMinWords = 2;
constexpr uint32_t kFastTextMinSpaceless = 4;  // letters, for scripts written without spaces

// `code` and `other` are language_code()s.
bool fasttext_other_language(const FastTextLid& m, std::string_view x, std::string_view code, std::string_view other,
                             const TextStats& st) {
  const bool spaceless = st.spaceless * 2 >= st.letters && st.letters > 0;
  if (spaceless ? st.spaceless < kFastTextMinSpaceless : st.words < kFastTextMinWords) return false;
  const std::vector<FastTextLid::Guess> g = m.predict(x);
  if (g.empty() || g.front().p < kFastTextTop || g.front().code == code) return false;
  float expected = 0;
  for (const auto& e : g)
    if (e.code == code) expected += e.p;
  if (expected >= kFastTextExpected) return false;
  const std::string_view top = g.front().code;
  return !(st.words < 10 && (top == "eng" || top == other));  // "eng": language_code("en")
}

}  // namespace

std::string_view primary_language(std::string_view code) {
  size_t p = code.find_first_of("-_");
  return p == std::string_view::npos ? code : code.substr(0, p);
}

std::vector<int> language_scripts(std::string_view code) {
  std::vector<int> v;
  UScriptCode codes[8];
  UErrorCode e = U_ZERO_ERROR;
  const int n = uscript_getCode(std::string(primary_language(code)).c_str(), codes, 8, &e);
  if (U_FAILURE(e) || n <= 0) return v;
  for (int i = 0; i < n; ++i) v.push_back(codes[i]);
  // Japanese is written in Han and both kanas; ICU names the combined code.
  if (std::find(v.begin(), v.end(), USCRIPT_JAPANESE) != v.end())
    for (int c : {USCRIPT_HAN, USCRIPT_HIRAGANA, USCRIPT_KATAKANA}) v.push_back(c);
  if (std::find(v.begin(), v.end(), USCRIPT_KOREAN) != v.end())
    for (int c : {USCRIPT_HAN, USCRIPT_HANGUL}) v.push_back(c);
  if (std::find(v.begin(), v.end(), USCRIPT_SIMPLIFIED_HAN) != v.end() ||
      std::find(v.begin(), v.end(), USCRIPT_TRADITIONAL_HAN) != v.end())
    v.push_back(USCRIPT_HAN);
  return v;
}

bool is_url_or_email(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty() || s.find(' ') != std::string_view::npos) return false;
  std::string l = lower_ascii(s);
  if (l.starts_with("http://") || l.starts_with("https://") || l.starts_with("ftp://") || l.starts_with("www."))
    return true;
  size_t at = l.find('@');
  return at != std::string::npos && at > 0 && l.find('.', at) != std::string::npos && l.find('.', at) + 1 < l.size();
}

RuleSet::RuleSet(const Chain& chain, std::string src_lang, std::string trg_lang, const FastTextLid* lid_model,
                 const SpellDictionaries* dictionaries)
    : chain_(chain), src_lang_(std::move(src_lang)), trg_lang_(std::move(trg_lang)), lid_model_(lid_model),
      dictionaries_(dictionaries) {
  for (const Rule& r : chain_.rules) {
    if (r.needs_langs() && (src_lang_.empty() || trg_lang_.empty()))
      throw corpus::ConfigError("rule " + r.name() + " needs both languages",
                                "give -s/--src-lang and -t/--trg-lang, or leave " + r.name() + " out of --chain");
    if (r.kind == RuleKind::kWordRatio) {
      const LengthNorm s = length_norm(src_lang_), t = length_norm(trg_lang_);
      expected_log_words_ = t.log_words - s.log_words;
      expected_log_chars_ = t.log_chars - s.log_chars;
    }
    if (r.kind == RuleKind::kLid) {
      src_lid_ = std::make_shared<LanguageCheck>(src_lang_);
      trg_lid_ = std::make_shared<LanguageCheck>(trg_lang_);
      src_code_ = language_code(src_lang_);
      trg_code_ = language_code(trg_lang_);
    }
    if (r.kind == RuleKind::kSpell) {
      if (!dictionaries_) {
        own_dictionaries_ = std::make_shared<const SpellDictionaries>();
        dictionaries_ = own_dictionaries_.get();
      }
      const std::string langs = r.arg.empty() ? std::string(kSpellLanguages) : r.arg;  // outlives the views
      for (std::string_view l : corpus::split_fields(langs, '+')) spell_langs_.emplace_back(l);
    }
    if (r.kind == RuleKind::kAlphabet) {
      src_abc_ = std::make_shared<Alphabet>(src_lang_);
      trg_abc_ = std::make_shared<Alphabet>(trg_lang_);
    }
    if (r.kind == RuleKind::kScript) {
      src_scripts_ = scripts_of(src_lang_);
      trg_scripts_ = scripts_of(trg_lang_);
    }
    if (r.kind == RuleKind::kPatterns) {
      auto in = corpus::open_input(r.arg);
      corpus::LineReader lines(*in);
      std::string_view view;
      while (lines.next(view)) {
        std::string line(view);
        if (line.empty() || line[0] == '#') continue;
        try {
          patterns_.emplace_back(line, std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
        } catch (const std::regex_error& e) {
          throw corpus::ConfigError(fmt::format("bad regular expression '{}': {}", line, e.what()))
              .at(r.arg, lines.line_number());
        }
      }
    }
  }
}

bool RuleSet::fails(const Rule& r, std::string_view s, std::string_view t, const SidePair& p,
                    const PairScores& sc) const {
  switch (r.kind) {
    case RuleKind::kLen:
      return p.src().chars < r.a || p.src().chars > r.b || p.trg().chars < r.a || p.trg().chars > r.b;
    case RuleKind::kWords: {
      auto bad = [&](const TextStats& st) { return st.spaceless * 2 < st.letters && (st.words < r.a || st.words > r.b); };
      return bad(p.src()) || bad(p.trg());
    }
    case RuleKind::kRatio: {
      double a = p.src().ratio_length() + 5, b = p.trg().ratio_length() + 5;
      return std::max(a, b) > r.a * std::min(a, b);
    }
    case RuleKind::kWordRatio: {
      // A side cut short (or padded) changes its word count and its length
      // together; a German compound or a French article changes one of
      // them, and the expected ratios of the pair (filter/length_table)
      // take out what the languages differ by. A target longer than expected
      // has its own ratios (W2:C2): translators spell out terse sources
      // ("Weekly" / "Una vez a la semana"). Spaceless scripts are exempt.
      const TextStats &a = p.src(), &b = p.trg();
      if (a.spaceless * 2 >= a.letters && a.letters > 0) return false;
      if (b.spaceless * 2 >= b.letters && b.letters > 0) return false;
      const double w = std::log((b.words + kWordSmoothing) / (a.words + kWordSmoothing)) - expected_log_words_;
      const double c = std::log((b.chars + kCharSmoothing) / (a.chars + kCharSmoothing)) - expected_log_chars_;
      const double lw = std::log(r.a), lc = std::log(r.b);
      const double lw2 = std::log(r.c), lc2 = std::log(r.d);
      return (w >= lw2 && c >= lc2) || (w <= -lw && c <= -lc);
    }
    case RuleKind::kSame: {
      switch (ascii_copy_compare(s, t)) {
        case 0: return false;
        case 1: return true;
        default: break;
      }
      std::string ks = copy_key(s);
      return !ks.empty() && ks == copy_key(t);
    }
    case RuleKind::kUntranslated: return untranslated(s, t, r.a);
    case RuleKind::kAlpha:
      return share(p.src().letters, p.src().nonspace) < r.a || share(p.trg().letters, p.trg().nonspace) < r.a;
    case RuleKind::kDigits:
      return share(p.src().digits, p.src().nonspace) > r.a || share(p.trg().digits, p.trg().nonspace) > r.a;
    case RuleKind::kUrl: return is_url_or_email(s) || is_url_or_email(t);
    case RuleKind::kNumbers: {
      std::vector<std::string_view> ns, nt;
      corpus::digit_runs(s, ns);
      corpus::digit_runs(t, nt);
      // Translations spell numbers out ("ten digits" / "10 chiffres"): only
      // digits on both sides are compared.
      return !ns.empty() && !nt.empty() && ns != nt;
    }
    case RuleKind::kBrackets: return unbalanced(s) != unbalanced(t);
    case RuleKind::kPlaceholders: {
      std::vector<std::string> ps, pt;
      placeholders(s, ps);
      placeholders(t, pt);
      return ps != pt;
    }
    case RuleKind::kRepeat: {
      auto bad = [&](const TextStats& st) { return st.longest_word_run >= r.a || st.longest_char_run >= 3 * r.a; };
      return bad(p.src()) || bad(p.trg());
    }
    case RuleKind::kCaps: {
      auto bad = [&](const TextStats& st) { return st.letters >= 20 && share(st.upper, st.letters) > r.a; };
      return bad(p.src()) || bad(p.trg());
    }
    case RuleKind::kLid: {
      // CLD2 reliably calls many short technical sentences English (or the
      // other side's language, which shares their terms): such a guess on a
      // side of fewer than 10 words is not taken as evidence. Copies are
      // left to same and untranslated.
      // CLD2 judges the side's view (filter/lid_view.h: no names, options,
      // codes or syntax; chosen on the valid pairs, docs/clean.md); the
      // fastText model the whole side, which did better there.
      const auto& [sv, tv] = p.view();
      auto bad = [&](const LanguageCheck& lc, std::string_view x, const std::string& view, const std::string& other,
                     const TextStats& st, const std::string& code, const std::string& other_code) {
        const bool spaceless = st.spaceless * 2 >= st.letters && st.letters > 0;
        const std::string_view judged = spaceless ? x : std::string_view(view);
        std::string g = lc.guess(judged);
        if (g == "und" && r.arg == "short") g = lc.best_effort(judged);  // a short side CLD2 cannot call reliable
        if (g != "und" && g != primary_language(lc.language()) &&
            !(st.words < 10 && (g == "en" || g == primary_language(other))))
          return true;
        return lid_model_ != nullptr && fasttext_other_language(*lid_model_, x, code, other_code, st);
      };
      return bad(*src_lid_, s, sv, trg_lang_, p.src(), src_code_, trg_code_) ||
             bad(*trg_lid_, t, tv, src_lang_, p.trg(), trg_code_, src_code_);
    }
    case RuleKind::kSpell: {
      // The dictionaries judge the lid view too (filter/lid_view.h): names,
      // codes and copied terms are in the language of no dictionary. Chosen
      // on the valid pairs and a sample of the train pairs (docs/clean.md).
      if (p.src().words >= kSpellMaxWords && p.trg().words >= kSpellMaxWords) return false;
      const auto& [sv, tv] = p.view();
      return spell_other_language(*dictionaries_, sv, p.src().words, src_lang_, trg_lang_, spell_langs_) ||
             spell_other_language(*dictionaries_, tv, p.trg().words, trg_lang_, src_lang_, spell_langs_);
    }
    case RuleKind::kScript: return script_fails(p.src(), src_scripts_) || script_fails(p.trg(), trg_scripts_);
    case RuleKind::kAlphabet: return src_abc_->foreign_letters(s) > 0 || trg_abc_->foreign_letters(t) > 0;
    case RuleKind::kDebris: return has_debris(s) || has_debris(t);
    case RuleKind::kPatterns:
      for (const auto& re : patterns_)
        if (std::regex_search(s.begin(), s.end(), re) || std::regex_search(t.begin(), t.end(), re)) return true;
      return false;
    // A missing score (NaN: an empty side) fails its threshold.
    case RuleKind::kIbm1: return !(sc.ibm1 >= r.a);
    case RuleKind::kCos: return !(sc.cos >= r.a);
    case RuleKind::kOrder: return !(sc.order >= r.a);
    case RuleKind::kNmt: return !(sc.nmt >= r.a);
    case RuleKind::kScore: return !(sc.clean >= r.a);
    case RuleKind::kMultiway: return sc.languages >= r.a;
    case RuleKind::kDedup: case RuleKind::kMaxTrg: case RuleKind::kMaxSrc: return false;
  }
  return false;
}

int RuleSet::first_failure(std::string_view src, std::string_view trg, const PairScores& scores) const {
  SidePair p{src, trg, {}, {}, {}};
  for (size_t i = 0; i < chain_.rules.size(); ++i)
    if (fails(chain_.rules[i], src, trg, p, scores)) return static_cast<int>(i);
  return -1;
}

}  // namespace filter
