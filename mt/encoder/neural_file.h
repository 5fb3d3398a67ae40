// The trained neural encoder as one file (DESIGN.md §4): a safetensors file
// with __metadata__ format "paracorp.encoder", version "1", config (JSON,
// kind "neural", NeuralConfig), the weights in layout order as F32 tensors
// and the joint SentencePiece model as the U8 tensor "tokenizer". A
// checkpoint is the same file plus "adam.m", "adam.v" and the metadata
// "train_state" and "train_log", so encode takes either.
//
// NeuralEncoder is the SentenceEncoder of such a file: pieces then EOS
// through the Transformer, mean pooling, L2 normalisation. A sentence with
// no pieces (empty or white space) is the zero vector, as the lexical
// encoder's; a sentence over max_len - 1 pieces is cut there. A vector does
// not depend on the other sentences of a call, bit for bit
// (tests/mt/test_dual_encoder.cpp): where mt's AVX-512 kernel runs the
// products (it keeps each row's bits), sentences of one length share passes
// of 17 to 512 positions; elsewhere each sentence runs alone.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "align/encoder.h"
#include "libcorpus/core/safetensors.h"
#include "mt/encoder/dual_model.h"
#include "mt/spm/spm.h"

namespace mt {

struct NeuralWrite {
  const NeuralConfig* config = nullptr;
  const ParamLayout* layout = nullptr;
  const float* params = nullptr;
  std::string_view spm;                                                  // the serialised tokenizer
  std::map<std::string, std::string> metadata;                           // added to __metadata__
  std::vector<std::pair<std::string, const std::vector<float>*>> extra;  // more F32 tensors (1-D)
};

// Writes atomically (temporary name, then rename).
void save_neural(const std::string& path, const NeuralWrite& w);

class NeuralFile {
 public:
  // Maps the file and checks format, version, kind, config and every
  // tensor's shape; throws corpus::Error naming the file.
  explicit NeuralFile(const std::string& path);
  // The neural part of another encoder file (a combined one): tensors named
  // `prefix` + the names above, config `config` (JSON text); the same checks.
  NeuralFile(std::shared_ptr<const corpus::safetensors::File> f, const std::string& prefix, const std::string& config);
  const NeuralConfig& config() const { return cfg_; }
  const ParamLayout& layout() const { return layout_; }
  const std::vector<float>& params() const { return params_; }
  std::string_view spm() const;
  const corpus::safetensors::File& file() const { return *file_; }
  // An F32 tensor of n values (a checkpoint's moments); throws when absent.
  const float* extra(const std::string& name, int64_t n) const;

 private:
  void load(const std::string& config);
  std::shared_ptr<const corpus::safetensors::File> file_;
  std::string prefix_;
  NeuralConfig cfg_;
  ParamLayout layout_;
  std::vector<float> params_;
};

class NeuralEncoder final : public align::SentenceEncoder {
 public:
  explicit NeuralEncoder(const std::string& path);
  explicit NeuralEncoder(NeuralFile file);
  std::size_t dim() const override { return static_cast<std::size_t>(file_.config().dim); }
  void encode(std::span<const std::string_view> sentences, Side side, std::span<float> out) const override;
  std::string describe() const override;

 private:
  NeuralFile file_;
  Tokenizer tok_;
};

// Pieces of `text` as the encoder sees them: at most max_len - 1 (EOS is added).
std::vector<int32_t> neural_pieces(const Tokenizer& tok, std::string_view text, int max_len);

// The vectors of token sequences (pieces without EOS), L2 normalised; an
// empty sequence is the zero vector. out: seqs.size() x dim. Each vector has
// the bits it has when its sequence is given alone (see above).
void neural_embed(const NeuralConfig& cfg, const float* params, const std::vector<const std::vector<int32_t>*>& seqs,
                  float* out);

std::unique_ptr<align::SentenceEncoder> load_neural_encoder(const std::string& path);

}  // namespace mt
