#include "libcorpus/ingest/html_nesting.h"
#include "libcorpus/core/ascii.h"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace corpus {

namespace {

enum Flag : uint32_t {
  kVoid = 1,         // never pushed
  kSpecial = 2,      // the HTML5 "special" category: stops </span> and the <li> walk
  kClosesP = 4,      // its start tag closes an open <p> in button scope
  kFormatting = 8,   // on the list of active formatting elements
  kScope = 16,       // a boundary of the default scope
  kMarker = 32,      // puts a marker on the formatting list (cells, captions, ...)
  kRawText = 64,     // content up to its end tag is text
  kHeading = 128,    // h1-h6: one closes another that is the current node
  kTablePart = 256,  // tbody, thead, tfoot, tr, td, th, caption, colgroup: need an open table
  kIgnored = 512,    // html, head, body: merged into the ones there, never pushed again
  kLiStop = 1024,    // special but not address, div or p: ends the <li>/<dd> walk
  kForeign = 2048,   // svg, math: their content is foreign
};

struct Known {
  std::string_view name;
  uint32_t flags;
};

constexpr uint32_t kSp = kSpecial | kLiStop;
constexpr Known kKnown[] = {
    {"a", kFormatting}, {"address", kSpecial | kClosesP}, {"applet", kSp | kScope | kMarker},
    {"area", kVoid}, {"article", kSp | kClosesP}, {"aside", kSp | kClosesP}, {"b", kFormatting},
    {"base", kVoid}, {"basefont", kVoid}, {"bgsound", kVoid}, {"big", kFormatting},
    {"blockquote", kSp | kClosesP}, {"body", kIgnored}, {"br", kVoid}, {"button", kSp},
    {"caption", kSp | kScope | kMarker | kTablePart}, {"center", kSp | kClosesP}, {"code", kFormatting},
    {"col", kVoid}, {"colgroup", kSp | kTablePart}, {"dd", kSp | kClosesP}, {"details", kSp | kClosesP},
    {"dialog", kClosesP}, {"dir", kSp | kClosesP}, {"div", kSpecial | kClosesP}, {"dl", kSp | kClosesP},
    {"dt", kSp | kClosesP}, {"em", kFormatting}, {"embed", kVoid}, {"fieldset", kSp | kClosesP},
    {"figcaption", kSp | kClosesP}, {"figure", kSp | kClosesP}, {"font", kFormatting},
    {"footer", kSp | kClosesP}, {"form", kSp | kClosesP}, {"frame", kVoid}, {"h1", kSp | kClosesP | kHeading},
    {"h2", kSp | kClosesP | kHeading}, {"h3", kSp | kClosesP | kHeading}, {"h4", kSp | kClosesP | kHeading},
    {"h5", kSp | kClosesP | kHeading}, {"h6", kSp | kClosesP | kHeading}, {"head", kIgnored},
    {"header", kSp | kClosesP}, {"hgroup", kSp | kClosesP}, {"hr", kVoid | kClosesP}, {"html", kIgnored},
    {"i", kFormatting}, {"iframe", kRawText}, {"image", kVoid}, {"img", kVoid}, {"input", kVoid},
    {"isindex", kVoid}, {"keygen", kVoid}, {"li", kSp | kClosesP}, {"link", kVoid},
    {"listing", kSp | kClosesP}, {"main", kSp | kClosesP}, {"marquee", kSp | kScope | kMarker},
    {"math", kForeign}, {"menu", kSp | kClosesP}, {"meta", kVoid}, {"nav", kSp | kClosesP},
    {"nobr", kFormatting}, {"noembed", kRawText}, {"noframes", kRawText},
    {"object", kSp | kScope | kMarker}, {"ol", kSp | kClosesP}, {"p", kSpecial | kClosesP},
    {"param", kVoid}, {"plaintext", kRawText | kClosesP}, {"pre", kSp | kClosesP}, {"ruby", 0}, {"s", kFormatting},
    {"script", kRawText}, {"section", kSp | kClosesP}, {"small", kFormatting}, {"source", kVoid}, {"span", 0},
    {"strike", kFormatting}, {"strong", kFormatting}, {"style", kRawText}, {"sub", 0},
    {"summary", kSp | kClosesP}, {"sup", 0}, {"svg", kForeign}, {"table", kSp | kScope}, {"tbody", kSp | kTablePart},
    {"td", kSp | kScope | kMarker | kTablePart}, {"template", kSp | kScope},  // gumbo 0.10.1 puts no marker for it
    {"textarea", kRawText}, {"tfoot", kSp | kTablePart}, {"th", kSp | kScope | kMarker | kTablePart},
    {"thead", kSp | kTablePart}, {"title", kRawText}, {"tr", kSp | kTablePart}, {"track", kVoid},
    {"tt", kFormatting}, {"u", kFormatting}, {"ul", kSp | kClosesP}, {"var", 0}, {"wbr", kVoid},
    {"xmp", kRawText | kClosesP},
};
constexpr uint32_t kKnownCount = std::size(kKnown);
static_assert(std::is_sorted(std::begin(kKnown), std::end(kKnown),
                             [](const Known& a, const Known& b) { return a.name < b.name; }),
              "kKnown stays in name order (KnownIndex finds names by hash)");


// The end of the tag whose name starts at `p` (just past '>'), with the
// tokenizer's attribute states, so a '>' or '<' inside a quoted value does
// not end the tag; npos when the page ends first (the tokenizer drops it).
size_t tag_end(std::string_view s, size_t p, bool& self_closing, std::string_view& attrs) {
  const size_t n = s.size();
  while (p < n && !is_html_space(s[p]) && s[p] != '/' && s[p] != '>') ++p;
  const size_t a = p;
  bool before_value = false, unquoted = false, slash = false;
  for (; p < n; ++p) {
    const char c = s[p];
    if (unquoted) {  // a '/' in an unquoted value is part of it
      if (c == '>') break;
      unquoted = !is_html_space(c);
      continue;
    }
    if (c == '>') break;
    if (before_value) {
      if (is_html_space(c)) continue;
      before_value = false;
      slash = false;
      if (c == '"' || c == '\'') {
        p = s.find(c, p + 1);
        if (p == std::string_view::npos) return p;
      } else {
        unquoted = true;
      }
      continue;
    }
    slash = c == '/';
    if (c == '=') before_value = true;
  }
  if (p >= n) return std::string_view::npos;
  self_closing = slash && !unquoted;
  attrs = s.substr(a, p - a);
  return p + 1;
}

// The start of "</name" + (white space, '/' or '>') from `from`, or npos.
size_t raw_text_end(std::string_view s, size_t from, std::string_view name) {
  for (size_t p = s.find("</", from); p != std::string_view::npos; p = s.find("</", p + 2)) {
    size_t q = p + 2 + name.size();
    if (q >= s.size()) return std::string_view::npos;
    bool same = true;
    for (size_t k = 0; k < name.size() && same; ++k) same = ascii_lower(s[p + 2 + k]) == name[k];
    if (same && (is_html_space(s[q]) || s[q] == '/' || s[q] == '>')) return p;
  }
  return std::string_view::npos;
}

// True when a <font> tag's attributes name color, face or size: only then
// does it leave foreign content.
bool font_breaks_out(std::string_view attrs) {
  size_t p = 0;
  const size_t n = attrs.size();
  while (p < n) {
    while (p < n && (is_html_space(attrs[p]) || attrs[p] == '/')) ++p;
    size_t b = p;
    while (p < n && !is_html_space(attrs[p]) && attrs[p] != '=' && attrs[p] != '/') ++p;
    std::string name;
    for (size_t k = b; k < p; ++k) name += ascii_lower(attrs[k]);
    if (name == "color" || name == "face" || name == "size") return true;
    while (p < n && is_html_space(attrs[p])) ++p;
    if (p < n && attrs[p] == '=') {
      ++p;
      while (p < n && is_html_space(attrs[p])) ++p;
      if (p < n && (attrs[p] == '"' || attrs[p] == '\'')) {
        size_t q = attrs.find(attrs[p], p + 1);
        p = q == std::string_view::npos ? n : q + 1;
      } else {
        while (p < n && !is_html_space(attrs[p])) ++p;
      }
    }
    if (p == b) ++p;
  }
  return false;
}

uint64_t hash_bytes(std::string_view s, uint64_t h) {
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  return h;
}

class Estimator {
 public:
  explicit Estimator(size_t stop_above) : stop_(stop_above) {}

  size_t run(std::string_view s);

 private:
  struct Open {
    uint32_t id;
    uint32_t flags;
    bool foreign;  // an svg or math element, or inside one
    uint64_t key;  // formatting elements: name and attributes, for Noah's Ark
  };
  // The formatting elements a block closed, which the tree builder reopens
  // where text or an inline element goes on: per table cell (marker), up to
  // 3 per key.
  struct Segment {
    std::unordered_map<uint64_t, uint8_t> per_key;
    std::vector<std::pair<uint32_t, uint64_t>> pending;  // id, key
  };

  static int64_t top(const std::vector<uint32_t>& v) { return v.empty() ? -1 : int64_t{v.back()}; }
  int64_t last(uint32_t id) const { return top(by_name_[id]); }
  uint32_t flags_of(uint32_t id) const { return id < kKnownCount ? kKnown[id].flags : 0; }
  uint32_t known(std::string_view name) const;
  uint32_t intern(std::string_view name);
  // Foreign elements have ids of their own, so no HTML rule ever finds them.
  uint32_t foreign_id(std::string_view name) { return intern(std::string("\x01").append(name)); }

  bool integration(uint32_t id) const {
    return std::find(std::begin(integration_), std::end(integration_), id) != std::end(integration_);
  }
  // A foreign element takes no HTML rule; an integration point is a scope
  // boundary (and special) as in HTML5.
  void push(uint32_t id, uint64_t key, bool foreign) {
    const uint32_t f = !foreign ? flags_of(id) : integration(id) ? kSpecial | kLiStop | kScope : 0;
    const auto at = static_cast<uint32_t>(stack_.size());
    stack_.push_back({id, f, foreign, key});
    by_name_[id].push_back(at);
    if (f & kSpecial) special_.push_back(at);
    if (f & kLiStop) li_stop_.push_back(at);
    if (f & kScope) scope_.push_back(at);
    if (!foreign && (id == table_ || id == template_)) table_scope_.push_back(at);
    if (!foreign) html_.push_back(at);
    if (f & kMarker) segments_.emplace_back();
    depth_max_ = std::max(depth_max_, depth());
  }
  // Pops the elements at `at` and above; `closed` (a formatting end tag's
  // element) is not reopened later.
  void pop_to(int64_t at, int64_t closed = -1) {
    while (static_cast<int64_t>(stack_.size()) > at) {
      const Open o = stack_.back();
      const auto pos = static_cast<int64_t>(stack_.size() - 1);
      stack_.pop_back();
      by_name_[o.id].pop_back();
      if (o.flags & kSpecial) special_.pop_back();
      if (o.flags & kLiStop) li_stop_.pop_back();
      if (o.flags & kScope) scope_.pop_back();
      if (!o.foreign && (o.id == table_ || o.id == template_)) table_scope_.pop_back();
      if (!o.foreign) html_.pop_back();
      if (o.flags & kMarker) {  // a cell or caption ends its formatting elements
        Segment seg = std::move(segments_.back());
        segments_.pop_back();
        if (o.id == td_ || o.id == th_ || o.id == caption_) {
          reopen_ -= seg.pending.size();
        } else {  // gumbo leaves an <object>'s marker when something else pops it: kept, counted
          auto& to_pending = segments_.back().pending;
          to_pending.insert(to_pending.end(), seg.pending.begin(), seg.pending.end());
          for (const auto& [k, c] : seg.per_key) {
            uint8_t& to = segments_.back().per_key[k];
            to = static_cast<uint8_t>(std::min(3, to + c));
          }
        }
      }
      if ((o.flags & kFormatting) && pos != closed) {
        Segment& seg = segments_.back();
        uint8_t& c = seg.per_key[o.key];
        if (c < 3) {
          ++c;
          seg.pending.emplace_back(o.id, o.key);
          ++reopen_;
        }
      }
    }
    depth_max_ = std::max(depth_max_, depth());
  }
  // Reopens the formatting elements of the innermost cell (or the page).
  void reconstruct() {
    Segment& seg = segments_.back();
    if (seg.pending.empty()) return;
    std::vector<std::pair<uint32_t, uint64_t>> again = std::move(seg.pending);
    seg.pending.clear();
    reopen_ -= again.size();
    for (const auto& [id, key] : again) {
      uint8_t& c = seg.per_key[key];
      if (c > 0) --c;
      push(id, key, false);
    }
  }
  size_t depth() const { return stack_.size() + reopen_ + 3; }  // + html, body and a void element or text inside
  int64_t table_top() const { return top(table_scope_); }
  // In a table (its cells too), or in a table part of a template: one of the
  // tree builder's table modes.
  bool table_mode() const {
    const int64_t t = table_top();
    if (t < 0) return false;
    return stack_[static_cast<size_t>(t)].id == table_ || (stack_.back().flags & kTablePart);
  }
  // A select opened in table mode (its key says so): a table tag ends it.
  bool select_in_table() const { return last(select_) >= 0 && (stack_[static_cast<size_t>(last(select_))].key & 1); }
  // The select rules (most tags dropped) apply only to a select opened with
  // no svg or math open below it: gumbo keeps nesting the tags after
  // <math><foreignObject><select>, so dropping them there let a page of a
  // million <q> past the guard.
  bool in_select() const {
    const int64_t s = last(select_);
    return s > last(template_) && !(stack_[static_cast<size_t>(s)].key & 2);
  }

  // Closes an open <p> in button scope.
  // Not special, yet their start tags reopen nothing (ruby parts, head
  // elements, raw text, ...). Reopening more would be no safer: an element
  // reopened before an <rt> is then popped with it.
  bool no_reopen(uint32_t id) const {
    for (uint32_t x : no_reopen_)
      if (x == id) return true;
    return false;
  }
  void close_p() {
    if (last(p_) >= 0 && last(p_) >= std::max(top(scope_), last(button_))) pop_to(last(p_));
  }
  void start_tag(uint32_t id, std::string_view attrs, bool self_closing);
  void end_tag(uint32_t id);
  void table_part(uint32_t id);

  size_t stop_;
  size_t depth_max_ = 3;
  size_t reopen_ = 0;
  std::vector<Open> stack_;
  std::vector<std::vector<uint32_t>> by_name_ = std::vector<std::vector<uint32_t>>(kKnownCount);  // id -> positions in stack_
  std::vector<uint32_t> special_, li_stop_, scope_, table_scope_, html_;
  std::vector<Segment> segments_ = std::vector<Segment>(1);
  std::unordered_map<std::string, uint32_t> custom_;
  std::string name_;
  uint32_t p_ = known("p"), li_ = known("li"), dd_ = known("dd"), dt_ = known("dt"), a_ = known("a"),
           nobr_ = known("nobr"), button_ = known("button"), table_ = known("table"),
           template_ = known("template"), td_ = known("td"), th_ = known("th"), tr_ = known("tr"),
           tbody_ = known("tbody"), thead_ = known("thead"), tfoot_ = known("tfoot"),
           caption_ = known("caption"), colgroup_ = known("colgroup"), option_ = intern("option"),
           optgroup_ = intern("optgroup"), ruby_ = intern("ruby"), rb_ = intern("rb"), rp_ = intern("rp"),
           rt_ = intern("rt"), rtc_ = intern("rtc"), select_ = intern("select"),
           input_ = known("input"), keygen_ = known("keygen"), textarea_ = known("textarea"), form_ = known("form"), ul_ = known("ul"), ol_ = known("ol");
  uint32_t applet_ = known("applet"), marquee_ = known("marquee"), object_ = known("object"), xmp_ = known("xmp"),
           script_ = known("script");
  // Elements of svg and math whose content is HTML again.
  uint32_t integration_[9] = {foreign_id("foreignobject"), foreign_id("desc"),  foreign_id("title"),
                              foreign_id("mi"),            foreign_id("mo"),    foreign_id("mn"),
                              foreign_id("ms"),            foreign_id("mtext"), foreign_id("annotation-xml")};
  uint32_t breakout_[45] = {
      known("b"),    known("big"),     known("blockquote"), known("body"), known("br"),   known("center"),
      known("code"), known("dd"),      known("div"),        known("dl"),   known("dt"),   known("em"),
      known("embed"), known("h1"),     known("h2"),         known("h3"),   known("h4"),   known("h5"),
      known("h6"),   known("head"),    known("hr"),         known("i"),    known("img"),  known("li"),
      known("listing"), known("menu"), known("meta"),       known("nobr"), known("ol"),   known("p"),
      known("pre"),  known("ruby"),    known("s"),          known("small"), known("span"), known("strong"),
      known("strike"), known("sub"),   known("sup"),        known("table"), known("tt"),  known("u"),
      known("ul"),   known("var"),     known("font")};  // <font> only with color, face or size
  uint32_t font_ = known("font");
  uint32_t no_reopen_[21] = {rb_,           rp_,            rt_,           rtc_,           known("param"),
                             known("source"), known("track"), textarea_,    known("iframe"), known("noembed"),
                             known("noframes"), known("hr"),  known("title"), known("style"), known("script"),
                             known("link"),  known("meta"),   known("base"), known("basefont"), known("bgsound"),
                             known("frame")};
};

// kKnown by name through a small open-addressing table: known() runs for
// every tag (and for a few fixed names per start tag), and the binary search
// of string comparisons it replaces was 6% of pc-ingest's instructions.
class KnownIndex {
 public:
  KnownIndex() {
    slots_.fill(kEmpty);
    for (uint32_t i = 0; i < kKnownCount; ++i) {
      max_len_ = std::max(max_len_, kKnown[i].name.size());
      size_t h = hash(kKnown[i].name) & kMask;
      while (slots_[h] != kEmpty) h = (h + 1) & kMask;
      slots_[h] = static_cast<uint16_t>(i);
    }
  }
  uint32_t find(std::string_view name) const {
    if (name.empty() || name.size() > max_len_) return kKnownCount;
    for (size_t h = hash(name) & kMask;; h = (h + 1) & kMask) {
      if (slots_[h] == kEmpty) return kKnownCount;
      if (kKnown[slots_[h]].name == name) return slots_[h];
    }
  }

 private:
  static constexpr size_t kSlots = 512, kMask = kSlots - 1;  // under a quarter full
  static constexpr uint16_t kEmpty = 0xFFFF;
  static size_t hash(std::string_view s) {
    size_t h = 2166136261u;
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h ^ (h >> 9);
  }
  std::array<uint16_t, kSlots> slots_{};
  size_t max_len_ = 0;
};

uint32_t Estimator::known(std::string_view name) const {
  static const KnownIndex index;
  return index.find(name);
}

uint32_t Estimator::intern(std::string_view name) {
  uint32_t k = known(name);
  if (k != kKnownCount) return k;
  // Gumbo matches an end tag to an element by its tag number, and every name
  // it does not know has the same one: </x-a> closes an open <x-b>.
  if (name[0] != '\x01' && gumbo_tagn_enum(name.data(), static_cast<unsigned>(name.size())) == GUMBO_TAG_UNKNOWN)
    name = "\x02unknown";
  auto [it, added] = custom_.try_emplace(std::string(name), static_cast<uint32_t>(by_name_.size()));
  if (added) by_name_.emplace_back();
  return it->second;
}

// Cells, rows and sections: the tree builder drops them outside a table,
// closes the open cell / row / section of the innermost table, and adds the
// <tbody> and <tr> a cell needs.
void Estimator::table_part(uint32_t id) {
  const int64_t t = table_top();
  if (t < 0) return;  // dropped
  if (stack_[static_cast<size_t>(t)].id != table_) {  // in a template: kept straight in it or in a table part
    if (stack_.back().id == template_ || (stack_.back().flags & kTablePart)) push(id, 0, false);
    return;
  }
  auto above = [&](uint32_t x) { return last(x) > t ? last(x) : -1; };
  const int64_t section = std::max({above(tbody_), above(thead_), above(tfoot_)});
  if (id == td_ || id == th_) {
    int64_t cell = std::max(above(td_), above(th_));
    if (cell >= 0) pop_to(cell);
    if (above(caption_) >= 0 || above(colgroup_) >= 0) pop_to(t + 1);
    const int64_t row = above(tr_);
    if (row >= 0) {
      pop_to(row + 1);
    } else {
      if (section >= 0) pop_to(section + 1);
      else {
        pop_to(t + 1);
        push(tbody_, 0, false);
      }
      push(tr_, 0, false);
    }
  } else if (id == tr_) {
    const int64_t row = above(tr_);
    if (row >= 0) pop_to(row);
    else if (above(caption_) >= 0 || above(colgroup_) >= 0) pop_to(t + 1);
    if (section >= 0) pop_to(section + 1);
    else {
      pop_to(t + 1);
      push(tbody_, 0, false);
    }
  } else {  // a section, caption or colgroup: straight under the table
    pop_to(t + 1);
  }
  push(id, 0, false);
}

void Estimator::start_tag(uint32_t id, std::string_view attrs, bool self_closing) {
  const uint32_t f = flags_of(id);
  // Foreign content nests whatever it holds, and a self-closing tag is empty
  // there; the HTML names of the "breakout" list leave it (the foreign
  // elements are popped), and the content of an integration point is HTML.
  const bool foreign_top = !stack_.empty() && stack_.back().foreign && !integration(stack_.back().id);
  const bool breakout = std::find(std::begin(breakout_), std::end(breakout_), id) != std::end(breakout_) &&
                        (id != font_ || font_breaks_out(attrs));
  if (foreign_top && breakout)
    while (!stack_.empty() && stack_.back().foreign && !integration(stack_.back().id)) pop_to(stack_.size() - 1);
  const bool in_foreign = foreign_top && !breakout;
  if (in_foreign) {
    if (!self_closing) push(foreign_id(name_), 0, true);
    return;
  }
  // In a template the tree builder's rules are not followed: whatever is not
  // void nests until </template> (more than gumbo, never less).
  const uint64_t key = (f & kFormatting) ? hash_bytes(attrs, 0xCBF29CE484222325ULL ^ id) : 0;
  if (last(template_) >= 0) {
    if (f & (kVoid | kIgnored)) return;
    if (id == td_ || id == th_ || id == tr_) {  // the <tbody> and <tr> a table adds, whether or not it does
      push(tbody_, 0, false);
      if (id != tr_) push(tr_, 0, false);
    }
    push(id, key, false);
    return;
  }
  // Text-level start tags reopen the formatting elements a block closed.
  const bool reopens = (!(f & (kSpecial | kIgnored)) && !no_reopen(id)) || id == applet_ ||
                       id == marquee_ || id == object_ || id == button_ || id == xmp_;
  if (in_select()) {  // in a select the tree builder drops most tags
    if (id == select_ || id == input_ || id == keygen_ || id == textarea_ ||
        ((id == table_ || ((f & kTablePart) && id != colgroup_)) && select_in_table())) {  // a table tag ends a select in a table
      pop_to(last(select_));
      if (id == select_) return;
    } else {
      if ((id == option_ || id == optgroup_) && stack_.back().id == option_) pop_to(stack_.size() - 1);
      if (id == optgroup_ && stack_.back().id == optgroup_) pop_to(stack_.size() - 1);
      if (id == option_ || id == optgroup_ || id == template_ || id == script_) push(id, 0, false);
      return;  // anything else is dropped
    }
  }
  if (f & (kVoid | kIgnored)) {
    if (f & kClosesP) close_p();
    if (reopens) reconstruct();
    return;
  }
  if (f & kForeign) {
    if (!self_closing) push(foreign_id(name_), 0, true);
    return;
  }
  if (f & kTablePart) return table_part(id);
  if (reopens) reconstruct();
  if (id == table_) {  // a table straight in a table (not in a cell or caption) closes it
    const int64_t t = table_top();
    if (t >= 0 && stack_[static_cast<size_t>(t)].id == table_ &&
        std::max({last(td_), last(th_), last(caption_)}) < t)
      pop_to(t);
    push(id, 0, false);
    return;
  }
  if (f & kClosesP) close_p();
  if ((f & kHeading) && !stack_.empty() && (stack_.back().flags & kHeading)) pop_to(stack_.size() - 1);
  if (id == li_) {
    if (last(li_) >= 0 && last(li_) >= top(li_stop_)) pop_to(last(li_));
  } else if (id == dd_ || id == dt_) {
    int64_t d = std::max(last(dd_), last(dt_));
    if (d >= 0 && d >= top(li_stop_)) pop_to(d);
  } else if (id == a_ || id == nobr_) {  // the adoption agency, where no block is in the way
    if (last(id) >= 0 && last(id) > top(special_)) pop_to(last(id), last(id));
  } else if (id == button_) {
    if (last(button_) >= 0 && last(button_) >= top(scope_)) pop_to(last(button_));
  } else if (id == option_ || id == optgroup_) {
    if (!stack_.empty() && stack_.back().id == option_) pop_to(stack_.size() - 1);
    if (id == optgroup_ && !stack_.empty() && stack_.back().id == optgroup_) pop_to(stack_.size() - 1);
  } else if (id == rb_ || id == rp_ || id == rt_ || id == rtc_) {  // generate implied end tags
    if (last(ruby_) >= 0 && last(ruby_) >= top(scope_))
      while (!stack_.empty()) {
        const uint32_t t = stack_.back().id;
        if (stack_.back().foreign || !(t == rb_ || t == rp_ || t == rt_ || (t == rtc_ && id != rt_ && id != rp_) ||
                                       t == dd_ || t == dt_ || t == li_ || t == option_ || t == optgroup_ || t == p_))
          break;
        pop_to(stack_.size() - 1);
      }
  }
  // A select's key: 1 opened in table mode, 2 opened inside svg or math (a foreign element is open).
  push(id, id == select_ ? table_mode() | (stack_.size() > html_.size() ? 2u : 0u) : key, false);
}

void Estimator::end_tag(uint32_t id) {
  if (html_.size() < stack_.size()) {  // closes a foreign element when only foreign ones are above
    const int64_t f_at = last(foreign_id(name_));
    if (f_at > top(html_)) return pop_to(f_at);
  }
  const uint32_t f = flags_of(id);
  if (in_select() && (id == table_ || ((f & kTablePart) && id != colgroup_)) && select_in_table())
    pop_to(last(select_));  // a select in a table
  if ((f & kHeading) && !in_select()) {  // pops to the innermost heading, of any level
    int64_t h = -1;
    for (uint32_t k = 0; k < kKnownCount; ++k)
      if (kKnown[k].flags & kHeading) h = std::max(h, last(k));
    if (h >= 0 && h >= top(scope_)) pop_to(h);
    return;
  }
  const int64_t at = last(id);
  if (at < 0) return;
  if (id == template_) return pop_to(at);  // whatever is in the way
  if (last(template_) >= 0) {  // in a template: only the current node
    if (at + 1 == static_cast<int64_t>(stack_.size())) pop_to(at);
    return;
  }
  if (in_select() && id != select_) {  // in a select: only the current node
    if (at + 1 == static_cast<int64_t>(stack_.size())) pop_to(at);
    return;
  }
  if (f & kFormatting) {
    if (at > top(special_)) pop_to(at, at);
    return;
  }
  // </form> takes the form out of the stack, but what it holds stays where
  // it is in the tree, and the next element goes in as deep: counted.
  if (id == form_) {
    if (at + 1 == static_cast<int64_t>(stack_.size())) pop_to(at);
    return;
  }
  if (f & kSpecial) {
    int64_t boundary = (f & kTablePart) || id == table_ ? table_top() : top(scope_);
    if (id == p_) boundary = std::max(boundary, last(button_));
    if (id == li_) boundary = std::max(boundary, std::max(last(ul_), last(ol_)));
    if (at >= boundary) pop_to(at);
    return;
  }
  if (at > top(special_)) pop_to(at);  // any other end tag
}

size_t Estimator::run(std::string_view s) {
  const size_t n = s.size();
  size_t i = 0;
  while (i < n && depth_max_ <= stop_) {
    const size_t text = i;
    i = s.find('<', i);
    if (!segments_.back().pending.empty() && (stack_.empty() || !stack_.back().foreign) &&
        !in_select()) {
      const size_t e = std::min(i, n);
      for (size_t k = text; k < e; ++k)
        if (!is_html_space(s[k])) {
          reconstruct();
          break;
        }
    }
    if (i == std::string_view::npos || i + 1 >= n) break;
    const char c = s[i + 1];
    if (c == '!') {
      if (s.compare(i + 2, 2, "--") == 0) {  // ends at "<!-->", "<!--->", "-->" or "--!>"
        size_t p = i + 4;
        if (p < n && s[p] == '>') { i = p + 1; continue; }
        if (s.compare(p, 2, "->") == 0) { i = p + 2; continue; }
        size_t e = std::string_view::npos;
        for (size_t q = s.find("--", p); q != std::string_view::npos; q = s.find("--", q + 1)) {
          if (q + 2 < n && s[q + 2] == '>') e = q + 3;
          else if (q + 3 < n && s[q + 2] == '!' && s[q + 3] == '>') e = q + 4;
          if (e != std::string_view::npos) break;
        }
        if (e == std::string_view::npos) break;
        i = e;
        continue;
      }
      size_t e = s.find('>', i);  // doctype and bogus comments
      if (e == std::string_view::npos) break;
      i = e + 1;
      continue;
    }
    if (c == '?' || (c == '/' && i + 2 < n && !is_ascii_alpha(s[i + 2]))) {
      size_t e = s.find('>', i);
      if (e == std::string_view::npos) break;
      i = e + 1;
      continue;
    }
    const bool end = c == '/';
    const size_t b = i + (end ? 2 : 1);
    if (b >= n || !is_ascii_alpha(s[b])) {
      i = b;
      continue;
    }
    bool self_closing = false;
    std::string_view attrs;
    size_t e = tag_end(s, b, self_closing, attrs);
    if (e == std::string_view::npos) break;
    name_.clear();
    for (size_t p = b; p < n && !is_html_space(s[p]) && s[p] != '/' && s[p] != '>'; ++p) name_ += ascii_lower(s[p]);
    const uint32_t id = intern(name_);
    i = e;
    if (end) {
      end_tag(id);
      continue;
    }
    const bool raw = (flags_of(id) & kRawText) && (stack_.empty() || !stack_.back().foreign);
    start_tag(id, attrs, self_closing);
    if (raw) {
      if (name_ == "plaintext") break;  // the rest of the page is text
      size_t r = raw_text_end(s, i, name_);
      if (r == std::string_view::npos) break;
      if (last(id) >= 0) pop_to(last(id));  // its end tag
      i = r;
    }
  }
  return depth_max_;
}

}  // namespace

size_t html_nesting_depth(std::string_view html, size_t stop_above) { return Estimator(stop_above).run(html); }

}  // namespace corpus
