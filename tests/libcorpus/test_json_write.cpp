// JSON written by hand (libcorpus/json_write.h) against nlohmann's dump.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "libcorpus/json_write.h"

using namespace corpus;

namespace {

std::string reference(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string mine(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

}  // namespace

TEST_CASE("json_write: strings are escaped as nlohmann escapes them") {
  for (const std::string& s : {std::string(), std::string("plain"), std::string("a \"quoted\" \\ path"),
                              std::string("tab\tnew\nline\rcr\bbs\fff"), std::string("\x01\x1f\x7f end", 6),
                              std::string("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"),
                              std::string("\xff bad \xc3 cut"), std::string("\xed\xa0\x80 surrogate"),
                              std::string("nul \0 inside", 12)})
    CHECK(mine(s) == reference(s));
  CHECK(mine("\x01") == "\"\\u0001\"");
  CHECK(mine("\xff") == "\"\xef\xbf\xbd\"");  // U+FFFD for a bad byte
}

TEST_CASE("json_write: random byte strings match nlohmann") {
  std::mt19937 rng(7);
  const std::string alphabet = std::string("ab \"\\\n\t\x01\x1f\x7f", 11) + "\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80\xff\x80";
  for (int n = 0; n < 20000; ++n) {
    std::string s;
    for (int i = rng() % 12; i > 0; --i) s += alphabet[rng() % alphabet.size()];
    REQUIRE(mine(s) == reference(s));
  }
}

TEST_CASE("json_write: hundredths and objects match nlohmann") {
  for (int k = 0; k <= 100; ++k) {
    std::string out;
    append_json_hundredths(out, k);
    CHECK(out == nlohmann::json(k / 100.0).dump());
  }
  std::string out;
  JsonObjectWriter w(out);
  w.str("url", "http://x/\xff").num("offset", 18446744073709551615ULL).hundredths("score", 7);
  w.value("list") += "[\"en\",\"fr\"]";
  JsonObjectWriter inner(w.value("warc"));
  inner.str("file", "a.warc.gz").num("length", 0);
  inner.close();
  w.close();
  nlohmann::ordered_json j;
  j["url"] = "http://x/\xff";
  j["offset"] = 18446744073709551615ULL;
  j["score"] = 0.07;
  j["list"] = {"en", "fr"};
  j["warc"] = nlohmann::ordered_json{{"file", "a.warc.gz"}, {"length", 0}};
  CHECK(out == j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}
