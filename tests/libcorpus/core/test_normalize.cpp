// Normalisation steps, each on its own, and chains described by one string.
#include <doctest/doctest.h>

#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/normalize.h"
#include "libcorpus/core/split_records.h"

using namespace corpus;

TEST_CASE("nfc and nfkc") {
  CHECK(norm_nfc("e\xcc\x81") == "\xc3\xa9");             // e + combining acute -> é
  CHECK(norm_nfc("\xef\xbc\xa1") == "\xef\xbc\xa1");       // full-width A stays under NFC
  CHECK(norm_nfkc("\xef\xbc\xa1") == "A");                 // ... and folds under NFKC
  CHECK(norm_nfkc("\xef\xac\x81") == "fi");                // ligature fi
  CHECK(norm_nfc("plain") == "plain");
}

TEST_CASE("white space and control characters") {
  CHECK(norm_whitespace("  a \t b\xc2\xa0\xc2\xa0" "c\xe3\x80\x80 ") == "a b c");
  CHECK(norm_control("a\x01" "b\x7f" "c\xc2\x85" "d\xef\xbb\xbf" "e\xe2\x80\x8b" "f\xc2\xad" "g") == "abcdefg");
  CHECK(norm_control("a\tb") == "a\tb");
  CHECK(norm_control("\xe0\xa4\x95\xe0\xa5\x8d\xe2\x80\x8d") == "\xe0\xa4\x95\xe0\xa5\x8d\xe2\x80\x8d");  // ZWJ kept
}

TEST_CASE("mojibake: UTF-8 read as Latin-1 or cp1252") {
  CHECK(norm_mojibake("caf\xc3\x83\xc2\xa9") == "caf\xc3\xa9");                        // cafÃ© -> café
  CHECK(norm_mojibake("it\xc3\xa2\xe2\x82\xac\xe2\x84\xa2s") == "it\xe2\x80\x99s");    // itâ€™s -> it’s
  CHECK(norm_mojibake("caf\xc3\x83\xc6\x92\xc3\x82\xc2\xa9") == "caf\xc3\xa9");        // twice encoded
  CHECK(norm_mojibake("caf\xc3\xa9 na\xc3\xafve \xc3\x80 Z\xc3\xbcrich") == "caf\xc3\xa9 na\xc3\xafve \xc3\x80 Z\xc3\xbcrich");
  CHECK(norm_mojibake("\xe4\xb8\xad\xe6\x96\x87") == "\xe4\xb8\xad\xe6\x96\x87");     // real CJK untouched
}

TEST_CASE("HTML entities") {
  CHECK(norm_entities("a &amp; b &lt;c&gt; &eacute;t&eacute; &#233; &#xE9; &apos;") == "a & b <c> \xc3\xa9t\xc3\xa9 \xc3\xa9 \xc3\xa9 '");
  CHECK(norm_entities("AT&T &bogus; &#0; &#xD800; & ;") == "AT&T &bogus; &#0; &#xD800; & ;");
  CHECK(html_named_entities().size() == 253);
}

TEST_CASE("punctuation") {
  CHECK(norm_punct("\xe2\x80\x9cHi\xe2\x80\x9d \xe2\x80\x98x\xe2\x80\x99 a\xe2\x80\x93" "b\xe2\x80\xa6") == "\"Hi\" 'x' a-b...");
  CHECK(norm_punct("\xc2\xab oui \xc2\xbb \xe3\x80\x82") == "\xc2\xab oui \xc2\xbb \xe3\x80\x82");
}

TEST_CASE("a chain is one string") {
  Normalizer n = Normalizer::parse("mojibake,entities,nfc,ctrl,ws,punct");
  CHECK(n.steps().size() == 6);
  CHECK(n.spec() == "mojibake,entities,nfc,ctrl,ws,punct");
  CHECK(Normalizer::parse(n.spec()).steps() == n.steps());
  std::string s = "  caf\xc3\x83\xc2\xa9 &amp;  \xe2\x80\x9cthe\xe2\x80\x9d ";
  CHECK(n.apply(s));
  CHECK(s == "caf\xc3\xa9 & \"the\"");
  CHECK_FALSE(n.apply(s));
  CHECK(Normalizer::parse("").empty());
  CHECK(Normalizer::parse("none").spec() == "none");
  CHECK_THROWS_AS(Normalizer::parse("nfc,bogus"), ConfigError);
}

TEST_CASE("repair_utf8 replaces bad bytes and drops NUL") {
  std::string s("a\xff" "b\xc3" "c\0d", 7);
  CHECK(repair_utf8(s) == 3);
  CHECK(s == "a\xef\xbf\xbd" "b\xef\xbf\xbd" "cd");
}
