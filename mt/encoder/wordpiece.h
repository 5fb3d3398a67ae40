// BERT's WordPiece tokenizer with Hugging Face BertTokenizer's rules, so an
// imported LaBSE or BERT gets the ids it was trained on:
//  - BasicTokenizer: NUL, U+FFFD and control characters dropped, white space
//    made spaces, spaces put around CJK ideographs, NFC, split at white
//    space; per word, with do_lower_case, lowercasing and (unless
//    strip_accents is false) accents stripped (NFD, marks Mn dropped; the
//    word stays decomposed, as Hugging Face leaves it); then split at each
//    punctuation character (ASCII symbols count as punctuation);
//  - WordPiece: greedy longest match first, continuations prefixed "##"; a
//    word with no full match, or over 100 characters, is one [UNK].
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mt {

struct WordPieceOptions {
  bool lower = true;
  bool strip_accents = true;  // Hugging Face's strip_accents None follows lower
  bool split_cjk = true;      // tokenize_chinese_chars
  std::string unk = "[UNK]", cls = "[CLS]", sep = "[SEP]";
};

class WordPiece {
 public:
  // `vocab` is vocab.txt: one token a line, the id its line number. Throws
  // corpus::Error (without a file: the caller adds it) when the special
  // tokens are missing or the text is not UTF-8.
  WordPiece(std::string_view vocab, WordPieceOptions opt);

  // The ids of valid UTF-8 `text`, without [CLS] and [SEP].
  std::vector<int32_t> encode(std::string_view text) const;
  // BasicTokenizer's words (before WordPiece), for tests.
  std::vector<std::string> words(std::string_view text) const;

  int32_t cls_id() const { return cls_; }
  int32_t sep_id() const { return sep_; }
  int32_t unk_id() const { return unk_; }
  // One past the largest id.
  int32_t size() const { return size_; }

 private:
  WordPieceOptions opt_;
  std::unordered_map<std::string, int32_t> vocab_;
  int32_t cls_ = 0, sep_ = 0, unk_ = 0, size_ = 0;
};

}  // namespace mt
