#include "libcorpus/ingest/charset.h"

#include <uchardet/uchardet.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_err.h>

#include <map>
#include <memory>

#include <fmt/format.h>

#include "libcorpus/core/utf8.h"
#include "libcorpus/core/ascii.h"

namespace corpus {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"' || s.front() == '\''))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '"' || s.back() == '\'' ||
                        s.back() == '\r' || s.back() == ';'))
    s.remove_suffix(1);
  return s;
}

// "charset=xyz" anywhere in `s` (case-insensitive), value up to ; " ' space >.
std::string find_charset_param(std::string_view s) {
  std::string l = ascii_lower(s);
  size_t p = l.find("charset");
  while (p != std::string::npos) {
    size_t q = p + 7;
    while (q < l.size() && (l[q] == ' ' || l[q] == '\t')) ++q;
    if (q < l.size() && l[q] == '=') {
      ++q;
      while (q < l.size() && (l[q] == ' ' || l[q] == '"' || l[q] == '\'')) ++q;
      size_t e = q;
      while (e < l.size() && l[e] != ';' && l[e] != '"' && l[e] != '\'' && l[e] != ' ' && l[e] != '>' &&
             l[e] != '/' && l[e] != ',')
        ++e;
      if (e > q) return l.substr(q, e - q);
    }
    p = l.find("charset", p + 7);
  }
  return "";
}

std::string whatwg_label(std::string label) {
  label = ascii_lower(trim(label));
  if (label == "iso-8859-1" || label == "iso8859-1" || label == "latin1" || label == "l1" ||
      label == "us-ascii" || label == "ascii" || label == "iso_8859-1" || label == "cp1252")
    return "windows-1252";
  if (label == "utf8" || label == "unicode-1-1-utf-8") return "utf-8";
  if (label == "sjis" || label == "x-sjis" || label == "ms_kanji" || label == "shift-jis") return "shift_jis";
  return label;
}

struct UcnvCloser {
  void operator()(UConverter* c) const { ucnv_close(c); }
};

// Per-thread cache of opened converters (opening one costs microseconds).
UConverter* converter(const std::string& label, std::string& err) {
  thread_local std::map<std::string, std::unique_ptr<UConverter, UcnvCloser>> cache;
  auto it = cache.find(label);
  if (it != cache.end()) {
    if (!it->second) err = "unknown charset " + label;
    return it->second.get();
  }
  UErrorCode st = U_ZERO_ERROR;
  UConverter* c = ucnv_open(label.c_str(), &st);
  if (U_FAILURE(st) || st == U_AMBIGUOUS_ALIAS_WARNING) {
    if (c && st == U_AMBIGUOUS_ALIAS_WARNING) {
      // Ambiguous aliases (e.g. "shift_jis") still work; keep the converter.
    } else {
      if (c) ucnv_close(c);
      c = nullptr;
    }
  }
  if (c) {
    UErrorCode s2 = U_ZERO_ERROR;
    ucnv_setToUCallBack(c, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &s2);
  } else {
    err = "unknown charset " + label;
  }
  cache.emplace(label, c);
  return c;
}

}  // namespace

std::string charset_from_content_type(std::string_view ct) { return find_charset_param(ct); }

std::string charset_from_meta(std::string_view html) {
  std::string_view head = html.substr(0, 4096);
  std::string l = ascii_lower(head);
  size_t p = l.find("<meta");
  while (p != std::string::npos) {
    size_t e = l.find('>', p);
    if (e == std::string::npos) break;
    std::string_view tag = std::string_view(l).substr(p, e - p);
    std::string cs = find_charset_param(tag);
    if (!cs.empty()) return cs;
    p = l.find("<meta", e);
  }
  return "";
}

std::string detect_charset(std::string_view bytes) {
  struct Handle {
    uchardet_t h = uchardet_new();
    ~Handle() { uchardet_delete(h); }
  };
  thread_local Handle handle;
  uchardet_reset(handle.h);
  // A bounded prefix is enough to decide, and keeps this step cheap.
  std::string_view sample = bytes.substr(0, 65536);
  if (uchardet_handle_data(handle.h, sample.data(), sample.size()) != 0) return "";
  uchardet_data_end(handle.h);
  return ascii_lower(uchardet_get_charset(handle.h));
}

std::string convert_to_utf8(std::string_view bytes, std::string_view label_in, std::string& out) {
  std::string label = whatwg_label(std::string(label_in));
  if (label == "utf-8") {
    size_t bad = find_invalid_utf8(bytes);
    if (bad != std::string_view::npos) return fmt::format("invalid UTF-8 at byte {}", bad);
    out.assign(bytes);
    return "";
  }
  std::string err;
  UConverter* c = converter(label, err);
  if (!c) return err;
  ucnv_resetToUnicode(c);
  out.resize(bytes.size() * 3 + 16);
  UErrorCode st = U_ZERO_ERROR;
  int32_t n = ucnv_toAlgorithmic(UCNV_UTF8, c, out.data(), static_cast<int32_t>(out.size()), bytes.data(),
                                 static_cast<int32_t>(bytes.size()), &st);
  if (U_FAILURE(st)) {
    out.clear();
    return fmt::format("invalid {} byte sequence ({})", label, u_errorName(st));
  }
  out.resize(static_cast<size_t>(n));
  return "";
}

std::string decode_document(std::string_view bytes, std::string_view header_charset, bool is_html,
                            DecodedText& out) {
  out = DecodedText{};
  auto try_label = [&](std::string label, const char* source, std::string_view data) {
    if (label.empty()) return false;
    std::string err = convert_to_utf8(data, label, out.text);
    if (!err.empty()) return false;
    out.charset = whatwg_label(label);
    out.source = source;
    return true;
  };
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") return try_label("utf-8", "bom", bytes.substr(3)) ? "" : "invalid UTF-8 after a UTF-8 byte-order mark";
  if (bytes.substr(0, 2) == "\xFF\xFE" && try_label("utf-16le", "bom", bytes.substr(2))) return "";
  if (bytes.substr(0, 2) == "\xFE\xFF" && try_label("utf-16be", "bom", bytes.substr(2))) return "";
  std::string tried;
  auto attempt = [&](const std::string& label, const char* source) {
    if (label.empty()) return false;
    if (try_label(label, source, bytes)) return true;
    tried += (tried.empty() ? "" : ", ") + std::string(source) + " " + label;
    return false;
  };
  if (attempt(std::string(header_charset), "header")) return "";
  if (is_html && attempt(charset_from_meta(bytes), "meta")) return "";
  std::string guess = detect_charset(bytes);
  if (guess == "ascii") guess = "utf-8";
  if (attempt(guess, "detected")) return "";
  if (guess.empty() && attempt("utf-8", "default")) return "";
  return "cannot decode the text (tried " + (tried.empty() ? std::string("nothing") : tried) + ")";
}

}  // namespace corpus
