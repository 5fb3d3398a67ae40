// Beam search with a length penalty and n-best lists, a batch of sentences
// at a time (B sentences x K beams are the rows of one decoder pass).
//
// Each pass expands every live beam by its K best next tokens (ties to the
// lower id); of the K*K candidates of a sentence the K with the highest
// log-probability sum survive. A candidate ending in EOS is finished and
// its sentence's beam narrows by one (as Marian does); the search stops when
// no beam is live or at the length limit, where the live beams finish
// without EOS (as greedy stops). Finished hypotheses are ranked by
// log P / penalty(length), length counting EOS. With K = 1 this is greedy
// decoding, token for token.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mt/decode/greedy.h"

namespace mt {

enum class LengthPenalty {
  kNone,    // log P
  kGnmt,    // log P / ((5 + |Y|) / 6)^alpha  (Wu et al. 2016)
  kMarian,  // log P / |Y|^alpha              (Marian's --normalize)
};
LengthPenalty parse_length_penalty(const std::string& name);  // throws corpus::ConfigError
double length_penalty(LengthPenalty lp, double alpha, int length);

struct BeamOptions {
  int beam = 4;    // K
  int n_best = 1;  // hypotheses returned per sentence (<= K)
  LengthPenalty penalty = LengthPenalty::kGnmt;
  double alpha = 0.6;
};

struct Hypothesis {
  std::vector<int32_t> tokens;  // without BOS and EOS
  double logprob = 0;           // log P(tokens, EOS | source), EOS left out when cut at the limit
  double score = 0;             // logprob / penalty: the ranking
  bool eos = true;              // ended by EOS (false: cut at the length limit)
};

// For each source (input order), its n_best hypotheses, best first. Sources
// longer than max_len - 1 are cut. With `stats`, one entry per sentence.
std::vector<std::vector<Hypothesis>> beam_translate(const Config& cfg, const float* params,
                                                    const std::vector<std::vector<int32_t>>& src,
                                                    const DecodeOptions& opt, const BeamOptions& beam,
                                                    std::vector<SentenceStats>* stats = nullptr);

// log P(trg, EOS | src) under the model (log P(trg | src) without `eos`),
// by the training forward (tests and rescoring).
double sequence_logprob(const Config& cfg, const float* params, const std::vector<int32_t>& src,
                        const std::vector<int32_t>& trg, bool eos = true);

}  // namespace mt
