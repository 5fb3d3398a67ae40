#include "libcorpus/ingest/html_prescan.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <iterator>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/ingest/html_replaced.h"

namespace corpus {

namespace {

// Markers: plane 15 then plane 16, skipping the noncharacters U+xFFFE/U+xFFFF.
constexpr uint32_t kPlaneRuns = 0xFFFE;
constexpr size_t kMaxRuns = 2 * kPlaneRuns;
constexpr size_t kMinRun = 5;  // shorter runs are copied (a marker takes 4 bytes)

void put_marker(std::string& out, size_t i) {
  append_utf8(out, 0xF0000 + static_cast<char32_t>(i / kPlaneRuns) * 0x10000 + static_cast<char32_t>(i % kPlaneRuns));
}

// True when the text holds a character of planes 15-16 (F3 B0.., F4 80..8F).
bool has_private_planes(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  for (; p + 1 < e; ++p)
    if (*p >= 0xF3 && ((*p == 0xF3 && p[1] >= 0xB0) || (*p == 0xF4 && p[1] < 0x90))) return true;
  return false;
}

// The length of the character at s[i] that gumbo replaces with U+FFFD
// (html_replaced.h), else 0. Such a character must reach gumbo itself: inside
// a run it would come back verbatim. `s` is valid UTF-8.
size_t gumbo_replaced(std::string_view s, size_t i) { return html_replaced_length(s.data() + i, s.data() + s.size()); }

// HTML white space for the tokenizer; CR counts, since gumbo turns it into LF first.
bool is_alnum(char c) { return is_ascii_alpha(c) || (c >= '0' && c <= '9'); }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != b[i]) return false;
  return true;
}
bool name_in(std::string_view name, std::initializer_list<std::string_view> set) {
  for (std::string_view s : set)
    if (iequals(name, s)) return true;
  return false;
}
bool istarts_with(std::string_view s, size_t at, std::string_view lower_prefix) {
  return s.size() - at >= lower_prefix.size() && iequals(s.substr(at, lower_prefix.size()), lower_prefix);
}

// Finds "</name" + (white space, '/' or '>') from `from`, case-insensitively:
// the end of a raw text element. npos if none.
size_t find_end_tag(std::string_view s, size_t from, std::string_view name) {
  for (size_t p = s.find("</", from); p != std::string_view::npos; p = s.find("</", p + 2)) {
    size_t q = p + 2 + name.size();
    if (q < s.size() && istarts_with(s, p + 2, name) && (is_html_space(s[q]) || s[q] == '/' || s[q] == '>')) return p;
  }
  return std::string_view::npos;
}

struct Tag {
  std::string_view name;
  std::vector<std::string_view> attrs;  // each "name" or "name=value" as written
  bool self_closing = false;
  size_t end = 0;  // just past '>'
};

// Reads a tag whose name starts at `p` (after "<" or "</") with the tokenizer's
// tag, attribute and self-closing states. False at end of input (the
// tokenizer then drops the tag).
bool read_tag(std::string_view s, size_t p, Tag& t) {
  const size_t n = s.size();
  size_t b = p;
  while (p < n && !is_html_space(s[p]) && s[p] != '/' && s[p] != '>') ++p;
  t.name = s.substr(b, p - b);
  t.attrs.clear();
  t.self_closing = false;
  enum { kBeforeName, kName, kAfterName, kBeforeValue, kSelfClosing } st = kBeforeName;
  size_t attr = 0;
  auto end_attr = [&](size_t e) { t.attrs.push_back(s.substr(attr, e - attr)); };
  while (p < n) {
    char c = s[p];
    switch (st) {
      case kBeforeName:
        if (is_html_space(c)) break;
        if (c == '/') { st = kSelfClosing; break; }
        if (c == '>') { t.end = p + 1; return true; }
        attr = p;
        st = kName;
        break;
      case kName:
        if (is_html_space(c)) { st = kAfterName; break; }
        if (c == '/') { end_attr(p); st = kSelfClosing; break; }
        if (c == '=') { st = kBeforeValue; break; }
        if (c == '>') { end_attr(p); t.end = p + 1; return true; }
        break;
      case kAfterName:
        if (is_html_space(c)) break;
        if (c == '/') { end_attr(p); st = kSelfClosing; break; }
        if (c == '=') { st = kBeforeValue; break; }
        if (c == '>') { end_attr(p); t.end = p + 1; return true; }
        end_attr(p);  // a new attribute starts here
        attr = p;
        st = kName;
        break;
      case kBeforeValue:
        if (is_html_space(c)) break;
        if (c == '>') { end_attr(p); t.end = p + 1; return true; }
        if (c == '"' || c == '\'') {
          size_t q = s.find(c, p + 1);
          if (q == std::string_view::npos) return false;
          end_attr(q + 1);
          p = q + 1;  // after a quoted value: like "before attribute name", '/' and '>' as usual
          st = kBeforeName;
          continue;
        }
        // unquoted: up to white space or '>'
        while (p < n && !is_html_space(s[p]) && s[p] != '>') ++p;
        end_attr(p);
        st = kBeforeName;
        continue;
      case kSelfClosing:
        if (c == '>') { t.self_closing = true; t.end = p + 1; return true; }
        st = kBeforeName;
        continue;  // reconsume
    }
    ++p;
  }
  return false;
}

class Prescanner {
 public:
  Prescanner(std::string_view in, HtmlPrescan& o) : s_(in), o_(o) {}

  void run() {
    const size_t n = s_.size();
    size_t i = 0;
    while (i < n) {
      char c = s_[i];
      if (c == '<') {
        i = markup(i);
        continue;
      }
      if (c == '&') {  // a character reference: copied whole, so it decodes as before
        size_t j = i + 1;
        if (j < n && s_[j] == '#') ++j;
        while (j < n && is_alnum(s_[j])) ++j;
        if (j < n && s_[j] == ';') ++j;
        o_.html.append(s_.substr(i, j - i));
        i = j;
        continue;
      }
      if (c == '\0') {
        o_.html += c;
        ++i;
        continue;
      }
      if (size_t w = gumbo_replaced(s_, i)) {  // copied, so gumbo replaces it on both paths
        o_.html.append(s_.substr(i, w));
        i += w;
        continue;
      }
      if (is_html_space(c)) {
        bool line = false;
        for (; i < n && is_html_space(s_[i]); ++i) line |= s_[i] == '\n' || s_[i] == '\r';
        o_.html += line ? '\n' : ' ';
        continue;
      }
      size_t j = i, last = i;
      for (; j < n; ++j) {
        char d = s_[j];
        if (d == '<' || d == '&' || d == '\r' || d == '\0' || gumbo_replaced(s_, j)) break;
        if (!is_html_space(d)) last = j;
      }
      text(i, last + 1);
      i = last + 1;
    }
  }

 private:
  void text(size_t b, size_t e) {
    if (e - b < kMinRun || o_.runs.size() == kMaxRuns) {
      o_.html.append(s_.substr(b, e - b));
      return;
    }
    put_marker(o_.html, o_.runs.size());
    o_.runs.push_back(s_.substr(b, e - b));
  }

  // Copies the rest of the page unchanged; returns the end.
  size_t rest(size_t from) {
    o_.html.append(s_.substr(from));
    return s_.size();
  }

  // Handles the '<' at `i`; returns where to go on.
  size_t markup(size_t i) {
    const size_t n = s_.size();
    if (i + 1 >= n) return rest(i);
    char c = s_[i + 1];
    if (c == '!') {
      if (s_.compare(i + 2, 2, "--") == 0) return comment(i);
      if (istarts_with(s_, i + 2, "doctype")) {  // ends at the first '>', even inside quotes
        size_t e = s_.find('>', i);
        if (e == std::string_view::npos) return rest(i);
        o_.html.append(s_.substr(i, e + 1 - i));
        return e + 1;
      }
      return bogus_comment(i);  // also <![CDATA[ outside svg and math
    }
    if (c == '?') return bogus_comment(i);
    if (c == '/') {
      if (i + 2 >= n) return rest(i);
      char d = s_[i + 2];
      if (d == '>') return i + 3;  // "</>" is dropped by the tokenizer
      if (!is_ascii_alpha(d)) return bogus_comment(i);
      if (!read_tag(s_, i + 2, tag_)) return rest(i);
      return end_tag(i, tag_);
    }
    if (!is_ascii_alpha(c)) {  // a '<' that starts no tag is text
      // Written as a reference: what follows it here may be the text after
      // markup this copy drops ("<</>o" is the text "<o", but "<" + "o"
      // would open a tag).
      o_.html += "&lt;";
      return i + 1;
    }
    if (!read_tag(s_, i + 1, tag_)) return rest(i);
    return start_tag(i, tag_);
  }

  // "<!--" at i: the comment ends at "<!-->", "<!--->", or the first "-->" or "--!>".
  size_t comment(size_t i) {
    size_t p = i + 4, e;
    if (p < s_.size() && s_[p] == '>') e = p;
    else if (s_.compare(p, 2, "->") == 0) e = p + 1;
    else {  // one scan for "--", so a page of many comments stays linear
      e = std::string_view::npos;
      for (size_t q = s_.find("--", p); q != std::string_view::npos; q = s_.find("--", q + 1)) {
        if (q + 2 < s_.size() && s_[q + 2] == '>') e = q + 2;
        else if (q + 3 < s_.size() && s_[q + 2] == '!' && s_[q + 3] == '>') e = q + 3;
        if (e != std::string_view::npos) break;
      }
      if (e == std::string_view::npos) return rest(i);
    }
    o_.html += "<!---->";
    return e + 1;
  }

  size_t bogus_comment(size_t i) {
    size_t e = s_.find('>', i);
    if (e == std::string_view::npos) return rest(i);
    o_.html += "<!---->";
    return e + 1;
  }

  size_t end_tag(size_t i, const Tag& t) {
    if (in_select_) {
      if (iequals(t.name, "select")) in_select_ = false;
      else if (!name_in(t.name, {"option", "optgroup"})) return rest(i);  // e.g. </td> may close the select
    }
    o_.html += "</";
    o_.html.append(t.name);
    o_.html += '>';
    return t.end;
  }

  size_t start_tag(size_t i, const Tag& t) {
    const std::string_view name = t.name;
    if (name_in(name, {"svg", "math", "template", "frameset"})) return rest(i);
    const bool was_select = in_select_;
    if (in_select_) {  // <select> in a select closes it; input, keygen and textarea close it too
      if (name_in(name, {"select", "input", "keygen", "textarea"})) in_select_ = false;
      else if (!name_in(name, {"option", "optgroup", "hr", "script"})) return rest(i);
    }
    o_.html += '<';
    o_.html.append(name);
    if (name_in(name, {"html", "a", "link", "base", "input", "font", "isindex"}))
      for (std::string_view a : t.attrs) {
        // An attribute named "=..." (after a '/', as in `hreflang/=x`) is
        // written after " /": after a bare space the '=' would give the
        // attribute before it a value instead.
        o_.html += !a.empty() && a.front() == '=' ? " /" : " ";
        o_.html.append(a);
      }
    if (t.self_closing) o_.html += '/';
    o_.html += '>';
    if (!was_select && iequals(name, "select")) in_select_ = true;
    if (iequals(name, "plaintext")) return rest(t.end);
    if (iequals(name, "script")) return script(t.end);
    if (name_in(name, {"style", "xmp", "iframe", "noembed", "noframes", "title", "textarea"})) {
      size_t e = find_end_tag(s_, t.end, lower_name(name));
      if (e == std::string_view::npos) return rest(t.end);
      o_.html.append(s_.substr(t.end, e - t.end));
      return e;
    }
    return t.end;
  }

  // Script data from `b`: ends at the first "</script" unless "<!--" and then
  // "<script" put the tokenizer in its double-escaped state first; then the
  // rest is copied.
  size_t script(size_t b) {
    size_t e = find_end_tag(s_, b, "script");
    if (e == std::string_view::npos) return rest(b);
    std::string_view body = s_.substr(b, e - b);
    size_t open = body.find("<!--");
    if (open != std::string_view::npos) {
      for (size_t p = body.find('<', open + 4); p != std::string_view::npos; p = body.find('<', p + 1))
        if (istarts_with(body, p + 1, "script")) return rest(b);
    }
    o_.html.append(body);
    return e;
  }

  std::string lower_name(std::string_view name) {
    std::string r(name);
    for (char& c : r) c = ascii_lower(c);
    return r;
  }

  std::string_view s_;
  HtmlPrescan& o_;
  Tag tag_;
  bool in_select_ = false;
};

}  // namespace

void html_prescan(std::string_view in, HtmlPrescan& out) {
  out.html.clear();
  out.runs.clear();
  out.reduced = false;
  if (has_private_planes(in)) return;
  out.html.reserve(in.size() / 2);
  Prescanner(in, out).run();
  out.reduced = true;
}

bool html_prescan_marker(const char* p, const char* end, const std::vector<std::string_view>& runs,
                         std::string_view& text) {
  if (end - p < 4) return false;
  auto b0 = static_cast<unsigned char>(p[0]);
  if (b0 != 0xF3 && b0 != 0xF4) return false;
  uint32_t cp = (uint32_t{b0} & 0x07) << 18 | (uint32_t(static_cast<unsigned char>(p[1])) & 0x3F) << 12 |
                (uint32_t(static_cast<unsigned char>(p[2])) & 0x3F) << 6 |
                (uint32_t(static_cast<unsigned char>(p[3])) & 0x3F);
  if (cp < 0xF0000) return false;
  size_t i = size_t{(cp - 0xF0000) >> 16} * kPlaneRuns + (cp & 0xFFFF);
  if ((cp & 0xFFFF) >= kPlaneRuns || i >= runs.size()) return false;
  text = runs[i];
  return true;
}

}  // namespace corpus
