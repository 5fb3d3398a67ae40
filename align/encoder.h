// The sentence-encoder interface (DESIGN.md §2, §6). align defines it and the
// lexical encoders; the neural encoders (trained dual encoders and imported
// BERT-family models) live in mt/ on the translation layers and reach align's
// users through this interface, so align never includes mt.
//
// Every encoder model is one safetensors file with __metadata__ "format"
// "paracorp.encoder", a "version", and "config" JSON whose "kind" says which
// implementation reads it ("lexical", "neural", "bert"). The tools open the
// file, read the kind with encoder_kind() and hand the path to the loader of
// that kind.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace align {

inline constexpr const char* kEncoderFormat = "paracorp.encoder";

class SentenceEncoder {
 public:
  virtual ~SentenceEncoder() = default;

  // Length of every vector.
  virtual std::size_t dim() const = 0;

  // Which language side a sentence is on, for encoders that treat the two
  // languages differently (a lexical encoder maps each into the shared
  // space with its own projection). Language-agnostic encoders ignore it.
  enum class Side { kSource, kTarget };

  // Writes one vector per sentence into `out` (sentences.size() × dim(),
  // row-major), each L2-normalised; an empty sentence gets the vector the
  // encoder documents for it. Must be safe to call from several threads at
  // once on one encoder, and a row must not depend on the other sentences of
  // the call (so output does not depend on batching or the thread count).
  // Throws corpus::Error on input it cannot encode (invalid UTF-8).
  virtual void encode(std::span<const std::string_view> sentences, Side side, std::span<float> out) const = 0;

  // What the model is, for logs and provenance ("lexical d=512 ...").
  virtual std::string describe() const = 0;
};

// The config "kind" of an encoder model file; throws corpus::Error naming the
// file when it is not a paracorp.encoder file (another paracorp model, a
// foreign safetensors file, not safetensors at all).
std::string encoder_kind(const std::string& path);

}  // namespace align
