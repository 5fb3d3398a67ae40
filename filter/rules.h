// The stateless hard rules: one pair in, the first rule of the chain it
// fails out. Thread-safe (a RuleSet is read-only once built).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "filter/chain.h"

namespace filter {

// Scores computed for a pair (NaN when that scorer is not in use).
struct PairScores {
  double ibm1 = std::numeric_limits<double>::quiet_NaN();
  double cos = std::numeric_limits<double>::quiet_NaN();
  double order = std::numeric_limits<double>::quiet_NaN();  // order_score (filter/order_score.h)
  double nmt = std::numeric_limits<double>::quiet_NaN();    // nmt_score: a translation model's per-token probability
  double clean = std::numeric_limits<double>::quiet_NaN();
  uint32_t languages = 0;  // the multi-way signal (0: not computed)
};

struct SidePair;
class LanguageCheck;
class Alphabet;
class FastTextLid;
class SpellDictionaries;

class RuleSet {
 public:
  // `src_lang`/`trg_lang` may be empty unless the chain has lid or script
  // (ConfigError). Reads the patterns file (Error naming it). With
  // `lid_model` (kept by the caller), lid asks it as well as CLD2. The spell
  // rule asks `dictionaries` (kept by the caller), or without them its own
  // from the default folders (filter/spell.h).
  RuleSet(const Chain& chain, std::string src_lang, std::string trg_lang, const FastTextLid* lid_model = nullptr,
          const SpellDictionaries* dictionaries = nullptr);

  // The index in chain.rules of the first stateless rule the pair fails, or
  // -1. Dedup and limits are left to the caller.
  int first_failure(std::string_view src, std::string_view trg, const PairScores& scores) const;

  const Chain& chain() const { return chain_; }

 private:
  bool fails(const Rule& r, std::string_view src, std::string_view trg, const SidePair& p,
             const PairScores& scores) const;
  Chain chain_;
  std::string src_lang_, trg_lang_;
  std::vector<int> src_scripts_, trg_scripts_;
  double expected_log_words_ = 0, expected_log_chars_ = 0;  // wratio: log(trg/src) the languages lead to expect
  std::vector<std::regex> patterns_;
  std::shared_ptr<const LanguageCheck> src_lid_, trg_lid_;
  const FastTextLid* lid_model_ = nullptr;
  std::shared_ptr<const SpellDictionaries> own_dictionaries_;
  const SpellDictionaries* dictionaries_ = nullptr;
  std::vector<std::string> spell_langs_;
  std::string src_code_, trg_code_;  // language_code()s, for the model's labels
  std::shared_ptr<const Alphabet> src_abc_, trg_abc_;
};

// Exposed for tests: the rules' views of one side.
bool is_url_or_email(std::string_view s);
// The language part of a code: "pt_BR" -> "pt", "zh-Hant" -> "zh".
std::string_view primary_language(std::string_view code);
// The scripts (ICU UScriptCode values) ICU gives the language of a code,
// with Han and both kanas for Japanese, Han and Hangul for Korean, Han for
// simplified or traditional Chinese; empty when ICU knows none.
std::vector<int> language_scripts(std::string_view code);

}  // namespace filter
