// Parallel decoding that gives exactly greedy's output (Santilli et al.,
// ACL 2023): greedy decoding as a fixed-point system, solved by running a
// block of guessed positions in one decoder pass and keeping what the model
// confirms.
//
// A pass runs the last accepted token and b - 1 guesses at positions
// t0 .. t0+b-1 against the KV cache. Its first output is greedy's next token
// (it sees only the accepted prefix); each further output is accepted while
// the guess before it equals the model's output there, so a pass accepts
// 1 .. b tokens and the result is greedy's, token for token. Guesses are the
// previous pass's outputs (the Jacobi iterate) and, for positions not
// guessed yet, a draft. It relies on a row's result not depending on the
// rows run with it: b <= kFewRows (the few-row kernel) and attention a row
// at a time (mt/layers/decoder_layer.cpp).
//
// Each sentence is decoded alone (batch size 1); sentences run on the threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mt/decode/draft_heads.h"
#include "mt/decode/greedy.h"
#include "mt/decode/ngram_pool.h"

namespace mt {

enum class DecodeMode {
  kGreedy,
  kJacobi,    // a window of b positions from the first one not accepted; stops at EOS
  kGsJacobi,  // Gauss-Seidel Jacobi: fixed blocks of b, each iterated until settled, up to the length limit
  kHybrid,    // as gs-jacobi, stopping after the first settled block holding EOS (no length needed)
};
enum class DraftSource {
  kPad,    // PAD for every new position (plain Jacobi)
  kCopy,   // the source tokens after the last accepted token's last occurrence in the source, else the
           // source token at the same position (joint vocabulary only)
  kNgram,  // a pool of the sentence's earlier passes: after token x, the model's last output after x
  kIbm1,   // as kCopy over the sentence's IBM1 draft (mt/decode/ibm1_draft.h) instead of the source
  kTrainNgram,  // as kNgram, and where the sentence's passes have not shown what follows x, the most
                // frequent token after x in a pool of target sentences (ParallelOptions::pool)
  kHeads,  // the draft heads' guesses (ParallelOptions::heads) from the top row of the last accepted
           // token: head k guesses the k-th token after it; a chain runs no more guesses than heads
};
DecodeMode parse_decode_mode(const std::string& name);   // throws corpus::ConfigError
DraftSource parse_draft_source(const std::string& name);  // throws corpus::ConfigError

// With candidates k > 1 a pass verifies up to k guessed chains of b - 1
// tokens at once (Lookahead-style), 1 + k*(b-1) <= kFewRows rows, and keeps
// the chain that gets the most tokens accepted (the first of equals): chain 0
// is the Jacobi iterate with `draft` after it; then the IBM1 draft's
// continuation (when given); then chains that start with another token the
// model gave after the last accepted one earlier in the sentence (most
// recent first) and go on by the model's last output after each token (the
// IBM1 draft's where there is none, or without one the pool's); then chains that start
// with the pool's successors of the last accepted token (with a pool); then
// the source's continuation (one vocabulary only). Chains equal to an earlier
// one are dropped, so a pass may run fewer.
struct ParallelOptions {
  DecodeMode mode = DecodeMode::kJacobi;
  int block = 4;  // b, 1 .. kFewRows
  DraftSource draft = DraftSource::kPad;
  int candidates = 1;
  // Target n-grams for kTrainNgram, and more candidate chains with any draft
  // (may be null; not owned).
  const NgramPool* pool = nullptr;
  // The draft heads for kHeads, bound to the model (mt/decode/draft_heads.h; not owned).
  const DraftHeads* heads = nullptr;
};

// One decoder pass of a sentence, for the decoding dependency graph: the
// pass ran positions t0 .. t0 + out.size() - 1, the model's choice at each
// (`out`, with its softmax probability), of which the first `accepted`
// became greedy's output.
struct PassTrace {
  int t0 = 0;
  int accepted = 0;
  std::vector<int32_t> out;
  std::vector<float> prob;
};
using DecodeTrace = std::vector<PassTrace>;

// As greedy_translate (same output, token for token, as at batch size 1).
// With `stats`, passes and tokens per sentence show what each pass gained;
// with `traces`, every pass of the first traces->size() sentences (the
// caller sizes it; the rest are not traced). `drafts` (one target token
// sequence per sentence, or null) are the IBM1 drafts, needed for kIbm1.
std::vector<std::vector<int32_t>> parallel_translate(const Config& cfg, const float* params,
                                                     const std::vector<std::vector<int32_t>>& src,
                                                     const DecodeOptions& opt, const ParallelOptions& popt,
                                                     std::vector<SentenceStats>* stats = nullptr,
                                                     std::vector<DecodeTrace>* traces = nullptr,
                                                     const std::vector<std::vector<int32_t>>* drafts = nullptr);

}  // namespace mt
