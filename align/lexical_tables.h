// The tables of a lexical encoder (align/lexical_encoder.h) and the bag
// arithmetic that training and encoding share, so a training sentence is
// weighted exactly as it will be encoded.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "align/lexical_encoder.h"

namespace align {

struct LexicalLang {
  std::vector<uint64_t> offsets{0};  // word w is bytes[offsets[w], offsets[w+1]); word 0 is ""
  std::vector<uint8_t> bytes;
  std::vector<float> idf;            // [V]
  std::vector<uint32_t> lsa_row;     // [V]: the word's row of proj, UINT32_MAX for none (projects to 0)
  std::vector<float> proj;           // [R, lsa_dim]: the words the SVD saw
  std::vector<float> mean;           // [lsa_dim]
  std::vector<float> post;           // [lsa_dim, lsa_dim], row-major: z' = (z - mean) · post
  // proj · post and mean · post, so encoding is one sum over the words (fold_post()).
  std::vector<float> proj_post, mean_post;
  uint32_t size() const { return static_cast<uint32_t>(idf.size()); }
  std::string_view word(uint32_t id) const {
    return {reinterpret_cast<const char*>(bytes.data()) + offsets[id], static_cast<size_t>(offsets[id + 1] - offsets[id])};
  }
  uint32_t find(std::string_view w) const;  // UINT32_MAX when absent (and for "")
};

struct LexicalCsr {
  std::vector<uint64_t> indptr{0};
  std::vector<uint32_t> indices;
  std::vector<float> values;
};

struct LexicalEncoder::Tables {
  LexicalLang src, trg;
  LexicalCsr fwd, rev;  // fwd rows: source ids -> t(trg | src); rev the other way
  TokenizerOptions tokenizer;
  int buckets = 0, lsa_dim = 0, char_buckets = 0;
  float bags_weight = 1, lsa_weight = 0, char_weight = 0;
  uint64_t seed = 1;
  bool char_all = true;  // n-grams of every word, not only unseen and shared ones
  // The length block (lexical_encoder.h): weight 0 means none (and models
  // saved before it existed).
  float length_weight = 0, length_scale = 1, length_offset = 0;
  int length_dims() const { return length_weight > 0 ? 2 : 0; }
  // Unseen words split into known ones of at least this many code points
  // (0: not split; models saved before it).
  int split_min = 0;
};

// The known words an unseen word is made of, when it is one: ids of 2 or 3
// words of `l`, each at least min_cp code points, joined directly or by a
// linking element (s, es, n, en, e: "Netzwerk|s|statistiken"); the fewest
// parts win, then the most frequent (the lowest idf sum), then the earliest
// cut. Failing that, an inflected form: the word less its last one or two
// code points, if that is known and keeps more than min_cp code points
// ("Dateien" as "Datei"). Empty when neither is found, and for words over 64
// code points.
std::vector<uint32_t> split_unseen(const LexicalLang& l, std::string_view w, int min_cp);

// The sentence's length as the length block measures it: code points of
// valid UTF-8, at least 1.
size_t length_code_points(std::string_view s);

// Fills proj_post and mean_post of both languages from proj, mean and post.
void fold_post(LexicalEncoder::Tables& t);

// A sparse vector as (id, weight), ids increasing.
using SparseBag = std::vector<std::pair<uint32_t, float>>;

// Sublinear tf × idf of the vocabulary ids of a sentence's tokens
// (UINT32_MAX entries are left out), L2-normalised; empty when none is known.
SparseBag own_bag(std::vector<uint32_t> ids, const std::vector<float>& idf);

// The expected bag in the other language: Σ_w x_w t(·|w), L2-normalised.
SparseBag translated_bag(const SparseBag& own, const LexicalCsr& table);

// Divides `v` by its L2 norm (a zero vector stays zero).
void l2_normalise(std::span<float> v);

}  // namespace align
