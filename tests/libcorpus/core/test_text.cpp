// UTF-8 checks, TSV columns and rows, JSONL documents, XML escaping.
#include <doctest/doctest.h>

#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/jsonl.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tsv.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/core/xml_escape.h"
#include "support/tmpdir.h"

using namespace corpus;

TEST_CASE("UTF-8 validation") {
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("plain ASCII text that is longer than eight bytes"));
  CHECK(is_valid_utf8("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80 \xe0\xa4\x95"));
  CHECK(find_invalid_utf8("abc\xff") == 3);
  CHECK(find_invalid_utf8("abcdefgh\xc3") == 8);          // truncated sequence at the end
  CHECK(find_invalid_utf8("\xc0\xaf") == 0);              // overlong '/'
  CHECK(find_invalid_utf8("\xe0\x80\xaf") == 0);          // overlong, 3 bytes
  CHECK(find_invalid_utf8("x\xed\xa0\x80") == 1);         // UTF-16 surrogate
  CHECK(find_invalid_utf8("\xf4\x90\x80\x80") == 0);      // above U+10FFFF
  CHECK(find_invalid_utf8("ok \xe2\x82") == 3);
  CHECK(find_invalid_utf8("\x80") == 0);                  // stray continuation
  CHECK(check_text(std::string("a\0b", 3)) == "NUL byte at byte 2");
  CHECK(check_text("ab\xfe") == "invalid UTF-8 at byte 3 (\\xfe)");
  CHECK(check_text("fine").empty());
}

TEST_CASE("utf8_cut_at_or_before never splits a character") {
  const std::string s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z";  // a é € 😀 z: starts at 0 1 3 6 10
  const size_t want[] = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10};
  for (size_t pos = 0; pos < s.size(); ++pos) CHECK(utf8_cut_at_or_before(s, pos) == want[pos]);
  CHECK(utf8_cut_at_or_before(s, 9, 8) == 8);  // not below the floor
  CHECK(utf8_cut_at_or_before(s, 2, 1) == 1);
}

TEST_CASE("TSV header rule: a header only if every field is a known column") {
  CHECK(is_known_column("src_text"));
  CHECK(is_known_column("bicleaner_score"));
  CHECK(is_known_column("clean_reason"));
  CHECK(is_known_column("x_origin"));
  CHECK_FALSE(is_known_column("_score"));
  CHECK_FALSE(is_known_column("Hello"));
  CHECK_FALSE(is_known_column("src text"));

  auto c = columns_from_first_line("src_url\ttrg_url\tsrc_text\ttrg_text\tscore");
  CHECK(c.header);
  CHECK(c.size() == 5);
  CHECK(c.index("score") == 4);
  auto d = columns_from_first_line("Hello\tBonjour");
  CHECK_FALSE(d.header);
  CHECK(d.names == std::vector<std::string>{"src_text", "trg_text"});
  auto e = columns_from_first_line("src_text\tBonjour");  // one unknown field: data
  CHECK_FALSE(e.header);
}

TEST_CASE("split_tsv and check_row") {
  std::vector<std::string_view> f;
  split_tsv("a\t\tc", f);
  CHECK(f == std::vector<std::string_view>{"a", "", "c"});
  split_tsv("", f);
  CHECK(f.size() == 1);
  split_tsv("a\tb", f);
  CHECK(check_row(f, 2).empty());
  CHECK(check_row(f, 3) == "expected 3 tab-separated columns, found 2");
  split_tsv("a\t\xff", f);
  CHECK(check_row(f, 2) == "invalid UTF-8 at byte 1 (\\xff) in column 2");
}

TEST_CASE("BitextReader: header, headerless, bad rows, skip-bad") {
  TmpDir dir;
  {
    Output o(dir.path("h.tsv"));
    o.write("src_text\ttrg_text\tscore\na\tb\t0.5\nbad\trow\nc\td\t1\n");
    o.commit();
  }
  {
    BitextReader r(open_tsv_lines(open_input(dir.path("h.tsv"))), false);
    CHECK(r.columns().header);
    std::vector<std::string_view> f;
    REQUIRE(r.next(f));
    CHECK(f[2] == "0.5");
    try {
      r.next(f);
      FAIL("bad row accepted");
    } catch (const Error& e) {
      CHECK(e.line() == 3);
      CHECK(e.file() == dir.path("h.tsv"));
    }
  }
  {
    BitextReader r(open_tsv_lines(open_input(dir.path("h.tsv"))), true);
    std::vector<std::string_view> f;
    int n = 0;
    while (r.next(f)) ++n;
    CHECK(n == 2);
    CHECK(r.skipped() == 1);
  }
  {
    Output o(dir.path("plain.tsv"));
    o.write("Hello\tBonjour\n");
    o.commit();
    BitextReader r(open_tsv_lines(open_input(dir.path("plain.tsv"))), false);
    std::vector<std::string_view> f;
    REQUIRE(r.next(f));
    CHECK(f[0] == "Hello");
    CHECK_FALSE(r.columns().header);
  }
}

TEST_CASE("a header without the text columns is an Error") {
  TmpDir dir;
  Output o(dir.path("h.tsv"));
  o.write("src_url\ttrg_url\nu\tv\n");
  o.commit();
  CHECK_THROWS_AS(open_tsv_lines(open_input(dir.path("h.tsv"))), Error);
}

TEST_CASE("lockstep --src/--trg files: rows, and unequal line counts exit 2") {
  TmpDir dir;
  auto put = [&](const std::string& name, const std::string& s) {
    Output o(dir.path(name));
    o.write(s);
    o.commit();
  };
  put("a.en", "one\ntwo\n");
  put("a.fr", "un\ndeux\n");
  put("b.fr", "un\n");
  put("t.fr", "un\tdeux\nx\n");
  auto lines = open_lockstep_lines(dir.path("a.en"), dir.path("a.fr"));
  std::string s;
  REQUIRE(lines->next(s));
  CHECK(s == "one\tun");
  s.clear();
  REQUIRE(lines->next(s));
  CHECK(s == "two\tdeux");
  CHECK_FALSE(lines->next(s));

  auto bad = open_lockstep_lines(dir.path("a.en"), dir.path("b.fr"));
  s.clear();
  REQUIRE(bad->next(s));
  try {
    bad->next(s);
    FAIL("no error for unequal files");
  } catch (const Error& e) {
    CHECK(e.exit_code() == 2);
    CHECK(std::string(e.what()).find("line counts differ") != std::string::npos);
  }
  auto tab = open_lockstep_lines(dir.path("a.en"), dir.path("t.fr"));
  CHECK_THROWS_AS(tab->next(s), Error);
}

TEST_CASE("TsvWriter refuses fields that would break the format") {
  TmpDir dir;
  Output o(dir.path("w.tsv"));
  TsvWriter w(o);
  w.header({"src_text", "trg_text"});
  w.row({"a", "b"});
  CHECK_THROWS_AS(w.row({"a\tb", "c"}), Error);
  CHECK_THROWS_AS(w.row({"a", "b\nc"}), Error);
}

TEST_CASE("JSONL documents: required keys, unknown keys kept in order") {
  Document d;
  CHECK(parse_document(R"({"url":"u","lang":"en","zzz":[1,2],"text":"a\nb","aaa":{"k":true}})", d).empty());
  CHECK(d.url() == "u");
  CHECK(d.text() == "a\nb");
  CHECK(serialize_document(d) == R"({"url":"u","lang":"en","zzz":[1,2],"text":"a\nb","aaa":{"k":true}})");
  d.json["text"] = "caf\xc3\xa9";
  CHECK(serialize_document(d).find("caf\xc3\xa9") != std::string::npos);  // UTF-8 kept, not \u-escaped

  CHECK(parse_document(R"({"url":"u","lang":"en"})", d) == "missing key \"text\"");
  CHECK(parse_document(R"({"url":"u","lang":3,"text":""})", d) == "key \"lang\" must be a string");
  CHECK(parse_document("[1]", d) == "a document line must be a JSON object");
  CHECK(parse_document("{\"url\":\"u\",", d).rfind("not valid JSON", 0) == 0);
  CHECK(parse_document("{\"url\":\"\xff\",\"lang\":\"en\",\"text\":\"\"}", d).rfind("not valid JSON", 0) == 0);
  // A number no double holds: nlohmann throws out_of_range, not parse_error.
  CHECK(parse_document(R"({"url":"u","lang":"en","text":"","n":1e999})", d) ==
        "not valid JSON (number overflow parsing '1e999')");
  const std::string huge = "{\"url\":\"u\",\"lang\":\"en\",\"text\":\"\",\"n\":" + std::string(5000, '7') + "e7777}";
  const std::string why = parse_document(huge, d);
  CHECK(why.rfind("not valid JSON (number overflow parsing '777", 0) == 0);
  CHECK(why.size() < 250);  // the 5,000-digit literal is cut
  CHECK(parse_document(R"({"url":"u","lang":"en","text":"a\u0000b"})", d) == "NUL character in \"text\"");
  CHECK(parse_document(std::string("{\"url\":\"u\"\0}", 12), d) == "NUL byte in a JSON line");
}

TEST_CASE("JsonlReader reports file and line, --skip-bad counts") {
  TmpDir dir;
  Output o(dir.path("d.jsonl"));
  o.write("{\"url\":\"a\",\"lang\":\"en\",\"text\":\"x\"}\nnot json\n{\"url\":\"b\",\"lang\":\"fr\",\"text\":\"y\"}\n");
  o.commit();
  JsonlReader r(open_input(dir.path("d.jsonl")), false);
  Document d;
  REQUIRE(r.next(d));
  try {
    r.next(d);
    FAIL("bad line accepted");
  } catch (const Error& e) {
    CHECK(e.line() == 2);
  }
  JsonlReader s(open_input(dir.path("d.jsonl")), true);
  int n = 0;
  while (s.next(d)) ++n;
  CHECK(n == 2);
  CHECK(s.skipped() == 1);
}

TEST_CASE("XML escaping") {
  std::string out;
  CHECK(append_xml_escaped(out, "a & b < c > d \"e\" 'f'", false));
  CHECK(out == "a &amp; b &lt; c &gt; d \"e\" 'f'");
  out.clear();
  CHECK(append_xml_escaped(out, "\"q\"\t\r", true));
  CHECK(out == "&quot;q&quot;&#x9;&#xD;");
  out = "keep";
  size_t bad = 0;
  CHECK_FALSE(append_xml_escaped(out, "ctrl \x01 char", false, &bad));
  CHECK(out == "keep");
  CHECK(bad == 5);
  CHECK_FALSE(append_xml_escaped(out, "nonchar \xef\xbf\xbe", false, &bad));
  CHECK(append_xml_escaped(out, "\xef\xbc\x81 fullwidth", false));  // U+FF01 is fine
}

namespace {

// Plain one-byte-at-a-time references for the vectorised scanners.
std::string reference_escape(std::string_view s, bool attribute, bool& ok) {
  std::string out;
  ok = true;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) == 0xBE || static_cast<unsigned char>(s[i + 2]) == 0xBF))
      ok = false;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ok = false;
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"' && attribute) out += "&quot;";
    else if (c == '\r') out += "&#xD;";
    else if (c == '\t' && attribute) out += "&#x9;";
    else if (c == '\n' && attribute) out += "&#xA;";
    else out += static_cast<char>(c);
  }
  return ok ? out : std::string();
}

size_t reference_invalid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = b(i);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return i;
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      if ((b(i + k) & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace

TEST_CASE("vectorised escaping and UTF-8 validation agree with byte-at-a-time references") {
  // Random strings over an alphabet rich in the bytes the scanners look for,
  // at every length around the 16-byte vector width.
  const std::vector<std::string> pieces = {"a", "b", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\x01", "\x1f", "\x7f",
                                           "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xef\xbf\xbe",
                                           "\xef\xbc\x81", "\xff", "\x80", "\xed\xa0\x80", "\xc0\xaf", "\xe2\x82"};
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>(state >> 33);
  };
  for (int trial = 0; trial < 4000; ++trial) {
    std::string s;
    size_t target = next() % 70;
    while (s.size() < target) {
      // Mostly plain ASCII runs so that the fast paths get exercised.
      if (next() % 3) s += std::string(next() % 20, 'x');
      else s += pieces[next() % pieces.size()];
    }
    CAPTURE(s);
    for (bool attr : {false, true}) {
      bool ok_ref;
      std::string want = reference_escape(s, attr, ok_ref);
      std::string got;
      CHECK(append_xml_escaped(got, s, attr) == ok_ref);
      CHECK(got == want);
    }
    CHECK(find_invalid_utf8(s) == reference_invalid_utf8(s));
  }
}
