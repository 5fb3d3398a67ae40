// Word tokenisation (align/tokenize.h).
#include <doctest/doctest.h>

#include "align/tokenize.h"
#include "libcorpus/core/error.h"

using namespace align;
using V = std::vector<std::string>;

TEST_CASE("tokenize: ICU word break keeps words, numbers and punctuation") {
  Tokenizer t({TokenMode::kIcu, false});
  CHECK(t.tokenize("Hello, world! It's 3.5 km.") == V{"Hello", ",", "world", "!", "It's", "3.5", "km", "."});
  CHECK(t.tokenize("  \t ") == V{});
  CHECK(t.tokenize("Ça coûte 10 €") == V{"Ça", "coûte", "10", "€"});
  // No spaces in Japanese: the dictionary-based break iterator splits words.
  CHECK(t.tokenize("東京都に住んでいます").size() > 2);
}

TEST_CASE("tokenize: whitespace mode and lowercasing") {
  Tokenizer w({TokenMode::kWhitespace, false});
  CHECK(w.tokenize(" a  b\tc, ") == V{"a", "b", "c,"});
  Tokenizer wl({TokenMode::kWhitespace, true});
  CHECK(wl.tokenize("ÉTÉ İstanbul ΣΟΦΟΣ") == V{"été", "i̇stanbul", "σοφος"});
  Tokenizer il({TokenMode::kIcu, true});
  CHECK(il.tokenize("Straße GROSS") == V{"straße", "gross"});
}

TEST_CASE("tokenize: mode names") {
  CHECK(parse_token_mode("icu") == TokenMode::kIcu);
  CHECK(parse_token_mode("whitespace") == TokenMode::kWhitespace);
  CHECK_THROWS_AS(parse_token_mode("spaces"), corpus::ConfigError);
}
