#include <expat.h>

#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/tmx.h"

namespace corpus {

namespace {

// What an open element is. The reader keeps the path of open elements, so
// every callback knows where it is and a misplaced element (a <tu> inside a
// <tuv>, a <seg> outside one) is refused instead of being taken for a real one.
enum class Elem : unsigned char {
  Tmx, Header, Body, Tu, Tuv, Seg, Prop, Note,
  Inline,   // <hi>, <sub> or an unknown element inside <seg>: its text is kept
  Code,     // bpt, ept, it, ph, ut: its text (native markup) is left out
  Other,    // an unknown element outside <seg> (<ude>, extensions): its text is ignored
  Ignored,  // a misplaced element and everything inside it
};

Elem classify(const char* n) {
  static const std::pair<const char*, Elem> kNames[] = {
      {"tmx", Elem::Tmx},   {"header", Elem::Header}, {"body", Elem::Body}, {"tu", Elem::Tu},
      {"tuv", Elem::Tuv},   {"seg", Elem::Seg},       {"prop", Elem::Prop}, {"note", Elem::Note},
      {"bpt", Elem::Code},  {"ept", Elem::Code},      {"it", Elem::Code},   {"ph", Elem::Code},
      {"ut", Elem::Code},   {"hi", Elem::Inline},     {"sub", Elem::Inline}};
  for (const auto& [name, e] : kNames)
    if (!std::strcmp(n, name)) return e;
  return Elem::Other;
}

// May an element of kind `e` open inside `parent`? (TMX 1.4b's content model,
// leaving unknown elements alone so that extensions pass.)
bool allowed(Elem e, Elem parent) {
  const bool in_text = parent == Elem::Seg || parent == Elem::Inline || parent == Elem::Code;
  switch (e) {
    case Elem::Tmx: return false;  // only as the root
    case Elem::Header:
    case Elem::Body: return parent == Elem::Tmx;
    case Elem::Tu: return parent == Elem::Body;
    case Elem::Tuv: return parent == Elem::Tu;
    case Elem::Seg: return parent == Elem::Tuv;
    case Elem::Prop:
    case Elem::Note: return parent == Elem::Header || parent == Elem::Tu || parent == Elem::Tuv;
    case Elem::Code:
    case Elem::Inline:
    case Elem::Other: return parent != Elem::Prop && (in_text || e == Elem::Other);
    case Elem::Ignored: return true;
  }
  return false;
}

}  // namespace

// Parser state shared with the expat callbacks.
struct TmxReader::State {
  XML_Parser parser = nullptr;
  std::string name;
  TmxHeader header;
  bool seen_root = false;
  bool header_done = false;
  bool body_done = false;
  std::deque<TmxUnit> ready;

  // Where we are: every open element, outermost first. Its size is bounded by
  // kMaxTmxDepth, so a hostile file cannot make expat's own tag stack (or ours)
  // grow without limit.
  std::vector<Elem> path;
  size_t code_depth = 0;  // open <bpt>/<ept>/... elements inside the current <seg>
  TmxUnit unit;           // the <tu> being read, when path holds Elem::Tu
  std::string prop_type, prop_text;
  std::string error;      // set by a callback to stop parsing

  bool in_tu() const { return path.size() > 2 && path[2] == Elem::Tu; }

  void fail(std::string msg) {
    if (error.empty()) error = std::move(msg);
    XML_StopParser(parser, XML_FALSE);
  }

  // A misplaced element: the <tu> around it is bad (or, outside any <tu>, the
  // element itself counts as a bad unit); it is skipped with all it holds.
  void misplaced(const char* element) {
    const uint64_t line = XML_GetCurrentLineNumber(parser);
    std::string where = path.empty() ? "" : " inside <" + open_names.back() + ">";
    std::string msg = "misplaced <" + std::string(element) + ">" + where;
    if (in_tu()) {
      if (unit.error.empty()) {
        unit.error = std::move(msg);
        unit.error_line = line;
      }
    } else {
      TmxUnit bad;
      bad.line = bad.error_line = line;
      bad.error = std::move(msg);
      ready.push_back(std::move(bad));
    }
    push(Elem::Ignored, element);
  }

  void push(Elem e, const char* element) {
    path.push_back(e);
    open_names.emplace_back(element);
  }
  void pop() {
    path.pop_back();
    open_names.pop_back();
  }

  std::vector<std::string> open_names;  // the element names of `path`, for messages
};

namespace {

const char* find_attr(const XML_Char** atts, const char* name) {
  for (int i = 0; atts[i]; i += 2)
    if (std::strcmp(atts[i], name) == 0) return atts[i + 1];
  return nullptr;
}

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** atts) {
  auto& s = *static_cast<TmxReader::State*>(data);
  if (!s.error.empty()) return;
  if (!s.seen_root) {
    if (std::strcmp(name, "tmx") != 0) return s.fail(std::string("not a TMX file (root element <") + name + ">)");
    s.seen_root = true;
    return s.push(Elem::Tmx, name);
  }
  if (s.path.size() >= kMaxTmxDepth)
    return s.fail("elements nested more than " + std::to_string(kMaxTmxDepth) + " levels deep");
  const Elem parent = s.path.back();
  if (parent == Elem::Ignored) return s.push(Elem::Ignored, name);
  Elem e = classify(name);
  const bool in_text = parent == Elem::Seg || parent == Elem::Inline || parent == Elem::Code;
  if (e == Elem::Other && in_text) e = Elem::Inline;  // unknown markup in a <seg> keeps its text
  if (!allowed(e, parent)) return s.misplaced(name);
  s.push(e, name);
  switch (e) {
    case Elem::Header: {
      auto get = [&](const char* a, std::string& dst) {
        if (const char* v = find_attr(atts, a)) dst = v;
      };
      TmxHeader& h = s.header;
      h = TmxHeader{};
      get("creationtool", h.creationtool);
      get("creationtoolversion", h.creationtoolversion);
      get("segtype", h.segtype);
      get("o-tmf", h.o_tmf);
      get("adminlang", h.adminlang);
      get("srclang", h.srclang);
      get("datatype", h.datatype);
      break;
    }
    case Elem::Body: s.header_done = true; break;
    case Elem::Tu:
      s.unit = TmxUnit{};
      if (const char* v = find_attr(atts, "tuid")) s.unit.tuid = v;
      s.unit.line = XML_GetCurrentLineNumber(s.parser);
      break;
    case Elem::Tuv: {
      TmxVariant v;
      const char* lang = find_attr(atts, "xml:lang");
      if (!lang) lang = find_attr(atts, "lang");
      if (lang) v.lang = lang;
      s.unit.variants.push_back(std::move(v));
      break;
    }
    case Elem::Prop: {
      const char* t = find_attr(atts, "type");
      s.prop_type = t ? t : "";
      s.prop_text.clear();
      break;
    }
    case Elem::Code: ++s.code_depth; break;
    default: break;
  }
}

void XMLCALL on_end(void* data, const XML_Char*) {
  auto& s = *static_cast<TmxReader::State*>(data);
  if (!s.error.empty() || s.path.empty()) return;
  const Elem e = s.path.back();
  s.pop();
  const Elem parent = s.path.empty() ? Elem::Ignored : s.path.back();
  switch (e) {
    case Elem::Prop: {
      auto kv = std::make_pair(std::move(s.prop_type), std::move(s.prop_text));
      // allowed() opened a <prop> only in these three, and a <tuv> always has its variant.
      if (parent == Elem::Header) s.header.props.push_back(std::move(kv));
      else if (parent == Elem::Tuv) s.unit.variants.back().props.push_back(std::move(kv));
      else if (parent == Elem::Tu) s.unit.props.push_back(std::move(kv));
      break;
    }
    case Elem::Header: s.header_done = true; break;
    case Elem::Tu: s.ready.push_back(std::move(s.unit)); break;
    case Elem::Body: s.body_done = true; break;
    case Elem::Code: --s.code_depth; break;
    default: break;
  }
}

void XMLCALL on_text(void* data, const XML_Char* text, int len) {
  auto& s = *static_cast<TmxReader::State*>(data);
  if (!s.error.empty() || s.path.empty()) return;
  const Elem e = s.path.back();
  if ((e == Elem::Seg || e == Elem::Inline) && s.code_depth == 0) {
    // Seg and Inline open only under a <tuv> (through allowed()), which pushed its variant.
    s.unit.variants.back().seg.append(text, static_cast<size_t>(len));
  } else if (e == Elem::Prop) {
    s.prop_text.append(text, static_cast<size_t>(len));
  }
}

}  // namespace

TmxReader::TmxReader(ByteSource& src) : src_(src), st_(std::make_unique<State>()) {
  st_->name = src.name();
  st_->parser = XML_ParserCreate(nullptr);
  if (!st_->parser) throw Error("cannot create XML parser");
  XML_SetUserData(st_->parser, st_.get());
  XML_SetElementHandler(st_->parser, on_start, on_end);
  XML_SetCharacterDataHandler(st_->parser, on_text);
}

TmxReader::~TmxReader() {
  if (st_->parser) XML_ParserFree(st_->parser);
}

bool TmxReader::feed() {
  constexpr int kChunk = 1 << 16;
  void* buf = XML_GetBuffer(st_->parser, kChunk);
  if (!buf) throw Error("out of memory parsing XML").at(st_->name);
  size_t n = src_.read(static_cast<char*>(buf), kChunk);
  const bool last = n == 0;
  bytes_ += n;
  if (last && bytes_ == 0) throw Error("empty input: no TMX document").at(st_->name);
  if (XML_ParseBuffer(st_->parser, static_cast<int>(n), last) == XML_STATUS_ERROR) {
    uint64_t line = XML_GetCurrentLineNumber(st_->parser);
    std::string msg = st_->error.empty() ? std::string("XML error: ") + XML_ErrorString(XML_GetErrorCode(st_->parser))
                                         : st_->error;
    throw Error(msg, st_->seen_root ? "the TMX file is malformed or cut short" : "").at(st_->name, line);
  }
  if (last && !st_->seen_root) throw Error("empty input: no TMX document").at(st_->name);
  return !last;
}

const TmxHeader& TmxReader::header() {
  while (!st_->header_done)
    if (!feed()) break;
  return st_->header;
}

bool TmxReader::next(TmxUnit& unit) {
  while (st_->ready.empty()) {
    if (!feed()) break;
  }
  if (st_->ready.empty()) return false;
  unit = std::move(st_->ready.front());
  st_->ready.pop_front();
  return true;
}

}  // namespace corpus
