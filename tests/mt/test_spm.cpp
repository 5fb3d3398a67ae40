// The SentencePiece wrapper: a model trained here, a model that is not one,
// and encode_prefix, which bounds the work on a huge line.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "mt/spm/spm.h"

using namespace mt;

namespace {

const std::string& small_model() {
  static const std::string model = [] {
    std::vector<std::string> sents;
    const char* words[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "café", "naïve"};
    for (int i = 0; i < 400; ++i) {
      std::string s;
      for (int w = 0; w < 8; ++w) s.append(words[(i * 7 + w * 3) % 10]).append(" ");
      sents.push_back(s);
    }
    SpmTrainOptions o;
    o.vocab_size = 60;
    return train_spm(sents, o);
  }();
  return model;
}

}  // namespace

TEST_CASE("spm: a model that is not one is refused") {
  CHECK_THROWS_AS(Tokenizer("not a sentencepiece model"), corpus::Error);
  CHECK_THROWS_AS(Tokenizer(small_model().substr(0, small_model().size() / 2)), corpus::Error);
}

TEST_CASE("spm: encode_prefix equals encode below the bound") {
  Tokenizer tok(small_model());
  const std::string text = "the lazy dog jumps over the quick brown fox";
  bool cut = true;
  CHECK(tok.encode_prefix(text, 100, cut) == tok.encode(text));
  CHECK_FALSE(cut);
  CHECK(tok.decode(tok.encode(text)) == text);
}

TEST_CASE("spm: encode_prefix cuts a huge line and keeps its first tokens") {
  Tokenizer tok(small_model());
  std::string text;
  while (text.size() < 200000) text += "the quick brown fox jumps over the lazy dog ";
  const size_t max_tokens = 20;
  REQUIRE(tok.max_text_bytes(max_tokens) < text.size());
  bool cut = false;
  const std::vector<int32_t> prefix = tok.encode_prefix(text, max_tokens, cut);
  CHECK(cut);
  const std::vector<int32_t> full = tok.encode(text);
  REQUIRE(prefix.size() >= max_tokens);
  REQUIRE(full.size() > prefix.size());
  // Words before the cut tokenise alone (pieces do not cross white space).
  CHECK(std::vector<int32_t>(prefix.begin(), prefix.begin() + max_tokens) ==
        std::vector<int32_t>(full.begin(), full.begin() + max_tokens));
}

TEST_CASE("spm: encode_prefix cuts at a code point boundary") {
  Tokenizer tok(small_model());
  const size_t limit = tok.max_text_bytes(5);
  for (size_t pad = 0; pad < 2; ++pad) {  // 'é' is 2 bytes: the limit falls inside one of them or after it
    std::string text(pad, 'x');
    while (text.size() < 100000) text += "é";
    bool cut = false;
    const std::vector<int32_t> ids = tok.encode_prefix(text, 5, cut);
    CHECK(cut);
    const size_t whole = pad + (limit - pad) / 2 * 2;  // the last 'é' that ends at or before the limit
    CHECK(ids == tok.encode(text.substr(0, whole)));
  }
}
