// The order signal's language model: a word bigram model of one side's
// language (interpolated Kneser-Ney, absolute discount), trained in memory
// from a column of a bitext (pc-clean --order-lm), and the
// fluency gain of a sentence's word order over the mean of all orders of
// the same words. The gain cancels word choice: shuffling a sentence's words
// keeps every unigram and only changes the order, and the mean over orders
// is what a random order scores on average (each ordered pair of distinct
// words is adjacent in 1/n of the orders; each word starts or ends the
// sentence in 1/n of them). Words are split at spaces; a word seen fewer
// than min_count times in training, and an unseen word, is its shape class
// (capitalised, lower-case/other letter, no letter). Read-only once built
// (thread-safe).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace filter {

struct OrderLmOptions {
  uint32_t min_count = 4;  // training words seen fewer times become their shape class
  double discount = 0.75;  // Kneser-Ney absolute discount, in (0, 1)
};

struct OrderGain {
  double gain = 0;     // ln P(the order given) - mean of ln P over all orders (natural log)
  uint32_t words = 0;  // words scored (at most OrderLm::kMaxWords)
};

class OrderLm {
 public:
  static constexpr uint32_t kMaxWords = 256;  // longer sentences are scored on their first 256 words

  // Reads `column` (src_text or trg_text) of each file (TSV bitext, any
  // compression); bad rows are an Error with file and line.
  static OrderLm train_files(const std::vector<std::string>& files, const std::string& column,
                             const OrderLmOptions& o = {});
  // From sentences in memory (tests).
  static OrderLm train(const std::vector<std::string>& sentences, const OrderLmOptions& o = {});

  bool empty() const { return bigrams_.empty(); }
  // ln P(b | a) of word ids; kStart / kEnd are the sentence boundaries.
  double log_prob(uint32_t a, uint32_t b) const;
  OrderGain gain(std::string_view sentence) const;
  uint32_t id(std::string_view word) const;  // its shape class when unknown

  static constexpr uint32_t kStart = 0, kEnd = 1;

 private:
  class Builder;
  double discount_ = 0.75;
  std::unordered_map<std::string, uint32_t> vocab_;  // known words (shape classes and boundaries not included)
  std::unordered_map<uint64_t, uint32_t> bigrams_;   // (a << 32 | b) -> count
  std::vector<uint32_t> hist_, followers_, cont_;    // per id: c(a .), N1+(a .), N1+(. b)
  double cont_total_ = 0, cont_types_ = 0;           // N1+(. .), words with N1+(. b) > 0
};

}  // namespace filter
