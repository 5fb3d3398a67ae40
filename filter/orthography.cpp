#include "filter/orthography.h"

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <vector>

#include "filter/rules.h"
#include "libcorpus/core/ascii.h"
#include "libcorpus/core/utf8.h"

namespace filter {

namespace {

// Letters drawn alike in the common fonts, as (Latin, Cyrillic) and
// (Latin, Greek) pairs. Cyrillic і, ј and ѕ are letters of some languages
// only (the constructor says which); as foreign letters in a Latin word
// they are always the Latin ones' twins.
constexpr int kLatinCyrillic[][2] = {
    {'A', 0x410}, {'B', 0x412}, {'C', 0x421}, {'E', 0x415}, {'H', 0x41D}, {'K', 0x41A}, {'M', 0x41C},
    {'O', 0x41E}, {'P', 0x420}, {'T', 0x422}, {'X', 0x425}, {'a', 0x430}, {'c', 0x441}, {'e', 0x435},
    {'o', 0x43E}, {'p', 0x440}, {'x', 0x445}, {'y', 0x443},
};
constexpr int kLatinCyrillicI[][2] = {{'I', 0x406}, {'i', 0x456}};
constexpr int kLatinCyrillicJ[][2] = {{'J', 0x408}, {'j', 0x458}};
constexpr int kLatinCyrillicDze[][2] = {{'S', 0x405}, {'s', 0x455}};
constexpr int kLatinGreek[][2] = {
    {'A', 0x391}, {'B', 0x392}, {'E', 0x395}, {'Z', 0x396}, {'H', 0x397}, {'I', 0x399}, {'K', 0x39A}, {'M', 0x39C},
    {'N', 0x39D}, {'O', 0x39F}, {'P', 0x3A1}, {'T', 0x3A4}, {'Y', 0x3A5}, {'X', 0x3A7}, {'o', 0x3BF},
};

template <size_t N>
int find_twin(const int (&table)[N][2], int cp, int from, int to) {
  for (const auto& p : table)
    if (p[from] == cp) return p[to];
  return 0;
}

// Part of a word: a letter or a combining mark.
bool word_char(int cp) {
  if (u_isalpha(cp)) return true;
  const int8_t t = u_charType(cp);
  return t == U_NON_SPACING_MARK || t == U_COMBINING_SPACING_MARK;
}

std::vector<int> decode(std::string_view s) {
  std::vector<int> cps;
  cps.reserve(s.size());
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const auto n = static_cast<int32_t>(s.size());
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(p, i, n, c);
    cps.push_back(c < 0 ? 0xFFFD : c);
  }
  return cps;
}

bool is_l(int cp) { return cp == 'l' || cp == 'L'; }
// What stands between the two l's of an ela geminada when the middle dot
// (U+00B7) was not at hand: a full stop, a bullet, a bullet or dot operator.
bool is_ela_dot(int cp) { return cp == '.' || cp == 0x2022 || cp == 0x2219 || cp == 0x22C5; }

}  // namespace

Orthography::Orthography(std::string_view lang) {
  const std::string code = corpus::ascii_lower(primary_language(lang));
  if (code.empty()) return;
  active_ = true;
  ro_ = code == "ro" || code == "mo";
  ca_ = code == "ca";
  nl_ = code == "nl";
  for (const char* l : {"uk", "be", "kk", "rue", "ky"}) cyr_i_ |= code == l;
  cyr_j_ = code == "sr" || code == "mk";
  cyr_dze_ = code == "mk";
  // The language's one script of the three; with two of them (Serbian in
  // ICU's data, say) a word's majority decides.
  int found = 0;
  for (const int c : language_scripts(code)) {
    const Script sc = c == USCRIPT_LATIN      ? Script::kLatin
                      : c == USCRIPT_CYRILLIC ? Script::kCyrillic
                      : c == USCRIPT_GREEK    ? Script::kGreek
                                              : Script::kNone;
    if (sc == Script::kNone) continue;
    script_ = sc;
    ++found;
  }
  if (found != 1) script_ = Script::kNone;
}

Orthography::Script Orthography::script_of(int cp) {
  UErrorCode e = U_ZERO_ERROR;
  switch (uscript_getScript(cp, &e)) {
    case USCRIPT_LATIN: return Script::kLatin;
    case USCRIPT_CYRILLIC: return Script::kCyrillic;
    case USCRIPT_GREEK: return Script::kGreek;
    default: return Script::kNone;
  }
}

// `cp`'s twin in script `to`, or 0.
int Orthography::twin(int cp, Script to) const {
  const Script from = script_of(cp);
  int t = 0;
  if (to == Script::kCyrillic && from == Script::kLatin) {
    t = find_twin(kLatinCyrillic, cp, 0, 1);
    if (!t && cyr_i_) t = find_twin(kLatinCyrillicI, cp, 0, 1);
    if (!t && cyr_j_) t = find_twin(kLatinCyrillicJ, cp, 0, 1);
    if (!t && cyr_dze_) t = find_twin(kLatinCyrillicDze, cp, 0, 1);
  } else if (to == Script::kLatin && from == Script::kCyrillic) {
    t = find_twin(kLatinCyrillic, cp, 1, 0);
    if (!t) t = find_twin(kLatinCyrillicI, cp, 1, 0);
    if (!t) t = find_twin(kLatinCyrillicJ, cp, 1, 0);
    if (!t) t = find_twin(kLatinCyrillicDze, cp, 1, 0);
  } else if (to == Script::kGreek && from == Script::kLatin) {
    t = find_twin(kLatinGreek, cp, 0, 1);
  } else if (to == Script::kLatin && from == Script::kGreek) {
    t = find_twin(kLatinGreek, cp, 1, 0);
  }
  return t;
}

// Whether the letters of cps[b, e) not in script `to` look like typing
// slips rather than a code glued to the word: each has a twin in `to`; at
// either end of the word a foreign run is one letter, a lowercase one
// before an uppercase letter is an option or a format letter ("-cОЗНАКА",
// "pБФВ"), and one at the end has the case of the letter before it
// ("ПРЕФИКСaa" names a literal suffix; "Москвa" is a slip).
bool Orthography::typing_slips(const std::vector<int>& cps, size_t b, size_t e, Script to) const {
  auto foreign = [&](size_t i) {
    const Script sc = script_of(cps[i]);
    return sc != Script::kNone && sc != to;
  };
  for (size_t i = b; i < e;) {
    if (!foreign(i)) {
      ++i;
      continue;
    }
    size_t j = i;
    for (; j < e && (foreign(j) || !u_isalpha(cps[j])); ++j)
      if (foreign(j) && !twin(cps[j], to)) return false;
    const bool at_start = i == b, at_end = j == e;
    if (at_start && at_end) return false;  // no letter of the word's own script
    if ((at_start || at_end) && j - i > 1) return false;
    if (at_start && u_islower(cps[i]) && u_isupper(cps[j])) return false;
    if (at_end && i > b && u_islower(cps[i]) != u_islower(cps[i - 1])) return false;
    i = j;
  }
  return true;
}

bool Orthography::apply(std::string& s) const {
  if (!active_) return false;
  // One pass over the bytes says which repairs can change the text (most
  // text needs none: a Latin text without Greek or Cyrillic letters has no
  // lookalike to repair), so that the code points are decoded only then.
  bool greek_cyrillic = false;  // lead bytes of U+0340-U+053F; a loop without exit, which vectorises
  for (char ch : s) greek_cyrillic |= static_cast<unsigned char>(static_cast<unsigned char>(ch) - 0xCD) < 8;
  const bool lookalike = greek_cyrillic && std::any_of(s.begin(), s.end(), corpus::is_ascii_alpha);
  bool letters = false;  // a letter that ro, nl or ca repairs
  if (ro_ || nl_ || ca_) {
    unsigned char prev = 0;
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      letters |= ro_ && prev == 0xC5 && (c == 0x9E || c == 0x9F || c == 0xA2 || c == 0xA3);
      letters |= nl_ && prev == 0xC4 && (c == 0xB2 || c == 0xB3);
      letters |= ca_ && ((prev == 0xC5 && c == 0x80) || (prev == 0xC4 && c == 0xBF) || (is_l(prev) && (c == '.' || c == 0xE2)));
      prev = c;
    }
  }
  if (!lookalike && !letters) return false;
  std::vector<int> cps = decode(s);
  bool changed = false;
  auto set = [&](size_t i, int cp) {
    if (cps[i] != cp) {
      cps[i] = cp;
      changed = true;
    }
  };
  if (ro_)
    for (size_t i = 0; i < cps.size(); ++i) {
      if (cps[i] == 0x15E) set(i, 0x218);  // Ş -> Ș
      if (cps[i] == 0x15F) set(i, 0x219);  // ş -> ș
      if (cps[i] == 0x162) set(i, 0x21A);  // Ţ -> Ț
      if (cps[i] == 0x163) set(i, 0x21B);  // ţ -> ț
    }
  if (nl_ || ca_) {
    std::vector<int> out;
    out.reserve(cps.size() + 4);
    for (int c : cps) {
      if (nl_ && (c == 0x132 || c == 0x133)) {  // Ĳ ĳ
        out.push_back(c == 0x132 ? 'I' : 'i');
        out.push_back(c == 0x132 ? 'J' : 'j');
      } else if (ca_ && (c == 0x13F || c == 0x140)) {  // Ŀ ŀ: the letter and the dot in one code point
        out.push_back(c == 0x13F ? 'L' : 'l');
        out.push_back(0xB7);
      } else {
        out.push_back(c);
      }
    }
    if (out.size() != cps.size()) {
      cps.swap(out);
      changed = true;
    }
  }
  if (ca_)  // letter, l, dot, l, letter: "col.lecció", "intel•ligent"
    for (size_t i = 1; i + 3 < cps.size(); ++i)
      if (is_l(cps[i]) && is_ela_dot(cps[i + 1]) && is_l(cps[i + 2]) && u_isalpha(cps[i - 1]) && u_isalpha(cps[i + 3]))
        set(i + 1, 0xB7);

  // Lookalikes, word by word; also where the repairs above wrote the first
  // ASCII letters next to Greek or Cyrillic ones ("ĳо" is now "ijо").
  const bool any_lookalike = lookalike || (greek_cyrillic && changed);
  for (size_t b = 0; any_lookalike && b < cps.size();) {
    if (!word_char(cps[b])) {
      ++b;
      continue;
    }
    size_t e = b;
    int count[4] = {};  // by Script
    bool other = false;  // a letter of a fourth script
    for (; e < cps.size() && word_char(cps[e]); ++e) {
      if (!u_isalpha(cps[e])) continue;
      const Script sc = script_of(cps[e]);
      if (sc == Script::kNone) {
        UErrorCode err = U_ZERO_ERROR;
        const UScriptCode raw = uscript_getScript(cps[e], &err);
        other |= raw != USCRIPT_COMMON && raw != USCRIPT_INHERITED;
      }
      ++count[static_cast<int>(sc)];
    }
    const int lat = count[1], cyr = count[2], gre = count[3];
    Script to = script_;
    if (to == Script::kNone) {  // the word's strict majority
      if (lat > cyr + gre) to = Script::kLatin;
      else if (cyr > lat + gre) to = Script::kCyrillic;
      else if (gre > lat + cyr) to = Script::kGreek;
    }
    const int own = to == Script::kLatin ? lat : to == Script::kCyrillic ? cyr : to == Script::kGreek ? gre : 0;
    const int foreign = lat + cyr + gre - own;
    // The language's script must hold at least as many of the word's
    // letters as the others (more, where the word's majority chose it).
    const bool mostly = script_ == Script::kNone ? own > foreign : own >= foreign;
    // After an escape, a format directive or a number ("\xНН", "%cпрограм",
    // "0xАДРЕСА") the foreign letters belong to the code before the word.
    const bool after_code = b > 0 && (cps[b - 1] == '\\' || cps[b - 1] == '%' || cps[b - 1] == '$' || u_isdigit(cps[b - 1]));
    if (!other && !after_code && own > 0 && foreign > 0 && mostly && typing_slips(cps, b, e, to)) {
      for (size_t i = b; i < e; ++i) {
        const Script sc = script_of(cps[i]);
        if (sc != Script::kNone && sc != to) set(i, twin(cps[i], to));
      }
    }
    b = e;
  }
  if (!changed) return false;
  std::string r;
  r.reserve(s.size() + 8);
  for (int c : cps) corpus::append_utf8(r, static_cast<char32_t>(c));
  s.swap(r);
  return true;
}

}  // namespace filter
