// The n-gram pool of --draft train-ngram: for each target token, the tokens
// that most often follow it in a set of target sentences (the training
// targets, say), so parallel decoding has guesses from its first pass on,
// before the sentence's own passes have filled the online pool.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "libcorpus/core/line_reader.h"
#include "mt/spm/spm.h"

namespace mt {

class NgramPool {
 public:
  // `keep` successors per token at most (1 .. 16), most frequent first, the
  // lower token id first among equals, so the pool depends only on the
  // sentences' multiset, never on their order. Each sentence is counted as
  // BOS, its tokens, EOS.
  static NgramPool from_sequences(const std::vector<std::vector<int32_t>>& targets, int32_t bos, int32_t eos,
                                  int keep);
  // The same over the lines of a text, a target sentence a line, cut into
  // pieces by the model's target tokenizer. A line of invalid UTF-8 or with a
  // NUL byte is a corpus::Error at its line; empty lines count nothing; a
  // line's pieces after the first `max_tokens` are not encoded.
  static NgramPool from_text(corpus::LineReader& in, const Tokenizer& trg, int32_t bos, int32_t eos, int keep,
                             size_t max_tokens);

  // The tokens seen after `prev`, most frequent first (empty: none).
  const std::vector<int32_t>& after(int32_t prev) const;
  size_t contexts() const { return next_.size(); }
  uint64_t sentences() const { return sentences_; }

 private:
  std::unordered_map<int32_t, std::vector<int32_t>> next_;
  uint64_t sentences_ = 0;
};

}  // namespace mt
