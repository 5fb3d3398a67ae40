#include "libcorpus/ingest/html_stream.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/ingest/html_tags.h"
#include "libcorpus/ingest/html_tokenizer.h"

namespace corpus {

namespace html {

namespace {

enum Ns : uint8_t { kHtml, kSvg, kMath };

// The insertion modes the model tells apart (§13.2.6.4), read off the stack
// as "reset the insertion mode appropriately" (§13.2.4.1) does.
enum class Mode : uint8_t { body, table, table_body, row, cell, caption, colgroup, select, select_in_table };

// Index categories of an open element.
enum Cat : uint8_t {
  cSpecial = 1,   // §13.2.4.2 special (foreign integration points too)
  cScope = 2,     // a boundary of the default scope
  cMode = 4,      // decides the insertion mode: table parts, select, template
  cHtml = 8,      // an HTML element (not svg or math)
  cHeading = 16,  // h1-h6
  cLiStop = 32,   // special but not address, div or p: ends the <li>/<dd>/<dt> walks
};

struct Open {
  Tag tag;
  uint8_t ns;
  uint8_t cats;
  bool dropped;   // its content is not text (a dropped element or inside one)
  bool walked;    // the block model entered it, so it leaves it too
  bool link;      // <a href>, not dropped
  bool in_link;   // it or an ancestor in the tree is such an <a> (text in it is link text)
  bool html_ip;   // an HTML integration point (svg foreignObject, desc, title; math annotation-xml as HTML)
  bool fostered;  // foster-parented (§13.2.6.1): in the tree it stands before its table
  uint32_t ct;    // for text in it: the table whose cell holds it directly, or 0 (HtmlBlock::table)
  uint32_t table; // the innermost open table's number, 0 if none
  uint64_t fname; // foreign elements: a hash of the name (gumbo matches their end tags by name)
  int32_t anchor = -1;  // the level of anchors_ whose <a> this element is, else -1
};

uint64_t name_hash(std::string_view s) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  return h;
}

// The <a> of the list of active formatting elements after one marker.
struct Anchor {
  bool active = false;  // an <a> is on the list
  bool href = false;
  int64_t pos = -1;     // its element on the stack, -1 when a block closed it (it is reopened on text)
  std::string href_value, hreflang;  // for the links of reopened copies (want_links only)
};

// ASCII white space (' ', \t, \n, \r, \f, \v) as a table, for the text loop.
struct FeedSpaceTable {
  bool v[256];
  constexpr FeedSpaceTable() : v() { v[' '] = v['\t'] = v['\n'] = v['\r'] = v['\f'] = v['\v'] = true; }
};
constexpr FeedSpaceTable kFeedSpace;

bool all_html_space(std::string_view s) {
  for (char c : s)
    if (!is_html_space(c)) return false;
  return true;
}

bool has_word_ci(std::string_view list, std::string_view word) {
  size_t p = 0;
  while (p < list.size()) {
    while (p < list.size() && (list[p] == ' ' || list[p] == '\t' || list[p] == '\n')) ++p;
    size_t s = p;
    while (p < list.size() && list[p] != ' ' && list[p] != '\t' && list[p] != '\n') ++p;
    if (p - s == word.size()) {
      bool same = true;
      for (size_t i = 0; i < word.size() && same; ++i) same = ascii_lower(list[s + i]) == word[i];
      if (same) return true;
    }
  }
  return false;
}

// §13.2.6.4.9: text straight in these is foster-parented.
bool is_table_text_node(Tag t) { return t == table || t == tbody || t == tfoot || t == thead || t == tr; }

bool is_table_part(Tag t) {
  return t == caption || t == col || t == colgroup || t == tbody || t == td || t == tfoot || t == th ||
         t == thead || t == tr;
}

TextMode raw_mode(Tag t) {
  switch (t) {
    case title: case textarea: return TextMode::rcdata;
    case style: case xmp: case iframe: case noembed: case noframes: return TextMode::rawtext;
    case script: return TextMode::script;
    case plaintext: return TextMode::plaintext;
    default: return TextMode::data;
  }
}

// §13.2.6.5: the start tags that leave foreign content.
bool breaks_out(const TagToken& t) {
  switch (t.tag) {
    case b: case big: case blockquote: case body: case br: case center: case code: case dd: case div: case dl:
    case dt: case em: case embed: case h1: case h2: case h3: case h4: case h5: case h6: case head: case hr:
    case i: case img: case li: case listing: case menu: case meta: case nobr: case ol: case p: case pre:
    case ruby: case s: case small: case span: case strong: case strike: case sub: case sup: case table:
    case tt: case u: case ul: case var:
      return true;
    case font:
      return t.has_attr("color") || t.has_attr("face") || t.has_attr("size");
    default:
      return false;
  }
}

class Builder final : public TokenSink {
 public:
  Builder(HtmlPage& page, bool want_links) : page_(page), want_links_(want_links) {}

  void text(std::string_view s) override;
  TextMode tag(const TagToken& t) override;
  bool cdata_allowed() const override { return !st_.empty() && st_.back().ns != kHtml; }
  bool stopped() const override { return stopped_; }
  void doctype(bool quirks) override {
    if (!seen_content_) quirks_ = quirks;  // only as the first token (the "initial" insertion mode)
    seen_content_ = true;
  }

  void finish() {
    if (!table_ws_.empty()) feed_into(cur_, pending_space_, table_ws_, true);
    if (raw_.open) end_raw();
    while (!st_.empty() && !stopped_) pop();
    flush();
    auto& b = page_.blocks;  // the tables' empty placeholders
    b.erase(std::remove_if(b.begin(), b.end(), [](const HtmlBlock& x) { return x.text.empty(); }), b.end());
  }

 private:
  // --- the stack of open elements and its indexes ---
  int64_t last(Tag t) const { return pos_[t].empty() ? -1 : int64_t{pos_[t].back()}; }
  static int64_t top(const std::vector<uint32_t>& v) { return v.empty() ? -1 : int64_t{v.back()}; }
  // "has an element in scope" (§13.2.4.2): no boundary above it (it may be one itself).
  bool in_scope(Tag t) const { return last(t) >= 0 && last(t) >= top(scope_); }
  bool in_button_scope(Tag t) const { return in_scope(t) && last(t) > last(button); }
  bool in_list_scope(Tag t) const { return in_scope(t) && last(t) > last(ol) && last(t) > last(ul); }
  int64_t table_boundary() const { return std::max(last(table), last(template_)); }
  bool in_table_scope(Tag t) const { return last(t) >= 0 && last(t) >= table_boundary(); }
  bool top_is(Tag t) const { return !st_.empty() && st_.back().tag == t && st_.back().ns == kHtml; }
  bool dropped() const { return st_.empty() ? !body_ : st_.back().dropped; }

  uint8_t categories(Tag t, uint8_t ns, bool html_ip) const {
    const uint16_t f = tag_flags(t);
    if (ns != kHtml) {
      const bool ip = (ns == kSvg && (t == foreignobject || t == desc || t == title)) ||
                      (ns == kMath && (t == mi || t == mo || t == mn || t == ms || t == mtext || t == annotation_xml));
      (void)html_ip;
      return ip ? cSpecial | cScope | cLiStop : 0;
    }
    uint8_t c = cHtml;
    if (f & kSpecial) c |= cSpecial | (t == address || t == div || t == p ? 0 : cLiStop);
    if (f & kScope) c |= cScope;
    if (f & kHeading) c |= cHeading;
    if (is_table_part(t) || t == table || t == select || t == template_) c |= cMode;
    return c;
  }
  void index(const Open& o, uint32_t at) {
    if (o.ns == kHtml) pos_[o.tag].push_back(at);
    else foreign_pos_[o.fname].push_back(at);
    if (o.cats & cSpecial) special_.push_back(at);
    if (o.cats & cScope) scope_.push_back(at);
    if (o.cats & cMode) modes_.push_back(at);
    if (o.cats & cHtml) html_pos_.push_back(at);
    if (o.cats & cHeading) headings_.push_back(at);
    if (o.cats & cLiStop) li_stop_.push_back(at);
  }
  void unindex(const Open& o) {
    if (o.ns == kHtml) {
      pos_[o.tag].pop_back();
    } else {
      auto it = foreign_pos_.find(o.fname);
      it->second.pop_back();
      if (it->second.empty()) foreign_pos_.erase(it);
    }
    if (o.cats & cSpecial) special_.pop_back();
    if (o.cats & cScope) scope_.pop_back();
    if (o.cats & cMode) modes_.pop_back();
    if (o.cats & cHtml) html_pos_.pop_back();
    if (o.cats & cHeading) headings_.pop_back();
    if (o.cats & cLiStop) li_stop_.pop_back();
  }
  // Drops the positions >= at from the index stacks `o` is on.
  void unindex_from(const Open& o, uint32_t at) {
    auto trim = [at](std::vector<uint32_t>& v) {
      while (!v.empty() && v.back() >= at) v.pop_back();
    };
    if (o.ns == kHtml) {
      trim(pos_[o.tag]);
    } else if (auto it = foreign_pos_.find(o.fname); it != foreign_pos_.end()) {
      trim(it->second);
      if (it->second.empty()) foreign_pos_.erase(it);
    }
    if (o.cats & cSpecial) trim(special_);
    if (o.cats & cScope) trim(scope_);
    if (o.cats & cMode) trim(modes_);
    if (o.cats & cHtml) trim(html_pos_);
    if (o.cats & cHeading) trim(headings_);
    if (o.cats & cLiStop) trim(li_stop_);
  }

  // Pushes an element; `t` is its tag token (attributes), null for implied ones.
  void push(Tag tg, uint8_t ns, const TagToken* t, bool html_ip = false);
  void pop();
  void pop_to(int64_t at) {
    while (static_cast<int64_t>(st_.size()) > at && !stopped_) pop();
  }
  void remove_at(int64_t at);
  // Pops until the current node is one of `tags` (or the stack is empty).
  void clear_to(std::initializer_list<Tag> tags) {
    while (!st_.empty() && !stopped_) {
      const Open& o = st_.back();
      if (o.ns == kHtml)
        for (Tag x : tags)
          if (o.tag == x) return;
      pop();
    }
  }
  void close_p() {
    if (in_button_scope(p)) pop_to(last(p));
  }
  void generate_implied(Tag except = kUnknown) {
    while (!st_.empty() && st_.back().ns == kHtml && (tag_flags(st_.back().tag) & kImplied) &&
           st_.back().tag != except && !stopped_)
      pop();
  }
  void push_marker() { anchors_.emplace_back(); }
  void clear_marker() {
    if (anchors_.size() > 1) anchors_.pop_back();
  }
  void reconstruct();
  void close_formatting_at(int64_t at);

  Mode mode() const;
  void start_body() {
    body_ = true;
    head_noscript_ = false;
  }
  void void_element(Tag tg, const TagToken& t);
  TextMode raw(Tag tg, const TagToken& t) {
    push(tg, kHtml, &t);
    raw_ = {true, true, tg == title, tg == title && capture_title()};
    if (raw_.title) title_buf_.clear();
    return raw_mode(tg);
  }
  bool capture_title() const { return page_.title.empty() && !(st_.size() >= 2 && st_[st_.size() - 2].dropped); }
  void end_raw() {
    const bool pushed = raw_.pushed;
    if (raw_.title && raw_.capture && page_.title.empty()) page_.title = collapse(title_buf_);
    raw_ = {};
    if (pushed && !st_.empty()) pop();
  }
  void html_lang(const TagToken& t) {
    if (!lang_set_ && t.attr("lang", attr_)) {
      page_.lang = attr_;
      lang_set_ = true;
    }
  }

  TextMode tag_token(const TagToken& t);
  TextMode head_tag(const TagToken& t);
  TextMode template_tag(const TagToken& t);
  TextMode foreign_tag(const TagToken& t);
  TextMode html_start(const TagToken& t);
  void html_end(const TagToken& t);
  TextMode body_start(const TagToken& t);
  void body_end(const TagToken& t);
  void any_other_end(Tag tg) {
    const int64_t at = last(tg);
    if (at >= 0 && at >= top(special_)) pop_to(at);
  }
  void formatting_end(Tag tg);
  TextMode table_start(const TagToken& t);
  void table_end(const TagToken& t);
  TextMode select_start(const TagToken& t, bool in_table);
  void select_end(const TagToken& t, bool in_table);
  void close_cell() {
    pop_to(std::max(last(td), last(th)));
    clear_marker();
  }

  // --- the block model: what html_text.cpp's walker does on gumbo's tree ---
  void enter(const Open& o, const TagToken* t);
  void leave(const Open& o);
  void collect_link(Tag tg, const TagToken& t);
  void feed(std::string_view s);
  void foster_break();
  bool fostering_here() const {
    return !st_.empty() &&
           (st_.back().fostered || (fostering_ && st_.back().ns == kHtml && is_table_text_node(st_.back().tag)));
  }
  void feed_into(HtmlBlock& block, bool& pending_space, std::string_view s, bool pre_lines);
  void flush();
  static std::string collapse(std::string_view s);

  HtmlPage& page_;
  bool want_links_;
  bool stopped_ = false;
  bool body_ = false;          // the body has started (before: the head's rules)
  bool head_noscript_ = false; // §13.2.6.4.5 "in head noscript"
  bool frameset_ = false;
  bool form_pointer_ = false;  // §13.2.4.4 the form element pointer is set
  bool lang_set_ = false;
  bool quirks_ = true;          // no DOCTYPE: quirks mode (§13.2.6.4.1)
  bool seen_content_ = false;   // a token other than white space came
  struct Raw {
    bool open = false;     // the content of a raw text or RCDATA element comes next
    bool pushed = false;   // the element is on the stack (not a head element)
    bool title = false;
    bool capture = false;  // this <title> is the page's title
    bool frameset_text = false;  // <noframes> in a frameset: its raw text is the page's text
  } raw_;
  std::string title_buf_, attr_, attr2_;

  std::vector<Open> st_;
  std::array<std::vector<uint32_t>, kTagCount> pos_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> foreign_pos_;
  std::vector<uint32_t> special_, scope_, modes_, html_pos_, headings_, li_stop_;
  std::vector<Anchor> anchors_ = std::vector<Anchor>(1);
  std::string form_text_;  // text since the last tag while a <form> is open (see tag())
  std::string table_ws_;   // white space straight in a table, until the next text or tag shows where it goes

  // Per open table: the block before it, which fostered text still joins.
  struct Foster {
    size_t block;
    bool pending_space;
    bool open;        // no fostered block element came since
    uint32_t ct = 0;  // HtmlBlock::table of the text before the table
  };
  std::vector<Foster> fosters_;
  bool fostering_ = false;  // body_start runs for "anything else" in a table: what it inserts is fostered

  HtmlBlock cur_;
  bool pending_space_ = false;
  bool heading_ = false;
  int pre_ = 0;
  uint32_t last_table_ = 0;
};

void Builder::push(Tag tg, uint8_t ns, const TagToken* t, bool html_ip) {
  if (st_.size() + 3 > kHtmlMaxNesting) {  // + html, body and a void element: html_nesting.h's count
    stopped_ = true;
    return;
  }
  const Open* parent = st_.empty() ? nullptr : &st_.back();
  Open o{};
  o.tag = tg;
  o.ns = ns;
  o.html_ip = html_ip;
  o.cats = categories(tg, ns, html_ip);
  const uint16_t f = tag_flags(tg);
  o.dropped = (parent && parent->dropped) || !body_ || ns != kHtml || (f & kDrop) || tg == title;
  o.walked = !o.dropped;
  o.link = tg == a && ns == kHtml && !o.dropped && t && t->has_attr("href");
  o.in_link = o.link || (parent && parent->in_link);
  o.table = parent ? parent->table : 0;
  o.ct = parent ? parent->ct : 0;
  o.fname = ns == kHtml ? 0 : name_hash(t ? t->name : tag_name(tg));
  o.fostered = parent && (parent->fostered || (fostering_ && parent->ns == kHtml && is_table_text_node(parent->tag)));
  if (o.fostered && o.walked && (f & kBlock)) foster_break();
  if (o.walked) {
    if (tg == table) o.table = ++last_table_;
    if (f & kBlock) {
      const bool cell = tg == td || tg == th;
      const bool pass = tg == tr || tg == tbody || tg == thead || tg == tfoot;
      o.ct = cell ? (parent ? parent->table : 0) : pass ? (parent ? parent->ct : 0) : 0;
    }
    enter(o, t);
  }
  st_.push_back(o);
  index(st_.back(), static_cast<uint32_t>(st_.size() - 1));
}

void Builder::pop() {
  const Open o = st_.back();
  const auto at = static_cast<int64_t>(st_.size() - 1);
  if (o.walked) leave(o);
  if (o.walked && o.tag == table && !fosters_.empty()) fosters_.pop_back();
  unindex(o);
  st_.pop_back();
  if (o.anchor >= 0 && static_cast<size_t>(o.anchor) < anchors_.size() && anchors_[o.anchor].pos == at)
    anchors_[o.anchor].pos = -1;
}

void Builder::remove_at(int64_t at) {
  if (at + 1 == static_cast<int64_t>(st_.size())) return pop();
  const Open o = st_[static_cast<size_t>(at)];
  if (o.walked) leave(o);
  if (o.walked && o.tag == table && !fosters_.empty()) fosters_.pop_back();
  if (o.anchor >= 0 && static_cast<size_t>(o.anchor) < anchors_.size() && anchors_[o.anchor].pos == at)
    anchors_[o.anchor].pos = -1;
  // Only the positions from `at` up change: the index stacks lose their
  // tails from there and get the moved elements again (time: the distance
  // from the top, not the depth).
  for (size_t k = static_cast<size_t>(at); k < st_.size(); ++k) unindex_from(st_[k], static_cast<uint32_t>(at));
  st_.erase(st_.begin() + at);
  for (size_t k = static_cast<size_t>(at); k < st_.size(); ++k) {
    index(st_[k], static_cast<uint32_t>(k));
    const int32_t lv = st_[k].anchor;
    if (lv >= 0 && static_cast<size_t>(lv) < anchors_.size() && anchors_[lv].pos == static_cast<int64_t>(k) + 1)
      anchors_[lv].pos = static_cast<int64_t>(k);
  }
}

// §13.2.4.3 "reconstruct the active formatting elements", for <a>.
void Builder::reconstruct() {
  Anchor& x = anchors_.back();
  if (!x.active || x.pos >= 0) return;
  push(a, kHtml, nullptr);
  if (stopped_) return;
  Open& o = st_.back();
  o.link = x.href && !o.dropped;
  o.in_link = o.in_link || o.link;
  x.pos = static_cast<int64_t>(st_.size() - 1);
  o.anchor = static_cast<int32_t>(anchors_.size() - 1);
  if (want_links_ && o.walked && x.href) page_.links.push_back({x.href_value, x.hreflang, false});
}

// The adoption agency (§13.2.6.4.7) for the formatting element at `at`, in
// scope. With no special element above it, it and what is above are
// popped. Otherwise its net effect on the stack, after the outer loop has
// cloned the formatting element into each special element above (the
// "furthest blocks"): what is above the last special element is popped, the
// plain elements between are taken out (the blocks they held stay open),
// formatting elements between stay (as clones), and the formatting element
// leaves. Each clone of an <a href> is a link of its own to the walker.
void Builder::close_formatting_at(int64_t at) {
  if (at >= top(special_)) return pop_to(at);
  pop_to(top(special_) + 1);
  const Open fe = st_[static_cast<size_t>(at)];
  const Anchor& x = anchors_.back();
  const bool is_anchor = fe.tag == a && x.pos == at && x.href;
  int clones = 0;
  for (size_t k = special_.size(); k-- > 0 && int64_t{special_[k]} > at;) {
    if (want_links_ && is_anchor && clones < 8 && !st_[special_[k]].dropped)
      page_.links.push_back({x.href_value, x.hreflang, false});
    ++clones;
  }
  for (int64_t k = top(special_) - 1; k > at; --k) {
    const Open& o = st_[static_cast<size_t>(k)];
    if (o.ns != kHtml || (tag_flags(o.tag) & kSpecial)) continue;
    if (!(tag_flags(o.tag) & kFormatting)) {
      remove_at(k);
    } else if (want_links_ && o.tag == a && o.walked && anchors_.back().pos == k && anchors_.back().href) {
      page_.links.push_back({anchors_.back().href_value, anchors_.back().hreflang, false});  // its clone
    }
  }
  remove_at(at);
  // The blocks left the formatting element (moved to the common ancestor):
  // what they hold is link text only under an <a> still above them.
  for (size_t k = static_cast<size_t>(at); k < st_.size(); ++k)
    st_[k].in_link = st_[k].link || (k > 0 && st_[k - 1].in_link);
}

Mode Builder::mode() const {
  if (modes_.empty()) return Mode::body;
  const int64_t at = modes_.back();
  switch (st_[static_cast<size_t>(at)].tag) {
    case td: case th: return Mode::cell;
    case tr: return Mode::row;
    case tbody: case thead: case tfoot: return Mode::table_body;
    case caption: return Mode::caption;
    case colgroup: return Mode::colgroup;
    case table: return Mode::table;
    case select: return last(table) >= 0 && last(table) < at && last(table) > last(template_) ? Mode::select_in_table
                                                                                              : Mode::select;
    default: return Mode::body;
  }
}

void Builder::text(std::string_view s) {
  if (stopped_) return;
  if (raw_.open && raw_.title) {
    if (raw_.capture) title_buf_.append(s);
    return;
  }
  if (raw_.open && raw_.frameset_text) return feed(s);
  if (!seen_content_ && !all_html_space(s)) seen_content_ = true;
  if ((raw_.open && !raw_.pushed) || frameset_ || last(template_) >= 0) return;
  if (body_ && !raw_.open && last(form) >= 0) {  // gumbo inserts it at the next tag: see tag()
    form_text_.append(s);
    return;
  }
  const bool nul = s.size() == 1 && s[0] == '\0';  // the data state's NUL: dropped, but it is not white space
  if (!body_) {
    if (all_html_space(s)) return;  // white space in the head
    start_body();
  }
  if (nul) return;
  if (!st_.empty() && st_.back().ns != kHtml) return;  // foreign content: dropped with svg and math
  Mode m = mode();
  if (m == Mode::select || m == Mode::select_in_table) return;
  if (m == Mode::colgroup && !all_html_space(s)) {  // §13.2.6.4.12: it ends the column group
    if (!top_is(colgroup)) return;
    pop();
    m = mode();
  }
  if (!raw_.open && anchors_.back().active && anchors_.back().pos < 0) {
    // §13.2.6.4.7: characters reopen the formatting elements, except white
    // space straight in a table (§13.2.6.4.9 "in table text").
    const bool table_ws = (m == Mode::table || m == Mode::table_body || m == Mode::row) && all_html_space(s);
    if (!table_ws) {
      fostering_ = true;
      reconstruct();
      fostering_ = false;
    }
  }
  if (dropped()) return;
  feed(s);
}

TextMode Builder::tag(const TagToken& t) {
  seen_content_ = true;
  if (stopped_) return TextMode::data;
  if (!table_ws_.empty()) {  // white space straight in a table stays there
    feed_into(cur_, pending_space_, table_ws_, true);
    table_ws_.clear();
  }
  if (!form_text_.empty()) {
    // Gumbo keeps the characters since the last tag and inserts them when
    // the next token makes it: </form> takes the form off the stack first,
    // so text just before it lands after the form. Else it is in the form.
    std::string held;
    held.swap(form_text_);
    const size_t depth = st_.size();
    const TextMode m = tag_token(t);
    if (t.end && t.tag == form && last(form) < 0) text(held);
    else if (t.end && st_.size() == depth && last(form) >= 0) form_text_ = std::move(held);  // nothing happened: still held
    return m;
  }
  return tag_token(t);
}

TextMode Builder::tag_token(const TagToken& t) {
  if (raw_.open) {
    end_raw();  // its end tag: raw text and RCDATA end at nothing else
    if (t.end) return TextMode::data;
  }
  if (frameset_) {  // §13.2.6.4.20-21 in and after frameset: only <noframes> holds text
    if (t.end || t.tag != noframes) return TextMode::data;
    raw_ = {true, false, false, false, true};
    return TextMode::rawtext;
  }
  if (last(template_) >= 0) return template_tag(t);
  if (!body_) return head_tag(t);
  if (!st_.empty() && st_.back().ns != kHtml) {
    const Open& o = st_.back();
    // §13.2.6 tree construction dispatcher: HTML rules at integration points.
    const bool html_rules =
        !t.end && ((o.ns == kMath && (o.tag == mi || o.tag == mo || o.tag == mn || o.tag == ms || o.tag == mtext) &&
                    t.tag != mglyph && t.tag != malignmark) ||
                   (o.ns == kMath && o.tag == annotation_xml && t.tag == svg) || o.html_ip);
    if (!html_rules) return foreign_tag(t);
  }
  if (t.end) {
    html_end(t);
    return TextMode::data;
  }
  return html_start(t);
}

// §13.2.6.4.1-6: initial, before html, before head, in head, in head
// noscript, after head, as far as they differ for the text.
TextMode Builder::head_tag(const TagToken& t) {
  const Tag tg = t.tag;
  if (head_noscript_) {
    if (!t.end) {
      switch (tg) {
        case html: html_lang(t); return TextMode::data;
        case basefont: case bgsound: case link: case meta: return TextMode::data;  // not the head's own child
        case noframes: case style: raw_ = {true, false, false, false}; return TextMode::rawtext;
        case head: case noscript: return TextMode::data;
        default: head_noscript_ = false; break;  // ends the noscript, then as in head
      }
    } else {
      if (tg == noscript) {
        head_noscript_ = false;
        return TextMode::data;
      }
      if (tg != br) return TextMode::data;
      head_noscript_ = false;
    }
  }
  if (!t.end) {
    switch (tg) {
      case html: html_lang(t); return TextMode::data;
      case base: case basefont: case bgsound: case link: case meta:
        if (want_links_) collect_link(tg, t);
        return TextMode::data;
      case title:
        raw_ = {true, false, true, page_.title.empty()};
        title_buf_.clear();
        return TextMode::rcdata;
      case noframes: case style: raw_ = {true, false, false, false}; return TextMode::rawtext;
      case script: raw_ = {true, false, false, false}; return TextMode::script;
      case noscript: head_noscript_ = true; return TextMode::data;
      case template_:
        push(template_, kHtml, &t);
        push_marker();
        return TextMode::data;
      case head: return TextMode::data;
      case frameset: frameset_ = true; return TextMode::data;
      case body: start_body(); return TextMode::data;
      default: start_body(); return html_start(t);
    }
  }
  if (tg == body || tg == html || tg == br) {
    start_body();
    html_end(t);
  }
  return TextMode::data;
}

// §13.2.6.4.18 in template: its content is not text, so only its end
// matters; elements nest as written until </template>.
TextMode Builder::template_tag(const TagToken& t) {
  const Tag tg = t.tag;
  if (t.end) {
    if (tg == template_) {
      pop_to(last(template_));
      clear_marker();
    } else if (!st_.empty() && st_.back().tag == tg) {
      pop();
    }
    return TextMode::data;
  }
  if (tg == template_) {
    push(template_, kHtml, &t);
    push_marker();
    return TextMode::data;
  }
  if (tag_flags(tg) & kVoid) return TextMode::data;
  const TextMode m = raw_mode(tg);
  if (m != TextMode::data) return raw(tg, t);
  if (!t.self_closing) push(tg, kHtml, &t);
  return TextMode::data;
}

// §13.2.6.5 the rules for parsing tokens in foreign content.
TextMode Builder::foreign_tag(const TagToken& t) {
  if (!t.end) {
    if (breaks_out(t)) {  // pop to an HTML element or an integration point, then the HTML rules
      auto stops = [](const Open& o) {
        return o.ns == kHtml || o.html_ip ||
               (o.ns == kMath && (o.tag == mi || o.tag == mo || o.tag == mn || o.tag == ms || o.tag == mtext));
      };
      while (!st_.empty() && !stops(st_.back()) && !stopped_) pop();
      return tag_token(t);
    }
    const uint8_t ns = st_.back().ns;
    bool ip = ns == kSvg && (t.tag == foreignobject || t.tag == desc || t.tag == title);
    if (ns == kMath && t.tag == annotation_xml && t.attr("encoding", attr_)) {
      const std::string enc = ascii_lower(attr_);
      ip = enc == "text/html" || enc == "application/xhtml+xml";
    }
    push(t.tag, ns, &t, ip);
    if (t.self_closing && !stopped_) pop();
    return TextMode::data;
  }
  // Any other end tag: the innermost foreign element of that name above the
  // last HTML element, else the HTML rules.
  auto fp = foreign_pos_.find(name_hash(t.name));
  if (fp != foreign_pos_.end() && int64_t{fp->second.back()} > top(html_pos_)) {
    pop_to(fp->second.back());
    return TextMode::data;
  }
  html_end(t);
  return TextMode::data;
}

TextMode Builder::html_start(const TagToken& t) {
  switch (mode()) {
    case Mode::select: return select_start(t, false);
    case Mode::select_in_table: return select_start(t, true);
    case Mode::table: return table_start(t);
    case Mode::table_body: {  // §13.2.6.4.13
      const Tag tg = t.tag;
      if (tg == tr) {
        clear_to({tbody, thead, tfoot, template_});
        push(tr, kHtml, &t);
        return TextMode::data;
      }
      if (tg == th || tg == td) {
        clear_to({tbody, thead, tfoot, template_});
        push(tr, kHtml, nullptr);
        return html_start(t);
      }
      if (tg == caption || tg == col || tg == colgroup || tg == tbody || tg == tfoot || tg == thead) {
        if (!in_table_scope(tbody) && !in_table_scope(thead) && !in_table_scope(tfoot)) return TextMode::data;
        clear_to({tbody, thead, tfoot, template_});
        pop();
        return html_start(t);
      }
      return table_start(t);
    }
    case Mode::row: {  // §13.2.6.4.14
      const Tag tg = t.tag;
      if (tg == th || tg == td) {
        clear_to({tr, template_});
        push(tg, kHtml, &t);
        push_marker();
        return TextMode::data;
      }
      if (tg == caption || tg == col || tg == colgroup || tg == tbody || tg == tfoot || tg == thead || tg == tr) {
        if (!in_table_scope(tr)) return TextMode::data;
        clear_to({tr, template_});
        pop();
        return html_start(t);
      }
      return table_start(t);
    }
    case Mode::cell:  // §13.2.6.4.15
      if (is_table_part(t.tag)) {
        if (!in_table_scope(td) && !in_table_scope(th)) return TextMode::data;
        close_cell();
        return html_start(t);
      }
      return body_start(t);
    case Mode::caption:  // §13.2.6.4.11
      if (is_table_part(t.tag)) {
        if (!in_table_scope(caption)) return TextMode::data;
        pop_to(last(caption));
        clear_marker();
        return html_start(t);
      }
      return body_start(t);
    case Mode::colgroup:  // §13.2.6.4.12
      if (t.tag == col) return TextMode::data;
      if (t.tag == template_) return body_start(t);
      if (top_is(colgroup)) {
        pop();
        return html_start(t);
      }
      return TextMode::data;
    case Mode::body: break;
  }
  return body_start(t);
}

void Builder::html_end(const TagToken& t) {
  const Tag tg = t.tag;
  switch (mode()) {
    case Mode::select: return select_end(t, false);
    case Mode::select_in_table: return select_end(t, true);
    case Mode::table: return table_end(t);
    case Mode::table_body:  // §13.2.6.4.13
      if (tg == tbody || tg == tfoot || tg == thead) {
        if (!in_table_scope(tg)) return;
        clear_to({tbody, thead, tfoot, template_});
        pop();
        return;
      }
      if (tg == table) {
        if (!in_table_scope(tbody) && !in_table_scope(thead) && !in_table_scope(tfoot)) return;
        clear_to({tbody, thead, tfoot, template_});
        pop();
        return html_end(t);
      }
      if (tg == body || tg == caption || tg == col || tg == colgroup || tg == html || tg == td || tg == th ||
          tg == tr)
        return;
      return table_end(t);
    case Mode::row:  // §13.2.6.4.14
      if (tg == tr || tg == table || tg == tbody || tg == tfoot || tg == thead) {
        if ((tg == tbody || tg == tfoot || tg == thead) && !in_table_scope(tg)) return;
        if (!in_table_scope(tr)) return;
        clear_to({tr, template_});
        pop();
        if (tg != tr) html_end(t);
        return;
      }
      if (tg == body || tg == caption || tg == col || tg == colgroup || tg == html || tg == td || tg == th) return;
      return table_end(t);
    case Mode::cell:  // §13.2.6.4.15
      if (tg == td || tg == th) {
        if (!in_table_scope(tg)) return;
        pop_to(last(tg));
        clear_marker();
        return;
      }
      if (tg == body || tg == caption || tg == col || tg == colgroup || tg == html) return;
      if (tg == table || tg == tbody || tg == tfoot || tg == thead || tg == tr) {
        if (!in_table_scope(tg)) return;
        close_cell();
        return html_end(t);
      }
      return body_end(t);
    case Mode::caption:  // §13.2.6.4.11
      if (tg == caption || tg == table) {
        if (!in_table_scope(caption)) return;
        pop_to(last(caption));
        clear_marker();
        if (tg == table) html_end(t);
        return;
      }
      if (tg == body || tg == col || tg == colgroup || tg == html || tg == tbody || tg == td || tg == tfoot ||
          tg == th || tg == thead || tg == tr)
        return;
      return body_end(t);
    case Mode::colgroup:  // §13.2.6.4.12
      if (tg == colgroup) {
        if (top_is(colgroup)) pop();
        return;
      }
      if (tg == col) return;
      if (top_is(colgroup)) {
        pop();
        return html_end(t);
      }
      return;
    case Mode::body: break;
  }
  body_end(t);
}

// §13.2.6.4.9 in table.
TextMode Builder::table_start(const TagToken& t) {
  const Tag tg = t.tag;
  switch (tg) {
    case caption:
      clear_to({table, template_});
      push_marker();
      push(caption, kHtml, &t);
      return TextMode::data;
    case colgroup:
      clear_to({table, template_});
      push(colgroup, kHtml, &t);
      return TextMode::data;
    case col:
      clear_to({table, template_});
      push(colgroup, kHtml, nullptr);
      return html_start(t);
    case tbody: case tfoot: case thead:
      clear_to({table, template_});
      push(tg, kHtml, &t);
      return TextMode::data;
    case td: case th: case tr:
      clear_to({table, template_});
      push(tbody, kHtml, nullptr);
      return html_start(t);
    case table:
      if (!in_table_scope(table)) return TextMode::data;
      pop_to(last(table));
      return html_start(t);
    case style: case script: case template_: return body_start(t);
    case input:
      if (t.attr("type", attr_) && ascii_lower(attr_) == "hidden") return TextMode::data;  // a void element in the table
      return body_start(t);
    case form:
      if (!form_pointer_ && last(template_) < 0) form_pointer_ = true;  // inserted and popped at once: empty
      return TextMode::data;
    default: {  // foster parenting
      fostering_ = true;
      const TextMode m = body_start(t);
      fostering_ = false;
      return m;
    }
  }
}

void Builder::table_end(const TagToken& t) {
  const Tag tg = t.tag;
  if (tg == table) {
    if (in_table_scope(table)) pop_to(last(table));
    return;
  }
  if (tg == body || tg == caption || tg == col || tg == colgroup || tg == html || tg == tbody || tg == td ||
      tg == tfoot || tg == th || tg == thead || tg == tr)
    return;
  fostering_ = true;  // anything else: the in-body rules with foster parenting
  body_end(t);
  fostering_ = false;
}

// §13.2.6.4.16-17 in select, in select in table: the select is dropped, so
// only what ends it matters.
TextMode Builder::select_start(const TagToken& t, bool in_table) {
  const Tag tg = t.tag;
  if (in_table && (tg == caption || tg == table || tg == tbody || tg == tfoot || tg == thead || tg == tr ||
                   tg == td || tg == th)) {
    pop_to(last(select));
    return html_start(t);
  }
  switch (tg) {
    case html: html_lang(t); return TextMode::data;
    case option:
      if (top_is(option)) pop();
      push(option, kHtml, &t);
      return TextMode::data;
    case optgroup:
      if (top_is(option)) pop();
      if (top_is(optgroup)) pop();
      push(optgroup, kHtml, &t);
      return TextMode::data;
    case select: pop_to(last(select)); return TextMode::data;
    case input: case keygen: case textarea:
      pop_to(last(select));
      return html_start(t);
    case script: case template_: return body_start(t);
    default: return TextMode::data;
  }
}

void Builder::select_end(const TagToken& t, bool in_table) {
  const Tag tg = t.tag;
  if (in_table && (tg == caption || tg == table || tg == tbody || tg == tfoot || tg == thead || tg == tr ||
                   tg == td || tg == th)) {
    if (!in_table_scope(tg)) return;
    pop_to(last(select));
    return html_end(t);
  }
  switch (tg) {
    case optgroup:
      if (top_is(option) && st_.size() >= 2 && st_[st_.size() - 2].tag == optgroup) pop();
      if (top_is(optgroup)) pop();
      return;
    case option:
      if (top_is(option)) pop();
      return;
    case select: pop_to(last(select)); return;
    default: return;
  }
}

void Builder::void_element(Tag tg, const TagToken& t) {
  if (dropped()) return;
  if (want_links_) collect_link(tg, t);
  if (tg == br && pre_ > 0) {
    flush();
    return;
  }
  if (tag_flags(tg) & kBlock) {  // br, hr: a paragraph ends at both sides
    if (fostering_here()) return foster_break();
    flush();
    flush();
  }
}

// §13.2.6.4.7 in body: start tags.
TextMode Builder::body_start(const TagToken& t) {
  const Tag tg = t.tag;
  const uint16_t f = tag_flags(tg);
  switch (tg) {
    case html: html_lang(t); return TextMode::data;
    case base: case basefont: case bgsound: case link: case meta: void_element(tg, t); return TextMode::data;
    case noframes: case script: case style: case title: return raw(tg, t);
    case template_:
      push(template_, kHtml, &t);
      push_marker();
      return TextMode::data;
    case body: case head: case caption: case col: case colgroup: case frame: case tbody: case td: case tfoot:
    case th: case thead: case tr: case frameset:
      return TextMode::data;
    case h1: case h2: case h3: case h4: case h5: case h6:
      close_p();
      if (!st_.empty() && st_.back().ns == kHtml && (tag_flags(st_.back().tag) & kHeading)) pop();
      push(tg, kHtml, &t);
      return TextMode::data;
    case form:
      if (form_pointer_ && last(template_) < 0) return TextMode::data;
      close_p();
      push(form, kHtml, &t);
      if (last(template_) < 0) form_pointer_ = true;
      return TextMode::data;
    case li: case dd: case dt: {  // the list item walks
      const int64_t item = tg == li ? last(li) : std::max(last(dd), last(dt));
      if (item >= 0 && item >= top(li_stop_)) pop_to(item);
      close_p();
      push(tg, kHtml, &t);
      return TextMode::data;
    }
    case plaintext:
      close_p();
      push(plaintext, kHtml, &t);
      return TextMode::plaintext;
    case button:
      if (in_scope(button)) pop_to(last(button));
      reconstruct();
      push(button, kHtml, &t);
      return TextMode::data;
    case a: {
      Anchor& x = anchors_.back();
      if (x.active) {  // the adoption agency for the open <a>, then it leaves the stack anyway
        x.active = false;
        if (x.pos >= 0 && x.pos >= top(scope_)) close_formatting_at(x.pos);
        else if (x.pos >= 0) remove_at(x.pos);
      }
      reconstruct();
      const bool href = t.attr("href", attr_);
      push(a, kHtml, &t);
      if (stopped_) return TextMode::data;
      Anchor& y = anchors_.back();
      y.active = true;
      y.href = href;
      y.pos = static_cast<int64_t>(st_.size() - 1);
      st_.back().anchor = static_cast<int32_t>(anchors_.size() - 1);
      if (want_links_ && href) {
        y.href_value = attr_;
        y.hreflang = t.attr("hreflang", attr2_) ? attr2_ : std::string();
      }
      return TextMode::data;
    }
    case nobr:
      reconstruct();
      if (in_scope(nobr)) {
        close_formatting_at(last(nobr));
        reconstruct();
      }
      push(nobr, kHtml, &t);
      return TextMode::data;
    case applet: case marquee: case object:
      reconstruct();
      push(tg, kHtml, &t);
      push_marker();
      return TextMode::data;
    case table:
      if (!quirks_) close_p();
      push(table, kHtml, &t);
      return TextMode::data;
    case area: case br: case embed: case img: case keygen: case wbr: case image: case input:
      reconstruct();
      void_element(tg == image ? img : tg, t);
      return TextMode::data;
    case param: case source: case track: case menuitem: void_element(tg, t); return TextMode::data;
    case hr: case isindex:
      close_p();
      void_element(tg, t);
      return TextMode::data;
    case textarea: return raw(tg, t);
    case xmp:
      close_p();
      reconstruct();
      return raw(tg, t);
    case iframe: case noembed: return raw(tg, t);
    case select:
      reconstruct();
      push(select, kHtml, &t);
      return TextMode::data;
    case optgroup: case option:
      if (top_is(option)) pop();
      reconstruct();
      push(tg, kHtml, &t);
      return TextMode::data;
    case rb: case rtc:
      if (in_scope(ruby)) generate_implied();
      push(tg, kHtml, &t);
      return TextMode::data;
    case rp: case rt:
      if (in_scope(ruby)) generate_implied(rtc);
      push(tg, kHtml, &t);
      return TextMode::data;
    case math: case svg:
      reconstruct();
      push(tg, tg == svg ? kSvg : kMath, &t);
      if (t.self_closing && !stopped_) pop();
      return TextMode::data;
    default:
      break;
  }
  if (f & kClosesP) {  // address, article, ..., pre, listing
    close_p();
    push(tg, kHtml, &t);
    return TextMode::data;
  }
  reconstruct();  // formatting elements and any other start tag
  push(tg, kHtml, &t);
  return TextMode::data;
}

void Builder::formatting_end(Tag tg) {
  if (tg == a) {
    Anchor& x = anchors_.back();
    if (!x.active) return any_other_end(a);
    if (x.pos >= 0 && x.pos < top(scope_)) return;  // not in scope: ignored
    x.active = false;
    if (x.pos >= 0) close_formatting_at(x.pos);
    return;
  }
  const int64_t at = last(tg);
  if (at < 0 || at < top(scope_)) return;
  close_formatting_at(at);
}

// §13.2.6.4.7 in body: end tags.
void Builder::body_end(const TagToken& t) {
  const Tag tg = t.tag;
  switch (tg) {
    case body: case html: return;
    case address: case article: case aside: case blockquote: case button: case center: case details: case dir:
    case div: case dl: case fieldset: case figcaption: case figure: case footer: case header: case hgroup:
    case listing: case main: case menu: case nav: case ol: case pre: case section: case summary: case ul:
      if (in_scope(tg)) pop_to(last(tg));
      return;
    case form: {
      if (last(template_) >= 0) {
        if (in_scope(form)) pop_to(last(form));
        return;
      }
      const bool was = form_pointer_;
      form_pointer_ = false;
      if (!was || !in_scope(form)) return;
      remove_at(last(form));  // what it holds stays open
      return;
    }
    case p:
      if (!in_button_scope(p)) {  // an empty <p> is inserted and closed: a paragraph break
        if (fostering_here()) foster_break();
        else if (!dropped()) flush();
        return;
      }
      pop_to(last(p));
      return;
    case li:
      if (in_list_scope(li)) pop_to(last(li));
      return;
    case dd: case dt:
      if (in_scope(tg)) pop_to(last(tg));
      return;
    case h1: case h2: case h3: case h4: case h5: case h6:
      if (top(headings_) >= 0 && top(headings_) > top(scope_)) pop_to(top(headings_));
      return;
    case a: case b: case big: case code: case em: case font: case i: case nobr: case s: case small: case strike:
    case strong: case tt: case u:
      return formatting_end(tg);
    case applet: case marquee: case object:  // gumbo 0.10.1 asks the table scope here
      if (!in_table_scope(tg)) return;
      pop_to(last(tg));
      clear_marker();
      return;
    case br: {  // </br> is <br>
      reconstruct();
      void_element(br, t);
      return;
    }
    default:
      return any_other_end(tg);
  }
}

void Builder::enter(const Open& o, const TagToken* t) {
  if (want_links_ && t) collect_link(o.tag, *t);
  const uint16_t f = tag_flags(o.tag);
  if (o.tag == table) {
    // The walker flushes the text before the table only after the content
    // the tree builder fosters there: keep that block open for it (an empty
    // one is dropped at the end).
    cur_.heading = heading_;
    cur_.table = st_.empty() ? 0 : st_.back().ct;
    fosters_.push_back({page_.blocks.size(), pending_space_, true, cur_.table});
    page_.blocks.push_back(std::move(cur_));
    cur_ = HtmlBlock{};
    pending_space_ = false;
  } else if (f & kBlock) {
    flush();
  }
  if (f & kHeading) heading_ = true;
  if (o.tag == pre) ++pre_;
}

void Builder::leave(const Open& o) {
  const uint16_t f = tag_flags(o.tag);
  if (o.tag == pre && pre_ > 0) --pre_;
  if ((f & kBlock) && o.fostered) foster_break();
  if (f & kBlock) flush();
  if (f & kHeading) heading_ = false;
}

void Builder::collect_link(Tag tg, const TagToken& t) {
  if (tg == a) {
    if (t.attr("href", attr_)) page_.links.push_back({attr_, t.attr("hreflang", attr2_) ? attr2_ : "", false});
  } else if (tg == link) {
    std::string rel;
    if (t.attr("href", attr_) && t.attr("hreflang", attr2_) && t.attr("rel", rel) && has_word_ci(rel, "alternate"))
      page_.links.push_back({attr_, attr2_, true});
  } else if (tg == base && page_.base.empty()) {
    if (t.attr("href", attr_)) page_.base = attr_;
  }
}

// White space collapses to one space; inside <pre> every line is its own paragraph.
void Builder::feed(std::string_view s) {
  // §13.2.6.4.10 in table text: a run of characters straight in a table is
  // fostered when any of it is not white space, else it stays in the table.
  const bool table_text = !st_.empty() && st_.back().ns == kHtml && is_table_text_node(st_.back().tag);
  if (table_text && all_html_space(s)) {
    table_ws_.append(s);
    return;
  }
  const bool fostered = !st_.empty() && (st_.back().fostered || table_text);
  if (fostered && !fosters_.empty()) {
    Foster& f = fosters_.back();
    if (!f.open) {  // after a fostered block: a block of its own (before the table in the tree)
      f = {page_.blocks.size(), false, true};
      HtmlBlock b;
      b.heading = heading_;
      b.table = f.ct;
      page_.blocks.push_back(std::move(b));
      fosters_.back().ct = b.table;
    }
    Foster& g = fosters_.back();
    if (!table_ws_.empty()) {
      feed_into(page_.blocks[g.block], g.pending_space, table_ws_, false);
      table_ws_.clear();
    }
    return feed_into(page_.blocks[g.block], g.pending_space, s, false);
  }
  if (!table_ws_.empty()) {
    feed_into(cur_, pending_space_, table_ws_, true);
    table_ws_.clear();
  }
  feed_into(cur_, pending_space_, s, true);
}

// A fostered block boundary: the walker flushes the block before the table there.
void Builder::foster_break() {
  if (!fosters_.empty()) fosters_.back().open = false;
}

void Builder::feed_into(HtmlBlock& cur, bool& pending_space, std::string_view s, bool pre_lines) {
  const bool in_link = !st_.empty() && st_.back().in_link;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  while (p < e) {
    if (kFeedSpace.v[*p]) {
      if (*p == '\n' && pre_ > 0 && pre_lines) flush();
      else pending_space = !cur.text.empty();
      ++p;
      continue;
    }
    // The word's end and its code points, 8 bytes at a time: a word holds
    // no byte below 0x21 (white space is among those), and a code point is
    // a byte that is not 10xxxxxx.
    const auto* q = p + 1;
    uint32_t points = 1;
    constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
    while (e - q >= 8) {
      uint64_t x;
      std::memcpy(&x, q, 8);
      if ((x - 0x21 * kOnes) & ~x & kHigh) break;
      points += 8 - static_cast<uint32_t>(__builtin_popcountll(x & kHigh & ~(x << 1)));
      q += 8;
    }
    for (; q < e && !kFeedSpace.v[*q]; ++q) points += (*q & 0xC0) != 0x80;
    if (pending_space) {
      cur.text += ' ';
      ++points;
      pending_space = false;
    }
    cur.text.append(reinterpret_cast<const char*>(p), static_cast<size_t>(q - p));
    cur.chars += points;
    if (in_link) cur.link_chars += points;
    p = q;
  }
}

void Builder::flush() {
  pending_space_ = false;
  if (!cur_.text.empty()) {
    cur_.heading = heading_;
    cur_.table = st_.empty() ? 0 : st_.back().ct;
    page_.blocks.push_back(std::move(cur_));
  }
  cur_ = HtmlBlock{};
}

std::string Builder::collapse(std::string_view s) { return collapse_white_space(s); }

// Invalid UTF-8 sequences become U+FFFD, byte by byte.
std::string repair_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  size_t pos = 0;
  for (;;) {
    const size_t bad = find_invalid_utf8(s.substr(pos));
    if (bad == std::string_view::npos) break;
    out.append(s.substr(pos, bad));
    out += "\xEF\xBF\xBD";
    pos += bad + 1;
  }
  out.append(s.substr(pos));
  return out;
}

}  // namespace

}  // namespace html

HtmlPage html_stream_to_text(std::string_view in, bool want_links) {
  HtmlPage page;
  std::string repaired;
  if (!is_valid_utf8(in)) {
    repaired = html::repair_utf8(in);
    in = repaired;
  }
  html::Builder builder(page, want_links);
  html::tokenize(in, builder);
  builder.finish();
  if (builder.stopped()) {
    page = HtmlPage{};
    page.too_deep = true;
  }
  return page;
}

}  // namespace corpus
