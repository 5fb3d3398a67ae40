// Using a trained IBM Model 1: Viterbi alignment, pair scores, word-based
// translation and lexicon export. All functions are pure (thread-safe) reads
// of the model.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "align/ibm1_model.h"
#include "align/symmetrize.h"

namespace align {

// Word ids of tokens in a vocabulary (UINT32_MAX for unknown words).
void lookup(const VocabView& v, const std::vector<std::string>& tokens, std::vector<uint32_t>& ids);

// Viterbi alignment of Model 1 (each word independently). fwd: every target
// word j takes the source word i with the highest t(f_j | e_i) (the earliest
// on ties), or none when NULL is strictly more likely or every t is 0. rev: the
// same for every source word over the target words. Links are (i, j), sorted.
Links viterbi_fwd(const Ibm1Model& m, std::span<const uint32_t> src, std::span<const uint32_t> trg);
Links viterbi_rev(const Ibm1Model& m, std::span<const uint32_t> src, std::span<const uint32_t> trg);

struct PairScore {
  double fwd = 0;       // (1/n) sum_j log( (t(f_j|NULL) + sum_i t(f_j|e_i)) / (m+1) ), floored
  double rev = 0;       // the same with the roles swapped
  double qmax_fwd = 0;  // exp( (1/n) sum_j log max(floor, max_i t(f_j|e_i)) )  (Bicleaner q_max)
  double qmax_rev = 0;  // exp( (1/m) sum_i log max(floor, max_j t(e_i|f_j)) )
};
// `floor` replaces probabilities below it (unknown words, unseen pairs).
PairScore score_pair(const Ibm1Model& m, std::span<const uint32_t> src, std::span<const uint32_t> trg,
                     double floor);

// Word-based translation: each source word becomes its best target word under
// t(trg | src), in the same order; unknown words and numbers are copied; with
// drop_null, words whose most likely generator is NULL are dropped: by Bayes'
// rule on the rev table, pairs x t(src | NULL) >= count(trg) x t(src | trg)
// for every target word of the table (NULL occurs once per sentence pair).
class WordTranslator {
 public:
  WordTranslator(const Ibm1Model& m, bool drop_null);
  // Appends the translation of `tokens` (space-separated) to `out`.
  void translate(const std::vector<std::string>& tokens, std::string& out) const;

 private:
  static constexpr uint32_t kCopy = UINT32_MAX, kDrop = 0;
  const Ibm1Model& m_;
  std::vector<uint32_t> best_;  // per source word: target id, kDrop or kCopy
};

// True for tokens made of digits and number punctuation (. , : / - + %),
// with at least one digit.
bool is_number(std::string_view token);

enum class LexFormat { kTtable, kMoses };
// Writes one direction's table, rows in vocabulary order:
//   ttable: "GIVEN<TAB>WORD<TAB>PROB"      (fwd: GIVEN = source word)
//   moses:  "WORD GIVEN PROB" with PROB as %.7f (Moses lex.f2e for fwd,
//           lex.e2f for rev)
// NULL is written as "NULL". Entries below min_prob are left out. Returns
// the number of entries written.
uint64_t write_lexicon(const Ibm1Model& m, bool rev, LexFormat format, double min_prob,
                       const std::function<void(std::string_view)>& write);

}  // namespace align
