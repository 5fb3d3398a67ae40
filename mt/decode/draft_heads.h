// Draft heads (Medusa, Cai et al. 2024): small layers on top of a trained
// model that guess the tokens after the next one. Head k reads the decoder's
// top row (after the final norm) at the position that gave token y_t and
// guesses y_{t+k}: z = h + W2 silu(W1 h + b1) + b2, scored against the
// model's own output projection restricted to a shortlist of the target
// pieces the model writes most. The model stays as it is; a parallel pass
// verifies every guess (mt/decode/parallel.h), so the output is greedy's
// whatever the heads guess, and a better guess only means fewer passes.
//
// File: .safetensors, __metadata__ format "paracorp.draft-heads", version
// "1", heads, dim, hidden, model (the fingerprint of the model's output
// projection, hex), trained_on; tensors shortlist (I32 [S]), head.K.w1
// [hidden, dim], head.K.b1, head.K.w2 [dim, hidden], head.K.b2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mt/model/config.h"

namespace mt {

inline constexpr const char* kDraftHeadsFormat = "paracorp.draft-heads";

struct DraftHeads {
  int heads = 0, dim = 0, hidden = 0;
  uint64_t model = 0;              // fingerprint of the model it was trained on (draft_model_fingerprint)
  std::vector<int32_t> shortlist;  // [S] target ids the heads choose among, ascending
  // Head k's layers at offset k * (hidden*dim) (w1, w2) and k * hidden (b1), k * dim (b2).
  std::vector<float> w1, b1, w2, b2;
  // The model's output rows and biases of the shortlist, [S, dim] and [S] (set by bind()).
  std::vector<float> out_w, out_b;

  int shortlist_size() const { return static_cast<int>(shortlist.size()); }
  // Copies the shortlist's output rows from the model's parameters; throws
  // corpus::Error when the heads were trained for another model.
  void bind(const Config& cfg, const float* params);
  // The first n heads' guesses (n <= heads) from one top row h [dim]:
  // out[k] = the guess for the token k + 1 places after the one h gave.
  // Scratch is the caller's.
  void guess(const float* h, int n, int32_t* out, std::vector<float>& scratch) const;
  // What a pass projects for the first n heads instead (Transformer::decode's
  // ExtraRows): each top row's head inputs z, row r * n + k of `out` for row
  // r of `top` [N, dim] and head k; then pick() reads a head's guess from
  // its row of logits over the whole vocabulary, among the shortlist.
  void head_rows(const float* top, int N, int n, float* out, std::vector<float>& scratch) const;
  int32_t pick(const float* logits) const;

 private:
  // The heads' layers, which guess() and head_rows() share: out as
  // head_rows(); a [N, hidden] and z [N, dim] are the temporaries.
  void head_layers(const float* top, int N, int n, float* out, float* a, float* z) const;
};

// A 64-bit fingerprint of the model's output projection (weights and bias),
// which the heads are scored against.
uint64_t draft_model_fingerprint(const Config& cfg, const float* params);

void save_draft_heads(const std::string& path, const DraftHeads& h, const std::string& trained_on);
// Reads and checks a heads file (format, shapes, shortlist ids below `trg_vocab`); throws corpus::Error.
DraftHeads load_draft_heads(const std::string& path);

}  // namespace mt
