#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/tmx.h"
#include "libcorpus/core/xml_escape.h"

namespace corpus {

namespace {

void attr(std::string& out, std::string_view name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  size_t bad;
  if (!append_xml_escaped(out, value, true, &bad))
    throw Error("attribute " + std::string(name) + " holds a character XML cannot carry: " + quote(value));
  out += '"';
}

void prop(std::string& out, std::string_view indent, std::string_view type, std::string_view value, std::string* err) {
  const size_t mark = out.size();
  out += indent;
  out += "<prop";
  attr(out, "type", type);
  out += '>';
  size_t bad;
  if (!append_xml_escaped(out, value, false, &bad)) {
    out.resize(mark);
    if (err && err->empty())
      *err = fmt::format("column {} holds a character XML cannot carry (byte {}, \\x{:02x})", type, bad + 1,
                         static_cast<unsigned char>(value[bad]));
    return;
  }
  out += "</prop>\n";
}

}  // namespace

void append_tmx_start(std::string& out, const TmxHeader& h) {
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tmx version=\"1.4\">\n<header";
  attr(out, "creationtool", h.creationtool);
  attr(out, "creationtoolversion", h.creationtoolversion);
  attr(out, "segtype", h.segtype);
  attr(out, "o-tmf", h.o_tmf);
  attr(out, "adminlang", h.adminlang);
  attr(out, "srclang", h.srclang);
  attr(out, "datatype", h.datatype);
  if (h.props.empty()) {
    out += "/>\n";
  } else {
    out += ">\n";
    std::string err;
    for (auto& [k, v] : h.props) prop(out, "  ", k, v, &err);
    if (!err.empty()) throw Error("TMX header: " + err);
    out += "</header>\n";
  }
  out += "<body>\n";
}

void append_tmx_end(std::string& out) { out += "</body>\n</tmx>\n"; }

TmxLayout TmxLayout::from_columns(const std::vector<std::string>& names, std::string src_lang, std::string trg_lang) {
  TmxLayout l;
  l.src_lang = std::move(src_lang);
  l.trg_lang = std::move(trg_lang);
  for (size_t i = 0; i < names.size(); ++i) {
    int k = static_cast<int>(i);
    const std::string& n = names[i];
    if (n == "src_text") l.src_text = k;
    else if (n == "trg_text") l.trg_text = k;
    else if (n == "src_url") l.src_url = k;
    else if (n == "trg_url") l.trg_url = k;
    else l.tu_props.emplace_back(k, n);
  }
  return l;
}

std::string append_tmx_unit(std::string& out, const TmxLayout& l, const std::vector<std::string_view>& f,
                            uint64_t tuid) {
  const size_t mark = out.size();
  std::string err;
  out += "<tu tuid=\"";
  out += std::to_string(tuid);
  out += "\">\n";
  for (auto& [k, name] : l.tu_props) prop(out, "  ", name, f[static_cast<size_t>(k)], &err);
  auto tuv = [&](const std::string& lang, int text, int url) {
    out += "  <tuv xml:lang=\"";
    append_xml_escaped(out, lang, true);
    out += "\">\n";
    if (url >= 0) prop(out, "    ", "source-document", f[static_cast<size_t>(url)], &err);
    out += "    <seg>";
    size_t bad;
    std::string_view s = f[static_cast<size_t>(text)];
    if (!append_xml_escaped(out, s, false, &bad) && err.empty())
      err = fmt::format("{} holds a character XML cannot carry (byte {}, \\x{:02x})", text == l.src_text ? "src_text" : "trg_text",
                        bad + 1, static_cast<unsigned char>(s[bad]));
    out += "</seg>\n  </tuv>\n";
  };
  tuv(l.src_lang, l.src_text, l.src_url);
  tuv(l.trg_lang, l.trg_text, l.trg_url);
  out += "</tu>\n";
  if (!err.empty()) out.resize(mark);
  return err;
}

}  // namespace corpus
