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
  std::string decode(const std::vector<int32_t>& ids) const;
  int vocab_size() const;
  std::string piece(int id) const;
  float score(int id) const;

 private:
  std::unique_ptr<sentencepiece::SentencePieceProcessor> sp_;
};

}  // namespace mt
