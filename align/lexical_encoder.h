// The lexical sentence encoder: a cross-lingual vector from words alone,
// trained in seconds from a seed bitext and/or a bilingual dictionary.
//
// A sentence's vector is up to four blocks, each L2-normalised and weighted,
// the whole then L2-normalised again:
//  - bags: IBM Model 1 "translated bags". The sentence's own bag of words
//    (sublinear tf × idf) and its expected bag in the other language
//    (Σ_w x_w t(·|w) over the IBM1 table of that direction), both
//    feature-hashed with signs into `buckets` dimensions each. A source
//    sentence is [own source bag ; translated into target], a target
//    sentence [translated into source ; own target bag], so the two halves
//    compare like with like.
//  - lsa: cross-lingual LSA. The tf-idf bags of the training pairs, source and
//    target side by side, are factored by a truncated SVD (randomised, seeded)
//    into `lsa_dim` dimensions; each language projects with its rows of the
//    right singular vectors, then the post-processing chosen at training time
//    (centring, removing the top principal components, ZCA whitening, CCA
//    between the languages), folded into one affine map per language.
//  - chars: hashed character 3- to 5-grams, in one space both languages
//    share: of every word (char_all, the default: cognates, names and numbers
//    match across the languages), or only of the words a bag cannot place
//    (unseen on their side) and strings both vocabularies hold.
//  - length: two dimensions, (cos θ, sin θ) with θ = length_scale ×
//    (ln n − o), n the sentence's code points, o = 0 on the source side and
//    the training pairs' median ln(n_trg / n_src) on the target side. The
//    block's dot product across the languages is cos(length_scale × the
//    difference of the log length ratio from the typical one): a one-word
//    target ("Error") stops looking like the translation of "Read error".
//    Only beside another block's evidence: a sentence that no other block
//    can place keeps the zero vector.
//
// Model file: one safetensors file, __metadata__ format "paracorp.encoder",
// version "1", config JSON with "kind": "lexical" and every setting. Tensors:
//   {src,trg}.vocab.offsets U64 [V+1], .bytes U8, .idf F32 [V]  (word 0 = "")
//   fwd.indptr U64 [Vs+1], fwd.indices U32, fwd.values F32   t(trg | src)
//   rev.*                                                    t(src | trg)
//   {src,trg}.lsa.rows U32 [V]  each word's row of .lsa.proj, or 2^32-1 (no LSA vector)
//   {src,trg}.lsa.proj F32 [R, lsa_dim], .mean F32 [lsa_dim], .post F32 [lsa_dim, lsa_dim]
// The vocabulary ids are those of the IBM1 model trained in the same run
// (byte order, binary-searchable where mapped).
//
// The empty sentence (no tokens) is the zero vector: its dot product with
// every vector is 0, so it is nobody's neighbour by a positive score, and
// cosine scores report 0 for it. Invalid UTF-8 is a corpus::Error.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "align/encoder.h"
#include "align/ibm1_model.h"
#include "align/tokenize.h"

namespace corpus::safetensors {
class File;
}

namespace align {

// Post-processing of the LSA block, each switched on its own.
struct LexicalPost {
  bool center = true;   // subtract each language's mean
  int remove_top = 0;   // remove this many top principal components per language
  bool whiten = true;   // ZCA whitening per language
  bool cca = true;      // CCA between the languages (whitens first if whiten is off)
};

struct LexicalOptions {
  TokenizerOptions tokenizer{TokenMode::kIcu, true};
  int ibm1_iterations = 5;
  double min_prob = 0.01;  // IBM1 entries kept per word: t >= min_prob, at most top_k
  int top_k = 10;
  int buckets = 1024;      // per half of the bags block
  int lsa_dim = 0;         // 0: no LSA block (the default: it measured no gain, docs/embed.md)
  int char_buckets = 256;  // 0: no character n-gram block
  uint32_t lsa_vocab = 30000;  // the SVD's words per side (most frequent); others project to zero
  size_t lsa_rows = 50000;     // the SVD's pairs at most, evenly spaced
  bool char_all = true;    // char n-grams of every word (false: unseen and shared words only)
  double bags_weight = 1.0, lsa_weight = 0.3, char_weight = 0.7;
  double length_weight = 0.3;  // 0: no length block (docs/embed.md: the default is a compromise with mining)
  double length_scale = 1.25;
  int split_min = 3;  // unseen words split into known ones of at least this many code points (0: not split)
  // pairs[0, length_pairs) are sentence pairs, the rest dictionary entries:
  // the length block's offset is the median over the sentence pairs (over
  // every pair when there are none).
  size_t length_pairs = SIZE_MAX;
  LexicalPost post;
  uint64_t seed = 1;
  std::string src_lang, trg_lang;
};

// A training pair: source and target text (a sentence pair, or a dictionary
// entry and one of its translations).
using TextPair = std::pair<std::string, std::string>;

struct LexicalTrainStats {
  uint64_t pairs = 0, empty_skipped = 0;
  uint32_t src_vocab = 0, trg_vocab = 0;
  double ibm1_s = 0, lsa_s = 0, total_s = 0;
};

class LexicalEncoder final : public SentenceEncoder {
 public:
  static constexpr const char* kKind = "lexical";
  static constexpr const char* kVersion = "1";

  // Trains on `pairs` (valid UTF-8, checked by the caller). Throws
  // corpus::ConfigError for impossible settings, corpus::Error when no pair
  // has words on both sides.
  static std::unique_ptr<LexicalEncoder> train(const std::vector<TextPair>& pairs, const LexicalOptions& opt,
                                               LexicalTrainStats* stats = nullptr);
  // Loads a model file; a file of another kind or version is an Error naming it.
  static std::unique_ptr<LexicalEncoder> load(const std::string& path);
  // The lexical part of another encoder file (a combined one): its tensors
  // are `prefix` + the names above, its config is `config` (JSON text).
  // Errors name f.path().
  static std::unique_ptr<LexicalEncoder> load_part(const corpus::safetensors::File& f, const std::string& prefix,
                                                   const std::string& config);
  void save(const std::string& path) const;

  std::size_t dim() const override;
  void encode(std::span<const std::string_view> sentences, Side side, std::span<float> out) const override;
  std::string describe() const override;
  const nlohmann::ordered_json& config() const { return config_; }

  struct Tables;  // vocabularies, IBM1 rows, LSA maps (lexical_encoder.cpp)
  explicit LexicalEncoder(std::shared_ptr<Tables> t);
  ~LexicalEncoder() override;

 private:
  std::shared_ptr<Tables> t_;
  nlohmann::ordered_json config_;
};

}  // namespace align
