// WordPiece with Hugging Face BertTokenizer's rules (mt/encoder/wordpiece.h),
// on a hand-made vocabulary: the cases the fixture sentences do not pin down.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "mt/encoder/wordpiece.h"

using mt::WordPiece;
using mt::WordPieceOptions;

namespace {

const char* kVocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\nun\n##aff\n##able\nx\nCafé\ncafe\n,\n!\n北\n京\n";

std::vector<std::string> words(std::string_view text, bool lower) {
  WordPieceOptions o;
  o.lower = o.strip_accents = lower;
  return WordPiece(kVocab, o).words(text);
}

}  // namespace

TEST_CASE("wordpiece: greedy longest match with ## continuations, and [UNK] for a word that does not split") {
  const WordPiece wp(kVocab, WordPieceOptions{});
  CHECK(wp.cls_id() == 2);
  CHECK(wp.sep_id() == 3);
  CHECK(wp.unk_id() == 1);
  CHECK(wp.encode("unaffable!") == std::vector<int32_t>{4, 5, 6, 11});
  // "x" matches but "##y" does not: the whole word is one [UNK], not x [UNK].
  CHECK(wp.encode("xy x") == std::vector<int32_t>{1, 7});
  CHECK(wp.encode(std::string(100, 'x')) == std::vector<int32_t>{1});  // no ##x: unknown, but tried
  CHECK(wp.encode(std::string(101, 'x')) == std::vector<int32_t>{1});
  CHECK(wp.encode("").empty());
}

TEST_CASE("wordpiece: a word is at most 100 characters, counted in code points, not bytes") {
  std::string vocab = "[UNK]\n[CLS]\n[SEP]\né\n##é\n";
  const WordPiece wp(vocab, WordPieceOptions{.lower = false, .strip_accents = false});
  std::string w;
  for (int i = 0; i < 100; ++i) w += "é";  // 200 bytes
  std::vector<int32_t> want = {3};
  want.insert(want.end(), 99, 4);
  CHECK(wp.encode(w) == want);
  CHECK(wp.encode(w + "é") == std::vector<int32_t>{0});
}

TEST_CASE("wordpiece: do_lower_case lowercases and strips accents, cased keeps both") {
  CHECK(words("Café", true) == std::vector<std::string>{"cafe"});
  CHECK(words("Café", false) == std::vector<std::string>{"Café"});
  // Python's str.lower: a final capital sigma becomes ς.
  CHECK(words("ΟΔΟΣ ΣΑ", true) == std::vector<std::string>{"οδος", "σα"});
  const WordPiece cased(kVocab, WordPieceOptions{.lower = false, .strip_accents = false});
  CHECK(cased.encode("Café cafe") == std::vector<int32_t>{8, 9});
}

TEST_CASE("wordpiece: CJK ideographs and punctuation are words of their own, control characters are dropped") {
  CHECK(words("北京abc", true) == std::vector<std::string>{"北", "京", "abc"});
  CHECK(words("a,b!(c)", true) == std::vector<std::string>{"a", ",", "b", "!", "(", "c", ")"});
  // ASCII symbols count as punctuation although Unicode calls $ and ^ symbols.
  CHECK(words("1$2^3", true) == std::vector<std::string>{"1", "$", "2", "^", "3"});
  CHECK(words("a\u200bb\x01 c\u00a0d\te", true) == std::vector<std::string>{"ab", "c", "d", "e"});
  // Kana are not split (BERT's CJK rule is the Han blocks only); accent
  // stripping drops the voiced mark of が (NFD か + U+3099), as Hugging Face does.
  CHECK(words("ひらがな", false) == std::vector<std::string>{"ひらがな"});
  CHECK(words("ひらがな", true) == std::vector<std::string>{"ひらかな"});
}

TEST_CASE("wordpiece: a vocabulary without the special tokens is an error") {
  CHECK_THROWS_AS(WordPiece("a\nb\n", WordPieceOptions{}), corpus::Error);
  CHECK_THROWS_AS(WordPiece("[UNK]\n[CLS]\n\xff\n[SEP]\n", WordPieceOptions{}), corpus::Error);
}
