#include "mt/encoder/bert_tokenizer.h"

#include <algorithm>

#include "libcorpus/core/error.h"

namespace mt {

namespace {

// XLM-R's ids (fairseq's dictionary): <s> 0, <pad> 1, </s> 2, <unk> 3, then
// SentencePiece piece p at p + 1 (its <unk>, <s>, </s> are 0, 1, 2).
constexpr int32_t kXlmrCls = 0, kXlmrSep = 2, kXlmrUnk = 3, kXlmrOffset = 1;

bool flag(const nlohmann::json& spec, const char* key, bool fallback) {
  if (!spec.contains(key) || spec[key].is_null()) return fallback;
  if (!spec[key].is_boolean()) throw corpus::Error(std::string("tokenizer setting \"") + key + "\" is not true/false");
  return spec[key].get<bool>();
}

std::string token(const nlohmann::json& spec, const char* key, const char* fallback) {
  if (!spec.contains(key) || spec[key].is_null()) return fallback;
  if (!spec[key].is_string()) throw corpus::Error(std::string("tokenizer setting \"") + key + "\" is not a string");
  return spec[key].get<std::string>();
}

}  // namespace

BertTokenizer::BertTokenizer(const nlohmann::json& spec, std::string_view bytes) {
  if (!spec.is_object() || !spec.contains("kind") || !spec["kind"].is_string())
    throw corpus::Error("the encoder config has no tokenizer \"kind\"");
  kind_ = spec["kind"].get<std::string>();
  if (kind_ == "wordpiece") {
    WordPieceOptions o;
    o.lower = flag(spec, "do_lower_case", true);
    o.strip_accents = flag(spec, "strip_accents", o.lower);
    o.split_cjk = flag(spec, "tokenize_chinese_chars", true);
    o.unk = token(spec, "unk_token", "[UNK]");
    o.cls = token(spec, "cls_token", "[CLS]");
    o.sep = token(spec, "sep_token", "[SEP]");
    spec_ = {{"kind", kind_},
             {"do_lower_case", o.lower},
             {"strip_accents", o.strip_accents},
             {"tokenize_chinese_chars", o.split_cjk},
             {"unk_token", o.unk},
             {"cls_token", o.cls},
             {"sep_token", o.sep}};
    wp_ = std::make_unique<WordPiece>(bytes, o);
    max_id_ = wp_->size() - 1;
  } else if (kind_ == "sentencepiece") {
    if (token(spec, "ids", "xlm-roberta") != "xlm-roberta")
      throw corpus::Error("SentencePiece ids " + corpus::quote(spec["ids"].dump()) + " are not known",
                          "the encoder knows XLM-R's ids (\"xlm-roberta\")");
    spec_ = {{"kind", kind_}, {"ids", "xlm-roberta"}};
    spm_ = std::make_unique<Tokenizer>(bytes);
    if (spm_->vocab_size() < 3 || spm_->piece(0) != "<unk>" || spm_->piece(1) != "<s>" || spm_->piece(2) != "</s>")
      throw corpus::Error("the SentencePiece model does not have XLM-R's pieces <unk> 0, <s> 1, </s> 2",
                          "give the sentencepiece.bpe.model of an XLM-R-tokenized model");
    spm_unk_ = 0;
    max_id_ = spm_->vocab_size() - 1 + kXlmrOffset;
  } else {
    throw corpus::Error("tokenizer kind " + corpus::quote(kind_) + " is not known",
                        "the encoder knows wordpiece and sentencepiece");
  }
}

BertTokenizer::~BertTokenizer() = default;

std::vector<int32_t> BertTokenizer::encode(std::string_view text, int max_tokens) const {
  const size_t keep = static_cast<size_t>(std::max(0, max_tokens - 2));
  std::vector<int32_t> ids;
  if (wp_) {
    ids.push_back(wp_->cls_id());
    std::vector<int32_t> body = wp_->encode(text);
    if (body.size() > keep) body.resize(keep);
    ids.insert(ids.end(), body.begin(), body.end());
    ids.push_back(wp_->sep_id());
  } else {
    bool cut = false;
    std::vector<int32_t> body = spm_->encode_prefix(text, keep, cut);
    if (body.size() > keep) body.resize(keep);
    ids.push_back(kXlmrCls);
    for (int32_t p : body) ids.push_back(p == spm_unk_ ? kXlmrUnk : p + kXlmrOffset);
    ids.push_back(kXlmrSep);
  }
  return ids;
}

}  // namespace mt
