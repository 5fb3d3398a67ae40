#include "libcorpus/ingest/html_tokenizer.h"

#include <cstring>
#include <initializer_list>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/ingest/html_char_refs.h"
#include "libcorpus/ingest/html_replaced.h"

namespace corpus::html {

namespace {

constexpr std::string_view kFffd = "\xEF\xBF\xBD";

bool tk_alpha(char c) { return is_ascii_alpha(c); }
bool tk_digit(char c) { return c >= '0' && c <= '9'; }
bool tk_alnum(char c) { return tk_alpha(c) || tk_digit(c); }
bool tk_hex(char c) { return tk_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// See html_replaced.h.
size_t tk_replaced(const char* p, const char* e) { return html_replaced_length(p, e); }

// Bytes a text run stops at: 1 = always ('<', '&', CR, NUL, controls, DEL),
// 2 = a lead byte that may start a replaced character (see tk_replaced).
struct StopTable {
  uint8_t v[256];
  constexpr StopTable() : v() {
    for (int c = 0; c < 0x20; ++c) v[c] = 1;
    for (unsigned char c : {'\t', '\n', '\f'}) v[c] = 0;
    for (unsigned char c : {'<', '&', '\x7F'}) v[c] = 1;
    v[0xC2] = v[0xEF] = 2;
    for (int c = 0xF0; c <= 0xF4; ++c) v[c] = 2;
  }
};
constexpr StopTable kStop;

// Windows-1252 for numeric references to U+0080-009F (§13.2.5.80).
constexpr char32_t kC1[32] = {0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                              0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,   0x017D, 0x8F,
                              0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                              0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};

// §13.2.5.72 character reference state, at the '&' p points to. Appends the
// decoded characters to `out` and returns the end of the reference, or
// returns p + 1 and appends "&" when nothing is decoded (the characters
// after it are then read as text). `attribute`: the rule for legacy names
// followed by '=' or an alphanumeric (§13.2.5.73).
const char* char_ref(const char* p, const char* e, bool attribute, std::string& out) {
  const char* q = p + 1;
  if (q < e && *q == '#') {  // §13.2.5.75 numeric character reference
    ++q;
    const bool hex = q < e && (*q == 'x' || *q == 'X');
    if (hex) ++q;
    const char* digits = q;
    uint32_t v = 0;
    for (; q < e && (hex ? tk_hex(*q) : tk_digit(*q)); ++q) {  // §13.2.5.78-79
      uint32_t d = tk_digit(*q) ? static_cast<uint32_t>(*q - '0') : static_cast<uint32_t>((*q | 0x20) - 'a' + 10);
      if (v <= 0x10FFFF) v = v * (hex ? 16 : 10) + d;  // past U+10FFFF it stays "too large"
    }
    if (q == digits) {  // §13.2.5.76-77: absence of digits, not a reference
      out += '&';
      return p + 1;
    }
    if (q < e && *q == ';') ++q;
    // §13.2.5.80 numeric character reference end
    char32_t c = v;
    if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) c = 0xFFFD;
    else if (v >= 0x80 && v <= 0x9F) c = kC1[v - 0x80];
    append_utf8(out, c);
    return q;
  }
  // §13.2.5.73 named character reference: the longest name in the table.
  const char* s = q;
  while (q < e && q - s < static_cast<ptrdiff_t>(kHtmlCharRefMaxName) && tk_alnum(*q)) ++q;
  if (q < e && *q == ';' && q - s < static_cast<ptrdiff_t>(kHtmlCharRefMaxName)) ++q;
  std::string_view utf8;
  const size_t n = q == s ? 0 : html_char_ref_longest(std::string_view(s, static_cast<size_t>(q - s)), utf8);
  if (n == 0) {  // §13.2.5.74 ambiguous ampersand: the text stays as it is
    out += '&';
    return p + 1;
  }
  const char* after = s + n;
  if (attribute && s[n - 1] != ';' && after < e && (*after == '=' || tk_alnum(*after))) {
    out += '&';  // historical: not decoded in attributes
    return p + 1;
  }
  out.append(utf8);
  return after;
}

bool ieq_at(const char* p, const char* e, std::string_view lower) {
  if (static_cast<size_t>(e - p) < lower.size()) return false;
  for (size_t i = 0; i < lower.size(); ++i)
    if (ascii_lower(p[i]) != lower[i]) return false;
  return true;
}

// §13.2.6.4.1: public identifiers that put a document in quirks mode (prefixes).
constexpr std::string_view kQuirksPublic[] = {
    "+//silmaril//dtd html pro v0r11 19970101//", "-//as//dtd html 3.0 aswedit + extensions//",
    "-//advasoft ltd//dtd html 3.0 aswedit + extensions//", "-//ietf//dtd html 2.0 level 1//",
    "-//ietf//dtd html 2.0 level 2//", "-//ietf//dtd html 2.0 strict level 1//",
    "-//ietf//dtd html 2.0 strict level 2//", "-//ietf//dtd html 2.0 strict//", "-//ietf//dtd html 2.0//",
    "-//ietf//dtd html 2.1e//", "-//ietf//dtd html 3.0//", "-//ietf//dtd html 3.2 final//",
    "-//ietf//dtd html 3.2//", "-//ietf//dtd html 3//", "-//ietf//dtd html level 0//",
    "-//ietf//dtd html level 1//", "-//ietf//dtd html level 2//", "-//ietf//dtd html level 3//",
    "-//ietf//dtd html strict level 0//", "-//ietf//dtd html strict level 1//",
    "-//ietf//dtd html strict level 2//", "-//ietf//dtd html strict level 3//", "-//ietf//dtd html strict//",
    "-//ietf//dtd html//", "-//metrius//dtd metrius presentational//",
    "-//microsoft//dtd internet explorer 2.0 html strict//", "-//microsoft//dtd internet explorer 2.0 html//",
    "-//microsoft//dtd internet explorer 2.0 tables//", "-//microsoft//dtd internet explorer 3.0 html strict//",
    "-//microsoft//dtd internet explorer 3.0 html//", "-//microsoft//dtd internet explorer 3.0 tables//",
    "-//netscape comm. corp.//dtd html//", "-//netscape comm. corp.//dtd strict html//",
    "-//o'reilly and associates//dtd html 2.0//", "-//o'reilly and associates//dtd html extended 1.0//",
    "-//o'reilly and associates//dtd html extended relaxed 1.0//",
    "-//sq//dtd html 2.0 hotmetal + extensions//",
    "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
    "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
    "-//spyglass//dtd html 2.0 extended//", "-//sun microsystems corp.//dtd hotjava html//",
    "-//sun microsystems corp.//dtd hotjava strict html//", "-//w3c//dtd html 3 1995-03-24//",
    "-//w3c//dtd html 3.2 draft//", "-//w3c//dtd html 3.2 final//", "-//w3c//dtd html 3.2//",
    "-//w3c//dtd html 3.2s draft//", "-//w3c//dtd html 4.0 frameset//", "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html experimental 19960712//", "-//w3c//dtd html experimental 970421//",
    "-//w3c//dtd w3 html//", "-//w3o//dtd w3 html 3.0//", "-//webtechs//dtd mozilla html 2.0//",
    "-//webtechs//dtd mozilla html//",
};

// §13.2.5.53-68 (DOCTYPE name, public and system identifiers) and the
// quirks rule of §13.2.6.4.1, on the text between "<!DOCTYPE" and '>'.
bool doctype_quirks(std::string_view d, bool eof) {
  if (eof) return true;
  size_t p = 0;
  auto skip_space = [&] {
    while (p < d.size() && is_html_space(d[p])) ++p;
  };
  skip_space();
  size_t b = p;
  while (p < d.size() && !is_html_space(d[p])) ++p;
  if (ascii_lower(d.substr(b, p - b)) != "html") return true;
  skip_space();
  std::string pub, sys;
  bool has_pub = false, has_sys = false;
  auto quoted = [&](std::string& out) {  // false: missing quote (force-quirks)
    skip_space();
    if (p >= d.size() || (d[p] != '"' && d[p] != '\'')) return false;
    const char q = d[p++];
    const size_t e = d.find(q, p);
    if (e == std::string_view::npos) return false;  // abrupt: the '>' came first
    out = ascii_lower(d.substr(p, e - p));
    p = e + 1;
    return true;
  };
  const std::string kw = ascii_lower(d.substr(p, 6));
  if (kw == "public") {
    p += 6;
    if (!quoted(pub)) return true;
    has_pub = true;
    skip_space();
    if (p < d.size()) {
      if (!quoted(sys)) return true;
      has_sys = true;
    }
  } else if (kw == "system") {
    p += 6;
    if (!quoted(sys)) return true;
    has_sys = true;
  } else if (p < d.size()) {
    return true;  // bogus DOCTYPE
  }
  if (has_pub) {
    if (pub == "-//w3o//dtd w3 html strict 3.0//en//" || pub == "-/w3c/dtd html 4.0 transitional/en" || pub == "html")
      return true;
    for (std::string_view pre : kQuirksPublic)
      if (pub.compare(0, pre.size(), pre) == 0) return true;
    if (!has_sys && (pub.rfind("-//w3c//dtd html 4.01 frameset//", 0) == 0 ||
                     pub.rfind("-//w3c//dtd html 4.01 transitional//", 0) == 0))
      return true;
  }
  return has_sys && sys == "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";
}

class Tokenizer {
 public:
  Tokenizer(std::string_view s, TokenSink& sink) : p_(s.data()), e_(s.data() + s.size()), sink_(sink) {}
  void run();

 private:
  // Text from p to `stop` in `mode`, with the input replacements.
  void text_run(const char* p, const char* stop, TextMode mode);
  const char* data_state(const char* p);
  const char* tag_open(const char* p);
  const char* markup_declaration(const char* p);
  const char* read_tag(const char* p, bool end);
  const char* raw_text_end(const char* p, std::string_view name) const;
  const char* script_data_end(const char* p) const;

  const char* p_;
  const char* e_;
  TokenSink& sink_;
  TagToken tag_;
  std::string name_;      // the last start tag's name (the "appropriate end tag")
  std::string buf_;       // decoded characters
  TextMode mode_ = TextMode::data;
};

void Tokenizer::text_run(const char* p, const char* stop, TextMode mode) {
  const bool refs = mode == TextMode::data || mode == TextMode::rcdata;
  const char* run = p;
  while (p < stop) {
    const uint8_t k = kStop.v[static_cast<unsigned char>(*p)];
    if (k == 0) {
      ++p;
      continue;
    }
    size_t w = 0;
    const char c = *p;
    if (k == 2) {
      w = tk_replaced(p, e_);
      if (w == 0) {
        ++p;
        continue;
      }
    }
    if (run < p) sink_.text(std::string_view(run, static_cast<size_t>(p - run)));
    if (c == '&' && refs) {
      buf_.clear();
      p = char_ref(p, stop, false, buf_);
      sink_.text(buf_);
    } else if (c == '&' || c == '<') {
      sink_.text(std::string_view(p, 1));
      ++p;
    } else if (c == '\r') {  // §13.2.3.5: CR LF and CR become LF
      sink_.text("\n");
      p += p + 1 < stop && p[1] == '\n' ? 2 : 1;
    } else if (c == '\0') {  // in data the tree builder drops it (after it starts the body)
      sink_.text(mode != TextMode::data ? kFffd : std::string_view("\0", 1));
      ++p;
    } else {
      sink_.text(kFffd);
      p += w ? w : 1;
    }
    run = p;
  }
  if (run < stop) sink_.text(std::string_view(run, static_cast<size_t>(stop - run)));
}

// §13.2.5.1 data state: text up to the next '<'.
const char* Tokenizer::data_state(const char* p) {
  const char* lt = static_cast<const char*>(std::memchr(p, '<', static_cast<size_t>(e_ - p)));
  const char* stop = lt ? lt : e_;
  text_run(p, stop, TextMode::data);
  return stop;
}

// §13.2.5.6 tag open state, at '<'.
const char* Tokenizer::tag_open(const char* p) {
  const char* q = p + 1;
  if (q >= e_) {  // EOF: the '<' is text
    sink_.text("<");
    return e_;
  }
  if (*q == '!') return markup_declaration(q + 1);
  if (*q == '/') {  // §13.2.5.7 end tag open
    const char* r = q + 1;
    if (r >= e_) {
      sink_.text("</");
      return e_;
    }
    if (tk_alpha(*r)) return read_tag(r, true);
    if (*r == '>') return r + 1;  // missing end tag name: nothing
    const char* gt = static_cast<const char*>(std::memchr(r, '>', static_cast<size_t>(e_ - r)));
    return gt ? gt + 1 : e_;  // §13.2.5.41 bogus comment
  }
  if (tk_alpha(*q)) return read_tag(q, false);
  if (*q == '?') {  // bogus comment
    const char* gt = static_cast<const char*>(std::memchr(q, '>', static_cast<size_t>(e_ - q)));
    return gt ? gt + 1 : e_;
  }
  sink_.text("<");  // not a tag: the '<' is text, and the tokenizer reconsumes the rest in the data state
  return q;
}

// §13.2.5.42 markup declaration open state, just after "<!".
const char* Tokenizer::markup_declaration(const char* p) {
  const size_t left = static_cast<size_t>(e_ - p);
  if (left >= 2 && p[0] == '-' && p[1] == '-') {
    // §13.2.5.43-52 comment states, as gumbo 0.10.1 ends a comment.
    const char* c = p + 2;
    if (c < e_ && *c == '>') return c + 1;                           // <!-->
    if (e_ - c >= 2 && c[0] == '-' && c[1] == '>') return c + 2;     // <!--->
    for (const char* q = c; q + 1 < e_; ++q) {
      q = static_cast<const char*>(std::memchr(q, '-', static_cast<size_t>(e_ - q)));
      if (!q || q + 1 >= e_) break;
      if (q[1] != '-') continue;
      if (q + 2 < e_ && q[2] == '>') return q + 3;
      if (q + 3 < e_ && q[2] == '!' && q[3] == '>') return q + 4;
    }
    return e_;  // EOF in a comment
  }
  if (ieq_at(p, e_, "doctype")) {  // §13.2.5.53ff: a DOCTYPE ends at the first '>'
    const char* gt = static_cast<const char*>(std::memchr(p, '>', left));
    sink_.doctype(doctype_quirks(std::string_view(p + 7, static_cast<size_t>((gt ? gt : e_) - p - 7)), gt == nullptr));
    return gt ? gt + 1 : e_;
  }
  if (left >= 7 && std::memcmp(p, "[CDATA[", 7) == 0 && sink_.cdata_allowed()) {
    // §13.2.5.69-71 CDATA section: its text up to "]]>".
    const char* b = p + 7;
    const char* q = b;
    for (; q + 2 < e_; ++q)
      if (q[0] == ']' && q[1] == ']' && q[2] == '>') break;
    if (q + 2 >= e_) q = e_;
    text_run(b, q, TextMode::rawtext);
    return q == e_ ? e_ : q + 3;
  }
  const char* gt = static_cast<const char*>(std::memchr(p, '>', left));  // §13.2.5.41 bogus comment
  return gt ? gt + 1 : e_;
}

// §13.2.5.8 tag name state and §13.2.5.32-40 (attributes, self-closing),
// from the tag name's first letter. Emits the tag; returns where the
// tokenizer goes on, e_ when the page ends inside the tag (§13.2.5.8
// "eof-in-tag": the tag is dropped).
const char* Tokenizer::read_tag(const char* p, bool end) {
  TagToken& t = tag_;
  t.end = end;
  t.self_closing = false;
  t.attrs_.clear();
  t.names_.clear();
  const char* b = p;
  while (p < e_ && !is_html_space(*p) && *p != '/' && *p != '>') ++p;
  if (p >= e_) return e_;
  std::string& name = end ? buf_ : name_;
  name.assign(b, static_cast<size_t>(p - b));
  for (char& c : name) c = ascii_lower(c);
  if (name.find('\0') != std::string::npos) {  // NUL in a tag name is U+FFFD
    std::string fixed;
    for (char c : name) fixed += c == '\0' ? std::string(kFffd) : std::string(1, c);
    name = fixed;
  }
  t.name = name;
  t.tag = tag_from_name(name);
  enum { kBeforeName, kName, kAfterName, kBeforeValue, kSelfClosing } st = kBeforeName;
  const char* attr = nullptr;
  auto start_attr = [&](const char* at) { attr = at; };
  auto end_name = [&](const char* at) {
    const auto off = static_cast<uint32_t>(t.names_.size());
    for (const char* c = attr; c < at; ++c) t.names_ += ascii_lower(*c);
    t.attrs_.push_back({off, static_cast<uint32_t>(at - attr), std::string_view()});
  };
  auto set_value = [&](const char* vb, const char* ve) {
    t.attrs_.back().raw = std::string_view(vb, static_cast<size_t>(ve - vb));
  };
  while (p < e_) {
    const char c = *p;
    switch (st) {
      case kBeforeName:  // §13.2.5.32
        if (is_html_space(c)) break;
        if (c == '/') { st = kSelfClosing; break; }
        if (c == '>') goto emit;
        start_attr(p);  // '=' here starts a name too (§13.2.5.32 unexpected-equals-sign)
        st = kName;
        break;
      case kName:  // §13.2.5.33
        if (is_html_space(c)) { end_name(p); st = kAfterName; break; }
        if (c == '/') { end_name(p); st = kSelfClosing; break; }
        if (c == '=') { end_name(p); st = kBeforeValue; break; }
        if (c == '>') { end_name(p); goto emit; }
        break;
      case kAfterName:  // §13.2.5.34
        if (is_html_space(c)) break;
        if (c == '/') { st = kSelfClosing; break; }
        if (c == '=') { st = kBeforeValue; break; }
        if (c == '>') goto emit;
        start_attr(p);
        st = kName;
        break;
      case kBeforeValue:  // §13.2.5.35
        if (is_html_space(c)) break;
        if (c == '>') goto emit;  // missing value: empty
        if (c == '"' || c == '\'') {  // §13.2.5.36-37, then §13.2.5.39
          const char* q = static_cast<const char*>(std::memchr(p + 1, c, static_cast<size_t>(e_ - p - 1)));
          if (!q) return e_;
          set_value(p + 1, q);
          p = q + 1;
          st = kBeforeName;  // §13.2.5.39: white space, '/', '>' as there; anything else starts a name
          continue;
        } else {  // §13.2.5.38 unquoted: up to white space or '>'
          const char* vb = p;
          while (p < e_ && !is_html_space(*p) && *p != '>') ++p;
          set_value(vb, p);
          st = kBeforeName;
          continue;
        }
      case kSelfClosing:  // §13.2.5.40
        if (c == '>') {
          t.self_closing = true;
          goto emit;
        }
        st = kBeforeName;
        continue;  // reconsume
    }
    ++p;
  }
  return e_;  // eof-in-tag
emit:
  ++p;
  if (end) {
    sink_.tag(t);
    return p;
  }
  mode_ = sink_.tag(t);
  return p;
}

// The '<' of "</name" + (white space, '/' or '>') from p (§13.2.5.9-14: the
// appropriate end tag ends RCDATA and RAWTEXT), or e_.
const char* Tokenizer::raw_text_end(const char* p, std::string_view name) const {
  for (;;) {
    const char* q = static_cast<const char*>(std::memchr(p, '<', static_cast<size_t>(e_ - p)));
    if (!q) return e_;
    const char* r = q + 2 + name.size();
    if (r < e_ && q[1] == '/' && ieq_at(q + 2, e_, name) && (is_html_space(*r) || *r == '/' || *r == '>')) return q;
    p = q + 1;
  }
}

// §13.2.5.4 script data and §13.2.5.15-31 (escaped, double escaped): the
// '<' of the "</script" that ends it, or e_.
const char* Tokenizer::script_data_end(const char* p) const {
  enum { kData, kEscaped, kEscDash, kEscDashDash, kDouble, kDblDash, kDblDashDash } st = kData;
  auto script_at = [&](const char* q) {  // "script" + white space, '/' or '>' at q
    return ieq_at(q, e_, "script") && q + 6 < e_ && (is_html_space(q[6]) || q[6] == '/' || q[6] == '>');
  };
  while (p < e_) {
    const char c = *p;
    switch (st) {
      case kData:  // §13.2.5.4
        if (c != '<') {
          const char* q = static_cast<const char*>(std::memchr(p, '<', static_cast<size_t>(e_ - p)));
          if (!q) return e_;
          p = q;
          continue;
        }
        if (p + 1 < e_ && p[1] == '/' && script_at(p + 2)) return p;  // §13.2.5.15-17
        if (e_ - p >= 4 && p[1] == '!' && p[2] == '-' && p[3] == '-') {  // §13.2.5.18-19 escape start
          st = kEscDashDash;
          p += 4;
          continue;
        }
        break;
      case kEscaped:  // §13.2.5.20
      case kEscDash:  // §13.2.5.21
      case kEscDashDash:  // §13.2.5.22
        if (c == '-') {
          st = st == kEscaped ? kEscDash : kEscDashDash;
          break;
        }
        if (c == '>' && st == kEscDashDash) {
          st = kData;
          break;
        }
        st = kEscaped;
        if (c == '<') {  // §13.2.5.23 escaped less-than sign
          if (p + 1 < e_ && p[1] == '/' && script_at(p + 2)) return p;  // §13.2.5.24-25
          if (script_at(p + 1)) {  // §13.2.5.26 double escape start
            st = kDouble;
            p += 8;
            continue;
          }
        }
        break;
      case kDouble:  // §13.2.5.27
      case kDblDash:  // §13.2.5.28
      case kDblDashDash:  // §13.2.5.29
        if (c == '-') {
          st = st == kDouble ? kDblDash : kDblDashDash;
          break;
        }
        if (c == '>' && st == kDblDashDash) {
          st = kData;
          break;
        }
        st = kDouble;
        if (c == '<' && p + 1 < e_ && p[1] == '/' && script_at(p + 2)) {  // §13.2.5.30-31 double escape end
          st = kEscaped;
          p += 9;
          continue;
        }
        break;
    }
    ++p;
  }
  return e_;
}

void Tokenizer::run() {
  const char* p = p_;
  while (p < e_ && !sink_.stopped()) {
    switch (mode_) {
      case TextMode::data:
        p = data_state(p);
        if (p < e_) p = tag_open(p);
        break;
      case TextMode::rcdata:
      case TextMode::rawtext: {  // §13.2.5.2-3, 9-14
        const char* end = raw_text_end(p, name_);
        text_run(p, end, mode_);
        p = end;
        mode_ = TextMode::data;
        break;
      }
      case TextMode::script: {
        const char* end = script_data_end(p);
        text_run(p, end, mode_);
        p = end;
        mode_ = TextMode::data;
        break;
      }
      case TextMode::plaintext:  // §13.2.5.5: the rest is text
        text_run(p, e_, mode_);
        p = e_;
        break;
    }
  }
}

}  // namespace

bool TagToken::attr(std::string_view key, std::string& value) const {
  for (const Attr& a : attrs_)
    if (std::string_view(names_).substr(a.name_at, a.name_len) == key) {
      value.clear();
      decode_attribute(a.raw, value);
      return true;
    }
  return false;
}

bool TagToken::has_attr(std::string_view key) const {
  for (const Attr& a : attrs_)
    if (std::string_view(names_).substr(a.name_at, a.name_len) == key) return true;
  return false;
}

void decode_attribute(std::string_view raw, std::string& out) {
  const char* p = raw.data();
  const char* e = p + raw.size();
  while (p < e) {
    const char c = *p;
    const uint8_t k = kStop.v[static_cast<unsigned char>(c)];
    size_t w = k == 2 ? tk_replaced(p, e) : 0;
    if (k == 0 || (k == 2 && w == 0) || c == '<') {
      out += c;
      ++p;
    } else if (c == '&') {
      p = char_ref(p, e, true, out);
    } else if (c == '\r') {
      out += '\n';
      p += p + 1 < e && p[1] == '\n' ? 2 : 1;
    } else {
      out.append(kFffd);
      p += w ? w : 1;
    }
  }
}

void tokenize(std::string_view html, TokenSink& sink) { Tokenizer(html, sink).run(); }

}  // namespace corpus::html
