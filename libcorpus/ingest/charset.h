// Charset detection and conversion to UTF-8 for web pages.
//
// Order (as browsers): a byte-order mark, then the charset of the HTTP
// Content-Type header, then a <meta charset> / <meta http-equiv> in the first
// 4 KiB, then uchardet's guess. The first label that converts the bytes
// without an invalid sequence wins; if none does, the page is undecodable and
// nothing is returned (it is reported, never written as mojibake).
// Labels follow the WHATWG Encoding Standard where it differs from ICU:
// iso-8859-1, latin1 and us-ascii mean windows-1252.
#pragma once

#include <string>
#include <string_view>

namespace corpus {

// "text/html; charset=ISO-8859-1" -> "iso-8859-1"; "" if none.
std::string charset_from_content_type(std::string_view content_type);

// The charset a document declares in <meta> within its first 4 KiB; "".
std::string charset_from_meta(std::string_view html);

// uchardet's guess for the bytes (lower case), or "".
std::string detect_charset(std::string_view bytes);

// Converts `bytes` in charset `label` to UTF-8. Returns "" or what is wrong
// (unknown charset, invalid byte sequence at offset N).
std::string convert_to_utf8(std::string_view bytes, std::string_view label, std::string& out);

struct DecodedText {
  std::string text;     // UTF-8
  std::string charset;  // the label used, lower case ("utf-8", "shift_jis")
  std::string source;   // "bom", "header", "meta", "detected", "default"
};

// Runs the order above. `is_html` enables the <meta> step. Returns "" or why
// the bytes cannot be decoded.
std::string decode_document(std::string_view bytes, std::string_view header_charset, bool is_html,
                            DecodedText& out);

}  // namespace corpus
