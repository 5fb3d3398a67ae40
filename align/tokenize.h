// Word tokenisation for IBM Model 1: ICU word break or whitespace, with
// optional Unicode lowercasing (ICU full case mapping, root locale).
//
// ICU mode keeps every segment of the word-break iterator that is not white
// space: words, numbers, punctuation marks (one token each), and for scripts
// without spaces (CJK, Thai) the dictionary-based words. Whitespace mode splits
// at ASCII space and tab only, so pre-tokenised text (Moses, SentencePiece
// pieces) passes unchanged. A Tokenizer is not thread-safe; use one per thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace align {

enum class TokenMode { kIcu, kWhitespace };

struct TokenizerOptions {
  TokenMode mode = TokenMode::kIcu;  // --tokenize icu|whitespace
  bool lowercase = false;            // --lowercase
};

// "icu" or "whitespace"; throws corpus::ConfigError for anything else.
TokenMode parse_token_mode(std::string_view s);
const char* token_mode_name(TokenMode m);

class Tokenizer {
 public:
  explicit Tokenizer(TokenizerOptions o);
  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Appends the tokens of `text` (valid UTF-8) to `out`.
  void tokenize(std::string_view text, std::vector<std::string>& out);
  std::vector<std::string> tokenize(std::string_view text) {
    std::vector<std::string> v;
    tokenize(text, v);
    return v;
  }

 private:
  struct Impl;
  TokenizerOptions opt_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace align
