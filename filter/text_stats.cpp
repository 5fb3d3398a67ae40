#include "filter/text_stats.h"

#include <algorithm>
#include <array>

#include "libcorpus/core/placeholders.h"
#include "libcorpus/core/uchar.h"

namespace filter {

namespace {

bool ascii_letter(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

bool spaceless_script(UScriptCode sc) {
  switch (sc) {
    case USCRIPT_HAN: case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA: case USCRIPT_THAI: case USCRIPT_LAO:
    case USCRIPT_KHMER: case USCRIPT_MYANMAR: case USCRIPT_TIBETAN: case USCRIPT_YI:
      return true;
    default: return false;
  }
}

// corpus::uc::is_space for a non-ASCII code point, without asking ICU for the
// many that cannot be white space: Unicode's White_Space outside ASCII is
// U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F and
// U+3000 (is_space adds U+FEFF).
bool stats_is_space(UChar32 c) {
  const bool maybe = c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x205F) || c == 0x3000 || c == 0xFEFF;
  return maybe && corpus::uc::is_space(c);
}

}  // namespace

void append_utf8(int32_t c, std::string& out) {
  char buf[4];
  int32_t n = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuseless-cast"
#endif
  U8_APPEND_UNSAFE(buf, n, c);
#pragma GCC diagnostic pop
  out.append(buf, static_cast<size_t>(n));
}

TextStats text_stats(std::string_view s) {
  TextStats st;
  // Letters per script: a few common ones by slot, the rest summed in "other".
  std::array<uint32_t, 8> per{};
  std::array<int, 8> code{};
  code.fill(-2);
  UChar32 prev = -1;
  uint32_t run = 0;
  bool in_word = false;
  std::string_view word, prev_word;
  size_t word_start = 0;
  uint32_t wrun = 0;
  auto end_word = [&](size_t end) {
    if (!in_word) return;
    in_word = false;
    word = s.substr(word_start, end - word_start);
    if (word == prev_word) {
      ++wrun;
    } else {
      wrun = 1;
      prev_word = word;
    }
    st.longest_word_run = std::max(st.longest_word_run, wrun);
  };
  size_t i = 0;
  while (i < s.size()) {
    const size_t at = i;
    const auto b = static_cast<unsigned char>(s[i]);
    UChar32 c;
    bool space, letter, up = false, digit;
    int sc;
    if (b < 0x80) {
      c = b;
      ++i;
      space = b == ' ' || b == '\t';
      letter = ascii_letter(b);
      up = b >= 'A' && b <= 'Z';
      digit = b >= '0' && b <= '9';
      sc = letter ? USCRIPT_LATIN : -1;
    } else {
      c = corpus::uc::at(s, i, &i);
      space = stats_is_space(c);
      // One general-category lookup answers u_isalpha (L*), u_isupper (Lu)
      // and u_isdigit (Nd).
      const auto cat = static_cast<int8_t>(u_charType(c));
      letter = cat == U_UPPERCASE_LETTER || cat == U_LOWERCASE_LETTER || cat == U_TITLECASE_LETTER ||
               cat == U_MODIFIER_LETTER || cat == U_OTHER_LETTER;
      up = cat == U_UPPERCASE_LETTER;
      digit = cat == U_DECIMAL_DIGIT_NUMBER;
      sc = -1;
      if (letter) {
        UErrorCode e = U_ZERO_ERROR;
        sc = uscript_getScript(c, &e);
        if (spaceless_script(static_cast<UScriptCode>(sc))) ++st.spaceless;
      }
    }
    ++st.chars;
    if (c == prev) {
      ++run;
    } else {
      run = 1;
      prev = c;
    }
    if (!space) st.longest_char_run = std::max(st.longest_char_run, run);
    if (space) {
      end_word(at);
      continue;
    }
    ++st.nonspace;
    if (!in_word) {
      in_word = true;
      word_start = at;
      ++st.words;
    }
    if (digit) ++st.digits;
    if (letter) {
      ++st.letters;
      if (up) ++st.upper;
      for (size_t k = 0; k < per.size(); ++k) {
        if (code[k] == sc || code[k] == -2) {
          code[k] = sc;
          ++per[k];
          break;
        }
      }
    }
  }
  end_word(s.size());
  uint32_t best = 0;
  for (size_t k = 0; k < per.size(); ++k)
    if (per[k] > best) {
      best = per[k];
      st.script = code[k];
    }
  for (size_t k = 0; k < per.size(); ++k) {
    st.script_code[k] = code[k];
    st.script_letters[k] = per[k];
  }
  return st;
}

void letters_key(std::string_view s, std::string& out) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
      if (ascii_letter(b)) out.push_back(static_cast<char>(b | 0x20));
      else if (b >= '0' && b <= '9') out.push_back(static_cast<char>(b));
      continue;
    }
    UChar32 c = corpus::uc::at(s, i, &i);
    if (u_isalpha(c) || u_isdigit(c)) append_utf8(u_tolower(c), out);
  }
}

void placeholders(std::string_view s, std::vector<std::string>& out) {
  out.clear();
  for (const corpus::PlaceholderSpan& sp : corpus::find_placeholders(s)) {
    std::string p(s.substr(sp.begin, sp.end - sp.begin));
    if (p == "%%") continue;  // a literal percent sign
    if (p[0] == '&') continue;  // a character reference may be translated as its character or a word
    if (p[0] == '%') {
      // Positional %1$s and plain %s name the same argument in translations that reorder.
      const size_t dollar = p.find('$');
      if (dollar != std::string::npos) p.erase(1, dollar);  // "%1$s" -> "%s"
    } else if (p[0] == '<') {
      // A tag by its name: <a href="x"> and <A> are the same markup.
      const bool close = p.size() > 1 && p[1] == '/';
      size_t n = close ? 2 : 1;
      std::string tag = close ? "</" : "<";
      while (n < p.size() && ascii_letter(static_cast<unsigned char>(p[n]))) tag.push_back(static_cast<char>(p[n++] | 0x20));
      p = tag + ">";
    }
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end());
}

void letter_words(std::string_view s, std::vector<std::string>& out) {
  out.clear();
  std::string w;
  bool has_letter = false;
  auto flush = [&] {
    if (has_letter && !w.empty()) out.push_back(w);
    w.clear();
    has_letter = false;
  };
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    UChar32 c;
    if (b < 0x80) {
      c = b;
      ++i;
    } else {
      c = corpus::uc::at(s, i, &i);
    }
    if (u_isalpha(c)) {
      has_letter = true;
      append_utf8(u_tolower(c), w);
    } else if (u_isdigit(c)) {
      append_utf8(c, w);
    } else {
      flush();
    }
  }
  flush();
}

}  // namespace filter
