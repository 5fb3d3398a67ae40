// SentencePiece (Debian's libsentencepiece): training from sentences in
// memory, and a tokenizer made from a serialised model (the U8 tensor kept in
// the model file). Ids: pad 0, unk 1, bos 2, eos 3, as Config's defaults.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace mt {

struct SpmTrainOptions {
  int vocab_size = 8000;              // pieces, specials included (a soft limit for small data)
  std::string model_type = "unigram";  // unigram or bpe
  double character_coverage = 1.0;    // 0.9995 for large alphabets (CJK)
  size_t max_sentences = 300000;      // a seeded sample of at most this many sentences is used
  uint64_t seed = 1;
  // Pieces kept whole (SentencePiece's user-defined symbols), e.g. the
  // placeholder symbols of libcorpus/core/placeholders.h.
  std::vector<std::string> user_symbols;
};

// Trains on `sentences` and returns the serialised model. One training
// thread, so the model does not depend on --threads. Throws corpus::Error.
std::string train_spm(const std::vector<std::string>& sentences, const SpmTrainOptions& opt);

class Tokenizer {
 public:
  // Throws corpus::Error when the bytes are not a SentencePiece model.
  explicit Tokenizer(std::string_view serialized);
  ~Tokenizer();
  std::vector<int32_t> encode(std::string_view text) const;
  // As encode, for a caller that keeps at most `max_tokens` tokens: a text
  // over max_text_bytes(max_tokens) bytes is cut there (at a code point
  // boundary) before it is encoded, and `cut` says so. Encoding costs time
  // and memory in proportion to the text (a 5 MB line took 6 s and 1.2 GB),
  // and such a text has more than `max_tokens` tokens unless most of it is
  // white space or characters that normalisation removes.
  std::vector<int32_t> encode_prefix(std::string_view text, size_t max_tokens, bool& cut) const;
  // 4x the longest piece's bytes per token: normalisation can shrink text
  // (NFKC maps a 3-byte full-width letter to 1 byte).
  size_t max_text_bytes(size_t max_tokens) const { return 4 * max_piece_bytes_ * max_tokens; }
  std::string decode(const std::vector<int32_t>& ids) const;
  int vocab_size() const;
  std::string piece(int id) const;
  // The id of `piece`, or -1 when the vocabulary lacks it.
  int piece_id(std::string_view piece) const;
  float score(int id) const;

 private:
  std::unique_ptr<sentencepiece::SentencePieceProcessor> sp_;
  size_t max_piece_bytes_ = 1;  // the longest normal piece, in bytes
};

}  // namespace mt
