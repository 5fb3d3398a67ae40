// The tokenizer of an imported BERT-family encoder: WordPiece (vocab.txt:
// LaBSE, BERT) or SentencePiece with XLM-R's ids (sentencepiece.bpe.model:
// multilingual MiniLM, E5, XLM-R). Kept inside the paracorp encoder file as
// the "tokenizer" U8 tensor, described by the config's "tokenizer" object.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mt/encoder/wordpiece.h"
#include "mt/spm/spm.h"

namespace mt {

class BertTokenizer {
 public:
  // `spec` is the config's "tokenizer" object ({"kind": "wordpiece", with
  // do_lower_case, strip_accents, tokenize_chinese_chars, unk_token,
  // cls_token, sep_token} or {"kind": "sentencepiece", "ids":
  // "xlm-roberta"}), `bytes` vocab.txt or the SentencePiece model. Throws
  // corpus::Error (without a file: the caller adds it).
  BertTokenizer(const nlohmann::json& spec, std::string_view bytes);
  ~BertTokenizer();

  // [CLS] pieces [SEP] of valid UTF-8 `text`, the pieces cut so that there
  // are at most max_tokens ids (Hugging Face's truncation=True).
  std::vector<int32_t> encode(std::string_view text, int max_tokens) const;
  // The largest id encode() can give (checked against the vocabulary size).
  int32_t max_id() const { return max_id_; }
  const nlohmann::json& spec() const { return spec_; }
  const std::string& kind() const { return kind_; }

 private:
  nlohmann::json spec_;
  std::string kind_;
  std::unique_ptr<WordPiece> wp_;
  std::unique_ptr<Tokenizer> spm_;
  int32_t spm_unk_ = 0;
  int32_t max_id_ = 0;
};

}  // namespace mt
