#include <expat.h>

#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/tmx.h"

namespace corpus {

// Parser state shared with the expat callbacks.
struct TmxReader::State {
  XML_Parser parser = nullptr;
  std::string name;
  TmxHeader header;
  bool seen_root = false;
  bool header_done = false;
  bool body_done = false;
  std::deque<TmxUnit> ready;

  // Where we are.
  TmxUnit unit;
  bool in_tu = false;
  bool in_tuv = false;
  int seg_depth = 0;       // >0 inside <seg>
  int skip_depth = 0;      // >0 inside an inline code element (bpt, ept, ph, it, ut)
  bool in_prop = false;
  bool prop_in_header = false;
  std::string prop_type, prop_text;
  std::string error;       // set by a callback to stop parsing

  void fail(std::string msg) {
    if (error.empty()) error = std::move(msg);
    XML_StopParser(parser, XML_FALSE);
  }
};

namespace {

const char* find_attr(const XML_Char** atts, const char* name) {
  for (int i = 0; atts[i]; i += 2)
    if (std::strcmp(atts[i], name) == 0) return atts[i + 1];
  return nullptr;
}

bool is_inline_code(const char* n) {
  return !std::strcmp(n, "bpt") || !std::strcmp(n, "ept") || !std::strcmp(n, "ph") || !std::strcmp(n, "it") ||
         !std::strcmp(n, "ut");
}

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** atts) {
  auto& s = *static_cast<TmxReader::State*>(data);
  if (!s.seen_root) {
    if (std::strcmp(name, "tmx") != 0) return s.fail(std::string("not a TMX file (root element <") + name + ">)");
    s.seen_root = true;
    return;
  }
  if (s.seg_depth > 0) {
    ++s.seg_depth;
    if (s.skip_depth > 0 || is_inline_code(name)) ++s.skip_depth;
    return;
  }
  if (!std::strcmp(name, "header")) {
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
  } else if (!std::strcmp(name, "body")) {
    s.header_done = true;
  } else if (!std::strcmp(name, "tu")) {
    s.header_done = true;
    s.in_tu = true;
    s.unit = TmxUnit{};
    if (const char* v = find_attr(atts, "tuid")) s.unit.tuid = v;
    s.unit.line = XML_GetCurrentLineNumber(s.parser);
  } else if (!std::strcmp(name, "tuv") && s.in_tu) {
    s.in_tuv = true;
    TmxVariant v;
    const char* lang = find_attr(atts, "xml:lang");
    if (!lang) lang = find_attr(atts, "lang");
    if (lang) v.lang = lang;
    s.unit.variants.push_back(std::move(v));
  } else if (!std::strcmp(name, "seg") && s.in_tuv) {
    s.seg_depth = 1;
  } else if (!std::strcmp(name, "prop")) {
    s.in_prop = true;
    s.prop_in_header = !s.header_done;
    const char* t = find_attr(atts, "type");
    s.prop_type = t ? t : "";
    s.prop_text.clear();
  }
}

void XMLCALL on_end(void* data, const XML_Char* name) {
  auto& s = *static_cast<TmxReader::State*>(data);
  if (s.seg_depth > 0) {
    if (s.skip_depth > 0) --s.skip_depth;
    --s.seg_depth;
    return;
  }
  if (!std::strcmp(name, "prop") && s.in_prop) {
    s.in_prop = false;
    auto kv = std::make_pair(std::move(s.prop_type), std::move(s.prop_text));
    if (s.prop_in_header) s.header.props.push_back(std::move(kv));
    else if (s.in_tuv) s.unit.variants.back().props.push_back(std::move(kv));
    else if (s.in_tu) s.unit.props.push_back(std::move(kv));
  } else if (!std::strcmp(name, "header")) {
    s.header_done = true;
  } else if (!std::strcmp(name, "tuv")) {
    s.in_tuv = false;
  } else if (!std::strcmp(name, "tu")) {
    s.in_tu = false;
    s.ready.push_back(std::move(s.unit));
  } else if (!std::strcmp(name, "body")) {
    s.body_done = true;
  }
}

void XMLCALL on_text(void* data, const XML_Char* text, int len) {
  auto& s = *static_cast<TmxReader::State*>(data);
  if (s.seg_depth > 0) {
    if (s.skip_depth == 0) s.unit.variants.back().seg.append(text, static_cast<size_t>(len));
  } else if (s.in_prop) {
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
