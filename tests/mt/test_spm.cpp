// The SentencePiece wrapper: a model trained here, a model that is not one,
// and encode_prefix, which bounds the work on a huge line.
#include <doctest/doctest.h>

#include <cstdint>
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

// Protobuf by hand: a ModelProto of the given pieces (SentencePiece: piece,
// score, type), so a test can make what no trainer writes.
std::string varint(uint64_t v) {
  std::string s;
  for (; v >= 0x80; v >>= 7) s += static_cast<char>(0x80 | (v & 0x7F));
  s += static_cast<char>(v);
  return s;
}
std::string field(int number, const std::string& bytes) { return varint(uint64_t(number) << 3 | 2) + varint(bytes.size()) + bytes; }
std::string piece(const std::string& text, int type = 1) {
  return field(1, text) + std::string("\x15\0\0\x80\xbf", 5) + varint(3 << 3) + varint(uint64_t(type));
}
std::string model_of(const std::vector<std::string>& normal) {
  std::string m = field(1, piece("<pad>", 3)) + field(1, piece("<unk>", 2)) + field(1, piece("<s>", 3)) +
                  field(1, piece("</s>", 3));
  for (const auto& p : normal) m += field(1, piece(p));
  return m;
}

// The message of the corpus::Error a model gets, or "loaded".
std::string refusal(const std::string& model) {
  try {
    Tokenizer t(model);
    return "loaded";
  } catch (const corpus::Error& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("spm: a hand-made model loads, so the refusals below are about the damage only") {
  Tokenizer t(model_of({"\xe2\x96\x81" "a", "b", "ab"}));
  CHECK(t.vocab_size() == 7);
  CHECK(t.piece(6) == "ab");
}

TEST_CASE("spm: a damaged piece table is a corpus::Error, never libsentencepiece's trie exception") {
  // The fuzzer's model: a piece "\0L>" that the trie sees as zero-length.
  const std::string fuzzed(
      "\x1a\x0e\x0a\x05<pad>%\0\0\0\0\x18\x03\x0a\x0e\x0a\x05<unk>\x15\0\0\0\0\x18\x02\x0a\x0c\x0a\x03\0L>"
      "\x80\x01\x01\x90\x01\x80\x40\x98\x01\0\x88\x02\0\xc0\x02\x01\xc8\x02\x02\xd0\x02\x03\xd8\x02\0"
      "\x1a\x0a\x0a\x08identity",
      76);
  CHECK(refusal(fuzzed) == "not a valid SentencePiece model (piece 1 holds a NUL byte)");
  CHECK(refusal(model_of({"a", ""})) == "not a valid SentencePiece model (piece 5 is empty)");
  CHECK(refusal(model_of({std::string("\0a", 2)})) == "not a valid SentencePiece model (piece 4 holds a NUL byte)");
  // A NUL inside breaks the trie's key order ("ab" sorts before "a\0c" as a C string "a").
  CHECK(refusal(model_of({std::string("a\0c", 3), "ab"})) ==
        "not a valid SentencePiece model (piece 4 holds a NUL byte)");
  // A piece message without its text field.
  CHECK(refusal(model_of({"a"}) + field(1, std::string("\x15\0\0\0\0", 5))) ==
        "not a valid SentencePiece model (piece 5 is empty)");
  // Lengths past the end, at either level.
  std::string m = model_of({"abc"});
  CHECK(refusal(m.substr(0, m.size() - 3)) == "not a valid SentencePiece model (broken protobuf framing)");
  CHECK(refusal(m + field(1, "\x0a\x7f" "abc")) == "not a valid SentencePiece model (piece 5: broken protobuf framing)");
}

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
