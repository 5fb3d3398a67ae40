#include "libcorpus/core/segment_rules.h"

#include <cstring>

#include "libcorpus/core/uchar.h"

namespace corpus {

namespace {

bool all_ascii_digits(std::string_view w) {
  if (w.empty()) return false;
  for (char ch : w)
    if (ch < '0' || ch > '9') return false;
  return true;
}

// "U.S", "z.B", "e.g", "т.е": letters in chunks of one or two, separated by
// full stops, at least one stop.
bool dotted_acronym(std::string_view w) {
  size_t i = 0, chunk = 0, dots = 0;
  while (i < w.size()) {
    size_t next;
    UChar32 c = uc::at(w, i, &next);
    if (c == '.') {
      if (chunk == 0) return false;
      chunk = 0;
      ++dots;
    } else if (u_isalpha(c)) {
      if (++chunk > 2) return false;
    } else {
      return false;
    }
    i = next;
  }
  return dots > 0 && chunk > 0;
}

// The word that ends at byte `end` (exclusive): back to white space, without
// leading opening punctuation.
std::string_view word_before(std::string_view s, size_t end) {
  size_t b = end;
  while (b > 0) {
    size_t st;
    UChar32 c = uc::before(s, b, &st);
    if (uc::is_space(c)) break;
    b = st;
  }
  while (b < end) {
    size_t nx;
    UChar32 c = uc::at(s, b, &nx);
    if (!uc::is_opener(c)) break;
    b = nx;
  }
  return s.substr(b, end - b);
}

// The word starting at byte b, without trailing punctuation.
std::string_view word_after(std::string_view s, size_t b) {
  size_t e = b;
  while (e < s.size()) {
    size_t nx;
    UChar32 c = uc::at(s, e, &nx);
    if (uc::is_space(c) || (u_ispunct(c) && c != '-')) break;
    e = nx;
  }
  return s.substr(b, e - b);
}

bool is_ascii_term(UChar32 c) { return c == '.' || c == '!' || c == '?'; }

}  // namespace

size_t move_past_spaced_closer(std::string_view s, size_t b) {
  size_t nx;
  UChar32 c = uc::at(s, b, &nx);
  const int8_t t = u_charType(c);
  const bool closing_only = c == ')' || c == ']' || t == U_END_PUNCTUATION || c == 0x00BB || c == 0x201D;
  if (!closing_only || b == 0 || !uc::is_space(uc::before(s, b))) return b;
  if (nx < s.size() && !uc::is_space(uc::at(s, nx))) return b;
  while (nx < s.size()) {
    size_t n2;
    if (!uc::is_space(uc::at(s, nx, &n2))) break;
    nx = n2;
  }
  return nx;
}

LanguageRules make_language_rules(std::string_view lang, const std::string& prefix_dir) {
  LanguageRules r;
  r.lang = base_language(lang);
  r.prefixes = prefix_table(r.lang, prefix_dir);
  r.space_rule = r.lang == "th" || r.lang == "lo" || r.lang == "km";
  return r;
}

bool keep_icu_boundary(std::string_view s, size_t b, const LanguageRules& r) {
  // Back over the white space and the closing quotes/brackets to the mark.
  size_t q = b;
  while (q > 0) {
    size_t st;
    if (!uc::is_space(uc::before(s, q, &st))) break;
    q = st;
  }
  const bool spaced = q < b;
  size_t t_end = q;
  bool closed = false;
  while (t_end > 0) {
    size_t st;
    if (!uc::is_closer(uc::before(s, t_end, &st))) break;
    t_end = st;
    closed = true;
  }
  if (t_end == 0) return true;
  size_t ts;
  const UChar32 t = uc::before(s, t_end, &ts);
  const UChar32 next = uc::at(s, b);

  // Inside a token (URL, e-mail, "What?no", "end.Next"): a Latin mark needs a
  // space after it, unless CJK text follows.
  if (!spaced && is_ascii_term(t) && !uc::is_cjk(next)) return false;

  // Japanese quotative: 「…？」と言った, 。」って.
  if (!spaced && closed && r.lang == "ja") {
    UErrorCode e = U_ZERO_ERROR;
    if (uscript_getScript(next, &e) == USCRIPT_HIRAGANA) return false;
  }

  // "?" or "!" before a lower-case word continues the sentence.
  if ((t == '!' || t == '?') && u_islower(next)) return false;

  if (t != '.' || closed) return true;
  if (ts > 0 && s[ts - 1] == '.') return true;  // "..." keeps ICU's decision

  std::string_view w = word_before(s, ts);
  if (w.empty()) return true;
  const PrefixTable& p = *r.prefixes;
  const std::string word(w);
  if (p.ends.count(word)) return true;
  if (p.always.count(word)) return false;
  size_t after_first;
  UChar32 first = uc::at(w, 0, &after_first);
  if (u_isupper(first) && after_first < w.size()) {  // "Проф." at the start of a sentence: try "проф"
    std::string lower;
    char buf[4];
    int32_t n = 0;
    UBool err = false;
    UChar32 lc = u_tolower(first);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
    U8_APPEND(reinterpret_cast<uint8_t*>(buf), n, 4, lc, err);
#pragma GCC diagnostic pop
    lower.assign(buf, static_cast<size_t>(n));
    lower.append(w.substr(after_first));
    if (!err && p.always.count(lower)) return false;
  }
  if (after_first == w.size() && u_isupper(first)) return false;  // an initial: "J. R. R. Tolkien"
  if (dotted_acronym(w)) return false;
  if (u_isdigit(next) && p.numeric.count(word)) return false;
  // Ordinals: "am 3. Oktober", "im 19. Jahrhundert"; "bis 100. Mai" only before a month.
  if (p.ordinals && all_ascii_digits(w) &&
      ((w.size() <= 2 && u_isupper(next)) || (w.size() <= 3 && p.months.count(std::string(word_after(s, b))))))
    return false;
  return true;
}

void extra_boundaries(std::string_view s, const LanguageRules& r, std::vector<size_t>& out) {
  // "…" (E2 80 A6), Tibetan shad "།" (E0 BC 8D) and "༎" (E0 BC 8E).
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    const unsigned char c0 = static_cast<unsigned char>(s[i]);
    if (c0 != 0xE2 && c0 != 0xE0) continue;
    const bool ellipsis = c0 == 0xE2 && s[i + 1] == '\x80' && s[i + 2] == '\xA6';
    const bool shad = c0 == 0xE0 && s[i + 1] == '\xBC' && (s[i + 2] == '\x8D' || s[i + 2] == '\x8E');
    if (!ellipsis && !shad) continue;
    size_t j = i + 3;
    if (ellipsis) {
      while (j < s.size()) {
        size_t nx;
        if (!uc::is_closer(uc::at(s, j, &nx))) break;
        j = nx;
      }
    } else {
      while (j + 2 < s.size() && s[j] == '\xE0' && s[j + 1] == '\xBC' && (s[j + 2] == '\x8D' || s[j + 2] == '\x8E'))
        j += 3;
    }
    size_t k = j;
    while (k < s.size()) {
      size_t nx;
      if (!uc::is_space(uc::at(s, k, &nx))) break;
      k = nx;
    }
    if (k == j || k >= s.size()) continue;
    if (ellipsis) {
      size_t w = k;
      while (w < s.size()) {
        size_t nx;
        if (!uc::is_opener(uc::at(s, w, &nx))) break;
        w = nx;
      }
      if (w >= s.size() || !u_isupper(uc::at(s, w))) continue;
    }
    out.push_back(k);
  }
  if (r.space_rule) {
    // A run of spaces between two letters of Thai, Lao or Khmer.
    auto in_script = [](UChar32 c) {
      UErrorCode e = U_ZERO_ERROR;
      UScriptCode sc = uscript_getScript(c, &e);
      return sc == USCRIPT_THAI || sc == USCRIPT_LAO || sc == USCRIPT_KHMER;
    };
    size_t i = 0;
    while (i < s.size()) {
      if (s[i] != ' ') {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < s.size() && s[j] == ' ') ++j;
      if (i > 0 && j < s.size() && in_script(uc::before(s, i)) && in_script(uc::at(s, j))) out.push_back(j);
      i = j;
    }
  }
}

}  // namespace corpus
