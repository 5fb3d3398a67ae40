#include "libcorpus/ingest/html_text.h"

#include <gumbo.h>

#include "libcorpus/ingest/gumbo_page.h"
#include "libcorpus/ingest/html_nesting.h"
#include "libcorpus/ingest/html_prescan.h"

#include <cstring>
#include <vector>

namespace corpus {

namespace {

// White space for text collapsing (the walker, <title>, plain text).
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool is_dropped(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE: case GUMBO_TAG_NAV: case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER: case GUMBO_TAG_ASIDE: case GUMBO_TAG_FORM: case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE: case GUMBO_TAG_IFRAME: case GUMBO_TAG_SVG: case GUMBO_TAG_MATH:
    case GUMBO_TAG_SELECT: case GUMBO_TAG_BUTTON: case GUMBO_TAG_HEAD: case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED: case GUMBO_TAG_CANVAS: case GUMBO_TAG_AUDIO: case GUMBO_TAG_VIDEO:
    case GUMBO_TAG_TEXTAREA: case GUMBO_TAG_DATALIST:
      return true;
    default:
      return false;
  }
}

bool is_block(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_P: case GUMBO_TAG_DIV: case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3:
    case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6: case GUMBO_TAG_LI: case GUMBO_TAG_UL:
    case GUMBO_TAG_OL: case GUMBO_TAG_DL: case GUMBO_TAG_DT: case GUMBO_TAG_DD: case GUMBO_TAG_TABLE:
    case GUMBO_TAG_TR: case GUMBO_TAG_TD: case GUMBO_TAG_TH: case GUMBO_TAG_THEAD: case GUMBO_TAG_TBODY:
    case GUMBO_TAG_TFOOT: case GUMBO_TAG_CAPTION: case GUMBO_TAG_PRE: case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_SECTION: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_MAIN: case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_ADDRESS: case GUMBO_TAG_HR: case GUMBO_TAG_BR:
    case GUMBO_TAG_BODY: case GUMBO_TAG_CENTER: case GUMBO_TAG_FIELDSET: case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_DETAILS: case GUMBO_TAG_SUMMARY: case GUMBO_TAG_OPTION: case GUMBO_TAG_HGROUP:
      return true;
    default:
      return false;
  }
}

bool is_heading(GumboTag t) {
  return t == GUMBO_TAG_H1 || t == GUMBO_TAG_H2 || t == GUMBO_TAG_H3 || t == GUMBO_TAG_H4 || t == GUMBO_TAG_H5 ||
         t == GUMBO_TAG_H6;
}

const char* attr(const GumboElement& e, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
  return a ? a->value : nullptr;
}

bool has_word(const char* list, const char* word) {
  if (!list) return false;
  size_t n = std::strlen(word);
  for (const char* p = list; *p;) {
    while (*p == ' ' || *p == '\t' || *p == '\n') ++p;
    const char* s = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') ++p;
    if (static_cast<size_t>(p - s) == n && strncasecmp(s, word, n) == 0) return true;
  }
  return false;
}

class Walker {
 public:
  Walker(HtmlPage& page, bool want_links, const std::vector<std::string_view>* runs)
      : page_(page), want_links_(want_links), runs_(runs) {}

  void run(const GumboNode* root) {
    struct Frame {
      const GumboNode* node;
      size_t child;  // next child to visit
    };
    std::vector<Frame> stack{{root, 0}};
    enter(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const GumboVector* kids = children(f.node);
      if (kids && f.child < kids->length) {
        const auto* kid = static_cast<const GumboNode*>(kids->data[f.child++]);
        if (enter(kid)) stack.push_back({kid, 0});
        continue;
      }
      leave(f.node);
      stack.pop_back();
    }
    flush();
  }

 private:
  static const GumboVector* children(const GumboNode* n) {
    if (n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE) return &n->v.element.children;
    if (n->type == GUMBO_NODE_DOCUMENT) return &n->v.document.children;
    return nullptr;
  }

  // Returns true when the node's children are to be visited.
  bool enter(const GumboNode* n) {
    switch (n->type) {
      case GUMBO_NODE_TEXT: case GUMBO_NODE_WHITESPACE: case GUMBO_NODE_CDATA:
        text(n->v.text.text);
        return false;
      case GUMBO_NODE_ELEMENT: break;
      case GUMBO_NODE_DOCUMENT: return true;
      default: return false;
    }
    const GumboElement& e = n->v.element;
    GumboTag t = e.tag;
    if (t == GUMBO_TAG_HTML) {
      if (const char* l = attr(e, "lang")) page_.lang = l;
      return true;
    }
    if (t == GUMBO_TAG_TITLE) {
      if (page_.title.empty()) page_.title = collapse(node_text(n));
      return false;
    }
    if (want_links_) collect_link(e);
    if (t == GUMBO_TAG_HEAD) {
      // Visit <head> only for <title>, <base> and <link> (nothing else is text).
      for (unsigned i = 0; i < e.children.length; ++i) {
        const auto* k = static_cast<const GumboNode*>(e.children.data[i]);
        if (k->type != GUMBO_NODE_ELEMENT) continue;
        if (k->v.element.tag == GUMBO_TAG_TITLE && page_.title.empty()) page_.title = collapse(node_text(k));
        if (want_links_) collect_link(k->v.element);
      }
      return false;
    }
    if (is_dropped(t)) return false;
    if (t == GUMBO_TAG_BR && pre_ > 0) {
      flush();
      return false;
    }
    if (is_block(t)) flush();
    if (is_heading(t)) heading_ = true;
    if (is_link(e)) ++in_link_;
    if (t == GUMBO_TAG_PRE) ++pre_;
    if (is_block(t)) {
      if (t == GUMBO_TAG_TABLE) tables_.push_back(++last_table_);
      const bool cell = t == GUMBO_TAG_TD || t == GUMBO_TAG_TH;
      // Row groups and rows pass the cell context on (a cell's block is flushed inside them).
      const bool pass = t == GUMBO_TAG_TR || t == GUMBO_TAG_TBODY || t == GUMBO_TAG_THEAD || t == GUMBO_TAG_TFOOT;
      cell_table_.push_back(cell ? (tables_.empty() ? 0 : tables_.back())
                                 : pass && !cell_table_.empty() ? cell_table_.back() : 0);
    }
    return true;
  }

  void leave(const GumboNode* n) {
    if (n->type != GUMBO_NODE_ELEMENT) return;
    GumboTag t = n->v.element.tag;
    if (is_link(n->v.element) && in_link_ > 0) --in_link_;
    if (t == GUMBO_TAG_PRE && pre_ > 0) --pre_;
    if (is_block(t)) flush();
    if (is_heading(t)) heading_ = false;
    if (is_block(t)) {
      if (!cell_table_.empty()) cell_table_.pop_back();
      if (t == GUMBO_TAG_TABLE && !tables_.empty()) tables_.pop_back();
    }
  }

  // Only <a href> is a link. An anchor like <a id="x"/> (XHTML style, which
  // HTML does not close) stays open as a formatting element and the parser
  // reconstructs it around the following paragraphs: counting it would make
  // whole chapters look like link lists.
  static bool is_link(const GumboElement& e) { return e.tag == GUMBO_TAG_A && attr(e, "href") != nullptr; }

  void collect_link(const GumboElement& e) {
    if (e.tag == GUMBO_TAG_A) {
      if (const char* h = attr(e, "href")) {
        const char* hl = attr(e, "hreflang");
        page_.links.push_back({h, hl ? hl : "", false});
      }
    } else if (e.tag == GUMBO_TAG_LINK) {
      const char* h = attr(e, "href");
      const char* hl = attr(e, "hreflang");
      if (h && hl && has_word(attr(e, "rel"), "alternate")) page_.links.push_back({h, hl, true});
    } else if (e.tag == GUMBO_TAG_BASE && page_.base.empty()) {
      if (const char* h = attr(e, "href")) page_.base = h;
    }
  }

  static std::string node_text(const GumboNode* n) {
    std::string s;
    const GumboVector& k = n->v.element.children;
    for (unsigned i = 0; i < k.length; ++i) {
      const auto* c = static_cast<const GumboNode*>(k.data[i]);
      if (c->type == GUMBO_NODE_TEXT || c->type == GUMBO_NODE_WHITESPACE) s += c->v.text.text;
    }
    return s;
  }

  static std::string collapse(std::string_view s) { return collapse_white_space(s); }

  // A text node; markers of the prescan stand for the text they replaced.
  void text(const char* s) {
    const char* e = s + std::strlen(s);
    if (!runs_) {
      feed(s, e);
      return;
    }
    const char* p = s;
    for (const char* q = s; q < e; ++q) {
      std::string_view run;
      if (static_cast<unsigned char>(*q) >= 0xF3 && html_prescan_marker(q, e, *runs_, run)) {
        feed(p, q);
        feed(run.data(), run.data() + run.size());
        q += 3;
        p = q + 1;
      }
    }
    feed(p, e);
  }

  // White space collapses to one space; inside <pre> every line is its own paragraph.
  void feed(const char* p, const char* e) {
    while (p < e) {
      if (is_space(*p)) {
        if (*p == '\n' && pre_ > 0) flush();
        else pending_space_ = !cur_.text.empty();
        ++p;
        continue;
      }
      const char* q = p;
      uint32_t points = 0;
      for (; q < e && !is_space(*q); ++q) points += (static_cast<unsigned char>(*q) & 0xC0) != 0x80;
      if (pending_space_) {
        cur_.text += ' ';
        ++points;
        pending_space_ = false;
      }
      cur_.text.append(p, q);
      cur_.chars += points;
      if (in_link_) cur_.link_chars += points;
      p = q;
    }
  }

  void flush() {
    pending_space_ = false;
    if (!cur_.text.empty()) {
      cur_.heading = heading_;
      cur_.table = cell_table_.empty() ? 0 : cell_table_.back();
      page_.blocks.push_back(std::move(cur_));
    }
    cur_ = HtmlBlock{};
  }

  HtmlPage& page_;
  bool want_links_;
  const std::vector<std::string_view>* runs_;  // the prescan's runs, or nullptr
  HtmlBlock cur_;
  bool pending_space_ = false;
  bool heading_ = false;
  int in_link_ = 0;
  int pre_ = 0;
  std::vector<uint32_t> tables_;      // the open <table> elements' numbers
  std::vector<uint32_t> cell_table_;  // per open block element: the table whose cell text it holds, or 0
  uint32_t last_table_ = 0;
};

}  // namespace

HtmlPage html_to_text(std::string_view html, bool want_links, bool prescan) {
  HtmlPage page;
  if (html_nesting_exceeds(html, kHtmlMaxNesting)) {
    page.too_deep = true;
    return page;
  }
  thread_local HtmlPrescan reduced;
  reduced.reduced = false;
  if (prescan) html_prescan(html, reduced);
  GumboPage parsed(reduced.reduced ? std::string_view(reduced.html) : html);
  Walker(page, want_links, reduced.reduced ? &reduced.runs : nullptr).run(parsed.output()->document);
  return page;
}

HtmlPage plain_text_blocks(std::string_view text) {
  HtmlPage page;
  size_t p = 0;
  while (p <= text.size()) {
    size_t nl = text.find('\n', p);
    if (nl == std::string_view::npos) nl = text.size();
    HtmlBlock b;
    bool space = false;
    for (char c : text.substr(p, nl - p)) {
      if (is_space(c)) {  // no '\n' here: lines are already split
        space = !b.text.empty();
        continue;
      }
      if (space) {
        b.text += ' ';
        ++b.chars;
      }
      space = false;
      b.text += c;
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++b.chars;
    }
    if (!b.text.empty()) page.blocks.push_back(std::move(b));
    p = nl + 1;
  }
  return page;
}

std::string collapse_white_space(std::string_view s) {
  std::string r;
  bool space = false;
  for (char c : s) {
    if (is_space(c)) {
      space = !r.empty();
      continue;
    }
    if (space) r += ' ';
    space = false;
    r += c;
  }
  return r;
}

}  // namespace corpus
