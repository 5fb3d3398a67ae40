// Error messages are one line whatever the input put into them.
#include <doctest/doctest.h>

#include <string>

#include "libcorpus/core/error.h"

using namespace corpus;

TEST_CASE("one_line escapes line breaks, controls, separators and bytes that are not UTF-8") {
  CHECK(one_line("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(one_line("x\x01y\x7f") == "x\\x01y\\x7f");
  CHECK(one_line(std::string("nul\0", 4)) == "nul\\x00");
  CHECK(one_line("ls\u2028ps\u2029") == "ls\\u2028ps\\u2029");
  CHECK(one_line("nel\u0085") == "nel\\u0085");
  CHECK(one_line("caf\xe9 \xff") == "caf\\xe9 \\xff");
  CHECK(one_line("\xe2\x80") == "\\xe2\\x80");      // cut-short sequence
  CHECK(one_line("\xc0\xaf") == "\\xc0\\xaf");      // overlong '/'
  CHECK(one_line("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // surrogate
  CHECK(one_line("déjà vu — 日本語 😀") == "déjà vu — 日本語 😀");
  CHECK(one_line("back\\slash") == "back\\slash");
}

TEST_CASE("quote escapes like one_line and never cuts a character in two") {
  CHECK(quote("a\tb") == "'a\\tb'");
  CHECK(quote("a\nb") == "'a\\nb'");
  CHECK(quote("\xff") == "'\\xff'");
  CHECK(quote("\u2028") == "'\\u2028'");
  CHECK(quote("abcdef", 3) == "'abc...'");
  CHECK(quote("ab\u00e9\u00e9", 3) == "'ab\u00e9...'");  // é starts at byte 2: kept whole
  CHECK(quote("abc", 3) == "'abc'");
}

TEST_CASE("Error::format is one line when the file name, the message or the hint hold line breaks") {
  Error e("bad value " + std::string("'a\nb'"), "fix\rit");
  e.at("dir/new\nline.tsv", 3);
  std::string m = e.format("pc-x");
  CHECK(m == "pc-x: dir/new\\nline.tsv:3: bad value 'a\\nb' \u2014 fix\\rit");
  CHECK(m.find('\n') == std::string::npos);
  CHECK(Error("x\u2029y").at("f\xff").format("t") == "t: f\\xff: x\\u2029y");
  CHECK(Error("plain").at("-", 2).format("t") == "t: <stdin>:2: plain");
}
