// The streaming extractor's tree-builder model (html_stream.h): the class
// and its small helpers, shared by html_stream.cpp (the stack of open
// elements, text, the token dispatch and the block model) and
// html_stream_modes.cpp (the insertion modes' start and end tags,
// §13.2.6.4). Internal to the ingest part: only those two files include it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/ingest/html_stream.h"
#include "libcorpus/ingest/html_tags.h"
#include "libcorpus/ingest/html_tokenizer.h"

namespace corpus {

namespace html {

namespace stream {

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

inline uint64_t name_hash(std::string_view s) {
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
  constexpr FeedSpaceTable() : v() {
    for (unsigned char c : {' ', '\t', '\n', '\r', '\f', '\v'}) v[c] = true;
  }
};
inline constexpr FeedSpaceTable kFeedSpace;

inline bool all_html_space(std::string_view s) {
  for (char c : s)
    if (!is_html_space(c)) return false;
  return true;
}

inline bool has_word_ci(std::string_view list, std::string_view word) {
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
inline bool is_table_text_node(Tag t) { return t == table || t == tbody || t == tfoot || t == thead || t == tr; }

inline bool is_table_part(Tag t) {
  return t == caption || t == col || t == colgroup || t == tbody || t == td || t == tfoot || t == th ||
         t == thead || t == tr;
}

inline TextMode raw_mode(Tag t) {
  switch (t) {
    case title: case textarea: return TextMode::rcdata;
    case style: case xmp: case iframe: case noembed: case noframes: return TextMode::rawtext;
    case script: return TextMode::script;
    case plaintext: return TextMode::plaintext;
    default: return TextMode::data;
  }
}

// §13.2.6.5: the start tags that leave foreign content.
inline bool breaks_out(const TagToken& t) {
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

// Invalid UTF-8 sequences become U+FFFD, byte by byte.
std::string repair_utf8(std::string_view s);

}  // namespace stream

}  // namespace html

}  // namespace corpus
