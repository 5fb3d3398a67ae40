#include "mt/encoder/open_encoder.h"

#include "align/lexical_encoder.h"
#include "libcorpus/core/error.h"
#include "mt/encoder/bert_encoder.h"
#include "mt/encoder/combined_encoder.h"
#include "mt/encoder/neural_file.h"

namespace mt {

std::unique_ptr<align::SentenceEncoder> open_sentence_encoder(const std::string& path) {
  const std::string kind = align::encoder_kind(path);
  if (kind == align::LexicalEncoder::kKind) return align::LexicalEncoder::load(path);
  if (kind == "bert") return load_bert_encoder(path);
  if (kind == kNeuralKind) return load_neural_encoder(path);
  if (kind == kCombinedKind) return load_combined_encoder(path);
  throw corpus::Error("a sentence encoder of kind \"" + kind + "\", which this pc-embed cannot run",
                      "use a model made by pc-embed train, combine or import")
      .at(path);
}

}  // namespace mt
