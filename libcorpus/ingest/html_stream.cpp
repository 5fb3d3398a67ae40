#include "libcorpus/ingest/html_stream.h"

#include "libcorpus/ingest/html_stream_builder.h"

namespace corpus {

namespace html {

namespace stream {


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

}  // namespace stream

}  // namespace html

HtmlPage html_stream_to_text(std::string_view in, bool want_links) {
  HtmlPage page;
  std::string repaired;
  if (!is_valid_utf8(in)) {
    repaired = html::stream::repair_utf8(in);
    in = repaired;
  }
  html::stream::Builder builder(page, want_links);
  html::tokenize(in, builder);
  builder.finish();
  if (builder.stopped()) {
    page = HtmlPage{};
    page.too_deep = true;
  }
  return page;
}

}  // namespace corpus
