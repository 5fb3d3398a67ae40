// The cleaning chain: fixers, hard rules, dedup, limits and score thresholds,
// all described by one string such as
//   fix=all,len=1:1000,ratio=3,same,lid,dedup=near,ibm1>=0.2
// Items are comma-separated: `name`, `name=value` or `name>=value`. The
// fixers run first wherever `fix=` stands; then the row rules and thresholds
// in the order given (a rejected row gets the first rule it fails); dedup and
// the one-to-many limits run last, on the rows every other rule kept, in
// input order. docs/clean.md and man/pc-clean.1 give each rule's reason.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "filter/fixers.h"

namespace filter {

enum class RuleKind {
  kLen,           // len=MIN:MAX       characters per side
  kWords,         // words=MIN:MAX     words per side (sides in spaceless scripts are exempt)
  kRatio,         // ratio=R           longer/shorter side length (ratio_length), with 5 added to each
  kWordRatio,     // wratio=W:C[:W2:C2] words and characters both off the pair's expected ratio by W and C, one way
                  //                   (W2:C2, when given, for a target longer than expected)
  kSame,          // same              source equals target (lower-cased, white space removed)
  kUntranslated,  // untranslated=F    share of the source's prose words found in the target >= F (4+ words)
  kAlpha,         // alpha=F           letters / non-space characters < F on a side
  kDigits,        // digits=F          digits / non-space characters > F on a side
  kUrl,           // url               a side is only a URL or an e-mail address
  kNumbers,       // numbers           the digit runs differ between the sides
  kBrackets,      // brackets          one side has unbalanced brackets or an odd number of '"', the other not
  kPlaceholders,  // placeholders      %s / {0} / <b> placeholders differ
  kRepeat,        // repeat=N          a word N times in a row, or a character 3N times
  kCaps,          // caps=F            capitals / letters > F on a side (10+ letters)
  kLid,           // lid[=short]       CLD2 names another language on a side (needs -s/-t); short: its best-effort answer too
  kSpell,         // spell[=L+L]       a short side's words are another listed language's, not its own, by the
                  //                   spelling dictionaries (needs -s/-t; filter/spell.h)
  kAlphabet,      // alphabet          a side has letters of its script outside its language's alphabet (needs -s/-t)
  kScript,        // script            a side has letters, none in its language's scripts (needs -s/-t)
  kDebris,        // debris            HTML, navigation, cookie and copyright debris
  kPatterns,      // patterns=FILE     a side matches a regex of FILE (one a line)
  kIbm1,          // ibm1>=T           IBM1 q_max score below T (needs --ibm1)
  kCos,           // cos>=T            encoder cosine below T (needs --encoder)
  kOrder,         // order>=T          order score below T (needs --order-lm)
  kNmt,           // nmt>=T            translation model's per-token probability below T (needs --nmt)
  kScore,         // score>=T          clean_score below T (needs a scorer)
  kMultiway,      // multiway=N        the source is aligned to N or more languages (needs --multiway)
  kDedup,         // dedup=exact|near  a pair seen before
  kMaxTrg,        // maxtrg=N          a source with N targets already
  kMaxSrc,        // maxsrc=N          a target with N sources already
};

struct Rule {
  RuleKind kind = RuleKind::kLen;
  double a = 0, b = 0;  // parameters (len/words: MIN, MAX; wratio: W, C; thresholds and limits: a)
  double c = 0, d = 0;  // wratio: W2, C2 (W, C unless given)
  std::string arg;      // patterns: the file; dedup: exact or near; lid: empty or short; spell: empty or L+L
  std::string name() const;  // the reason written for a rejected row: "len", "dedup"...
  std::string spec() const;  // the item as it parses back: "len=1:1000"
  bool stateful() const { return kind == RuleKind::kDedup || kind == RuleKind::kMaxTrg || kind == RuleKind::kMaxSrc; }
  bool needs_langs() const {
    return kind == RuleKind::kLid || kind == RuleKind::kSpell || kind == RuleKind::kScript || kind == RuleKind::kAlphabet;
  }
};

// The chain pc-clean runs when none is given.
inline constexpr const char* kDefaultChain =
    "fix=all,len=1:1000,ratio=3,wratio=1.75:1.5:2:1.5,same,untranslated=0.8,alpha=0.3,url,numbers,placeholders,brackets,repeat=4,"
    "caps=0.9,lid,spell,script,alphabet,debris,dedup=exact";

struct Chain {
  Fixers fix;
  bool has_fix = false;
  std::vector<Rule> rules;

  // Throws corpus::ConfigError naming the bad item and what was expected.
  static Chain parse(std::string_view spec);
  std::string spec() const;  // parse(spec()) gives the same chain
  bool has(RuleKind k) const;
  // The chain without the rules that need languages (for the default chain
  // when -s/-t are not given).
  Chain without_lang_rules() const;
};

}  // namespace filter
