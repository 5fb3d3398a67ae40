// pc-embed import: a Hugging Face BERT-family folder made into one paracorp
// encoder file (config kind "bert"), which BertEncoder (bert_encoder.h) runs.
//
// The folder holds config.json (model_type bert or xlm-roberta),
// model.safetensors (F32, F16 or BF16; tensor names with or without the
// "bert." / "roberta." prefix) and a tokenizer: vocab.txt (WordPiece, with
// tokenizer_config.json's do_lower_case, strip_accents and
// tokenize_chinese_chars when present) or sentencepiece.bpe.model (XLM-R's
// ids); sentence_bert_config.json's max_seq_length, when present, becomes
// the encoder's cut. The output holds the F32 weights under Hugging Face's names, the
// tokenizer's bytes as the U8 tensor "tokenizer", and __metadata__ format
// "paracorp.encoder", version "1", config: the Hugging Face fields plus kind
// "bert", pooling and the tokenizer's settings.
#pragma once

#include <string>
#include <string_view>

namespace mt {

// Writes `out_path` atomically and returns what the model is (describe()).
// `pooling` is "cls" (the [CLS] vector through the pooler's dense layer and
// tanh; the model must have the pooler) or "mean" (corpus::ConfigError
// otherwise). A missing or damaged file, an unknown model_type, or a tensor
// whose shape config.json contradicts is a corpus::Error naming the file.
std::string import_bert(const std::string& folder, std::string_view pooling, const std::string& out_path);

}  // namespace mt
