#include "libcorpus/eval/tokenizers.h"

#include "libcorpus/core/error.h"
#include "libcorpus/eval/unicode.h"

namespace corpus::eval {

const char* tokenizer_name(Tokenizer t) {
  switch (t) {
    case Tokenizer::k13a: return "13a";
    case Tokenizer::kIntl: return "intl";
    case Tokenizer::kZh: return "zh";
    case Tokenizer::kChar: return "char";
    case Tokenizer::kNone: return "none";
  }
  return "?";
}

Tokenizer parse_tokenizer(std::string_view name) {
  for (Tokenizer t : {Tokenizer::k13a, Tokenizer::kIntl, Tokenizer::kZh, Tokenizer::kChar, Tokenizer::kNone})
    if (name == tokenizer_name(t)) return t;
  throw corpus::ConfigError("unknown tokenizer " + corpus::quote(name), "use one of 13a, intl, zh, char, none");
}

namespace {

// str.replace(from, to) on the whole string.
void replace_all(std::string& s, std::string_view from, std::string_view to) {
  if (s.find(from) == std::string::npos) return;
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  for (size_t j; (j = s.find(from, i)) != std::string::npos; i = j + from.size()) {
    out.append(s, i, j - i);
    out.append(to);
  }
  out.append(s, i, std::string::npos);
  s.swap(out);
}

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The first rule of sacreBLEU's TokenizerRegexp: the character class
// [\{-\~\[-\` -\&\(-\+\:-\@\/] (ASCII only).
inline bool re_rule1(unsigned char c) {
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

// TokenizerRegexp (the post-tokeniser of 13a and zh), without the final
// split. The patterns only involve ASCII characters, so scanning bytes gives
// the same result as scanning code points: a multi-byte character can only be
// the [^0-9] side of a match, and its other bytes are copied unchanged.
void regexp_rules(const std::string& in, std::string& out) {
  std::string a;
  a.reserve(in.size() + in.size() / 2);
  // 1. ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> " \1 "
  for (char c : in) {
    if (re_rule1(static_cast<unsigned char>(c))) {
      a.push_back(' ');
      a.push_back(c);
      a.push_back(' ');
    } else {
      a.push_back(c);
    }
  }
  // 2. ([^0-9])([\.,]) -> "\1 \2 "
  std::string b;
  b.reserve(a.size() + 16);
  for (size_t i = 0; i < a.size();) {
    if (i + 1 < a.size() && !is_digit(a[i]) && (a[i + 1] == '.' || a[i + 1] == ',')) {
      b.push_back(a[i]);
      b.push_back(' ');
      b.push_back(a[i + 1]);
      b.push_back(' ');
      i += 2;
    } else {
      b.push_back(a[i++]);
    }
  }
  // 3. ([\.,])([^0-9]) -> " \1 \2"
  a.clear();
  for (size_t i = 0; i < b.size();) {
    if (i + 1 < b.size() && (b[i] == '.' || b[i] == ',') && !is_digit(b[i + 1])) {
      a.push_back(' ');
      a.push_back(b[i]);
      a.push_back(' ');
      a.push_back(b[i + 1]);
      i += 2;
    } else {
      a.push_back(b[i++]);
    }
  }
  // 4. ([0-9])(-) -> "\1 \2 "
  out.clear();
  out.reserve(a.size() + 8);
  for (size_t i = 0; i < a.size();) {
    if (i + 1 < a.size() && is_digit(a[i]) && a[i + 1] == '-') {
      out.push_back(a[i]);
      out.push_back(' ');
      out.push_back('-');
      out.push_back(' ');
      i += 2;
    } else {
      out.push_back(a[i++]);
    }
  }
}

void tok_13a(std::string_view line, std::string& buf) {
  std::string s(line);
  replace_all(s, "<skipped>", "");
  replace_all(s, "-\n", "");
  replace_all(s, "\n", " ");
  if (s.find('&') != std::string::npos) {
    replace_all(s, "&quot;", "\"");
    replace_all(s, "&amp;", "&");
    replace_all(s, "&lt;", "<");
    replace_all(s, "&gt;", ">");
  }
  std::string padded;
  padded.reserve(s.size() + 2);
  padded.push_back(' ');
  padded.append(s);
  padded.push_back(' ');
  regexp_rules(padded, buf);
}

// The intl rules, on code points:
//   (\P{N})(\p{P}) -> "\1 \2 ",  (\p{P})(\P{N}) -> " \1 \2",  (\p{S}) -> " \1 "
void tok_intl(std::string_view line, std::string& buf) {
  std::u32string a, b;
  decode_utf8(line, a);
  b.reserve(a.size() * 2);
  for (size_t i = 0; i < a.size();) {
    if (i + 1 < a.size() && !is_number(a[i]) && is_punct(a[i + 1])) {
      b.push_back(a[i]);
      b.push_back(U' ');
      b.push_back(a[i + 1]);
      b.push_back(U' ');
      i += 2;
    } else {
      b.push_back(a[i++]);
    }
  }
  a.clear();
  for (size_t i = 0; i < b.size();) {
    if (i + 1 < b.size() && is_punct(b[i]) && !is_number(b[i + 1])) {
      a.push_back(U' ');
      a.push_back(b[i]);
      a.push_back(U' ');
      a.push_back(b[i + 1]);
      i += 2;
    } else {
      a.push_back(b[i++]);
    }
  }
  buf.clear();
  buf.reserve(a.size() + 16);
  for (char32_t c : a) {
    if (is_symbol(c)) {
      buf.push_back(' ');
      append_utf8(buf, c);
      buf.push_back(' ');
    } else {
      append_utf8(buf, c);
    }
  }
}

// sacreBLEU's _UCODE_RANGES, as Python evaluates them. Two entries are
// written '\u20000'..'\u2a6d6' and '\u2f800'..'\u2fa1d' (meant as
// supplementary-plane ranges), which Python reads as two-character strings;
// a single character c then satisfies '\u20000' <= c <= '\u2a6d6' exactly
// when U+2001 <= c <= U+2A6D, and the second one when U+2F81 <= c <= U+2FA1.
// We reproduce that, since it is what sacreBLEU's zh tokeniser does.
bool is_chinese_char(char32_t c) {
  static constexpr char32_t kRanges[][2] = {
      {0x3400, 0x4db5}, {0x4e00, 0x9fa5}, {0x9fa6, 0x9fbb}, {0xf900, 0xfa2d}, {0xfa30, 0xfa6a},
      {0xfa70, 0xfad9}, {0x2001, 0x2a6d}, {0x2f81, 0x2fa1}, {0xff00, 0xffef}, {0x2e80, 0x2eff},
      {0x3000, 0x303f}, {0x31c0, 0x31ef}, {0x2f00, 0x2fdf}, {0x2ff0, 0x2fff}, {0x3100, 0x312f},
      {0x31a0, 0x31bf}, {0xfe10, 0xfe1f}, {0xfe30, 0xfe4f}, {0x2600, 0x26ff}, {0x2700, 0x27bf},
      {0x3200, 0x32ff}, {0x3300, 0x33ff},
  };
  for (const auto& r : kRanges)
    if (c >= r[0] && c <= r[1]) return true;
  return false;
}

void tok_zh(std::string_view line, std::string& buf) {
  std::string_view s = py_strip(line);
  std::string spaced;
  spaced.reserve(s.size() + 16);
  for (size_t i = 0; i < s.size();) {
    size_t j = i;
    char32_t c = next_code_point(s, j);
    if (c >= 0x2001 && is_chinese_char(c)) {
      spaced.push_back(' ');
      spaced.append(s.substr(i, j - i));
      spaced.push_back(' ');
    } else {
      spaced.append(s.substr(i, j - i));
    }
    i = j;
  }
  regexp_rules(spaced, buf);
}

}  // namespace

void tokenize(Tokenizer t, std::string_view line, std::string& buf, std::vector<std::string_view>& tokens) {
  switch (t) {
    case Tokenizer::k13a: tok_13a(line, buf); break;
    case Tokenizer::kIntl: tok_intl(line, buf); break;
    case Tokenizer::kZh: tok_zh(line, buf); break;
    case Tokenizer::kNone: buf.assign(line); break;
    case Tokenizer::kChar: {
      // " ".join(line) then split(): every non-space character is a token.
      buf.assign(line);
      tokens.clear();
      for (size_t i = 0; i < buf.size();) {
        size_t j = i;
        char32_t c = next_code_point(buf, j);
        if (!is_py_space(c)) tokens.push_back(std::string_view(buf).substr(i, j - i));
        i = j;
      }
      return;
    }
  }
  py_split(buf, tokens);
}

std::string tokenize_to_string(Tokenizer t, std::string_view line) {
  std::string buf, out;
  std::vector<std::string_view> toks;
  tokenize(t, line, buf, toks);
  for (size_t i = 0; i < toks.size(); ++i) {
    if (i) out.push_back(' ');
    out.append(toks[i]);
  }
  return out;
}

}  // namespace corpus::eval
