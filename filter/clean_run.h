// pc-clean's streaming run over bitext TSV: fixers, rules and scores on
// oneTBB workers (ordered line pipeline), then dedup and the one-to-many
// limits serially in input order, so the output never depends on -j.
//
// Output columns: the input's, with src_text/trg_text fixed; with a scorer,
// ibm1_score, cos_score (each when its scorer is in use) and clean_score;
// with a multi-way index, multiway_score (the languages the source is
// aligned to, this pair's included);
// with annotate, clean_reason ("keep" or the rule that rejected the row).
// A column the input already has is overwritten in place, others are
// appended. The header is written before the first row written, so an empty
// input gives an empty output; a headerless two-column input that gains no
// column stays headerless. The rejected file has the output's columns plus
// clean_reason, always with a header.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "filter/chain.h"
#include "filter/multiway.h"
#include "filter/scorers.h"
#include "libcorpus/core/tsv.h"

namespace corpus {
class Output;
}

namespace filter {

class FastTextLid;
class SpellDictionaries;

struct CleanOptions {
  Chain chain;
  std::string src_lang, trg_lang;
  bool annotate = false;
  bool skip_bad = false;
  size_t max_line = 0;  // a longer row is bad (0: no limit)
  size_t batch_bytes = 1 << 20;
  const MultiwayIndex* multiway = nullptr;  // with it: multiway_score and the multiway rule
  const FastTextLid* lid_model = nullptr;   // with it: lid asks fastText as well as CLD2 (filter/fasttext_lid.h)
  const SpellDictionaries* dictionaries = nullptr;  // the spell rule's (filter/spell.h); null: the default folders
};

struct CleanCounts {
  uint64_t rows = 0;          // rows read, bad ones included
  uint64_t kept = 0;
  uint64_t skipped_bad = 0;
  uint64_t fixed = 0;         // rows a fixer changed
  std::vector<uint64_t> rejected;  // per rule of the chain, in chain order
};

// `rejected` may be null. progress(bytes, rows) after each batch.
CleanCounts clean_rows(corpus::BitextLines& in, const CleanOptions& opt, const PairScorer& scorer,
                       corpus::Output& out, corpus::Output* rejected,
                       const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace filter
