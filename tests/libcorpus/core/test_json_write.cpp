// JSON written by hand (libcorpus/json_write.h) against nlohmann's dump.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "libcorpus/core/json_write.h"

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

TEST_CASE("json_write: whole values match nlohmann's dump") {
  std::mt19937 rng(11);
  const std::string alphabet = std::string("ab \"\\\n\x01\x7f", 8) + "\xc3\xa9\xe6\x97\xa5";
  auto random_string = [&] {
    std::string s;
    for (int i = rng() % 6; i > 0; --i) s += alphabet[rng() % alphabet.size()];
    return s;
  };
  std::function<nlohmann::ordered_json(int)> random_value = [&](int depth) -> nlohmann::ordered_json {
    switch (depth > 3 ? rng() % 6 : rng() % 8) {
      case 0: return random_string();
      case 1: return static_cast<int64_t>(rng()) - (1LL << 31);
      case 2: return std::ldexp(static_cast<double>(rng()), -static_cast<int>(rng() % 40));
      case 3: return rng() % 2 == 0;
      case 4: return nullptr;
      case 5: return static_cast<uint64_t>(rng()) << 32;
      case 6: {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (int i = rng() % 4; i > 0; --i) a.push_back(random_value(depth + 1));
        return a;
      }
      default: {
        nlohmann::ordered_json o = nlohmann::ordered_json::object();
        for (int i = rng() % 4; i > 0; --i) o[random_string()] = random_value(depth + 1);
        return o;
      }
    }
  };
  for (int n = 0; n < 3000; ++n) {
    nlohmann::ordered_json j = random_value(0);
    std::string out;
    append_json(out, j);
    REQUIRE(out == j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  nlohmann::ordered_json bad = {{"text", "\xff"}};
  std::string out;
  CHECK_THROWS_AS(append_json(out, bad, true), nlohmann::json::type_error);
  out.clear();
  append_json(out, bad);
  CHECK(out == "{\"text\":\"\xef\xbf\xbd\"}");
}
