// The insertion modes of the tree-builder model (§13.2.6.4): what start and
// end tags do to the stack of open elements in head, template, foreign
// content, body, table and select. The class: html_stream_builder.h.
#include "libcorpus/ingest/html_stream_builder.h"

namespace corpus {

namespace html {

namespace stream {

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

}  // namespace stream

}  // namespace html

}  // namespace corpus
