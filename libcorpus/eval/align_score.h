// Alignment scores.
//
// Sentence alignment, Vecalign's format and definitions (vecalign/score.py,
// after Sennrich & Volk 2011): one alignment per line, "[i, j]:[k]" with
// 0-based sentence indices (a third ":cost" field is ignored). Strict
// precision counts test alignments that are exactly in the gold; lax also
// counts one that shares a source sentence with a gold alignment whose
// target overlaps its target. Recall swaps the roles, ignoring insertions and
// deletions (alignments with an empty side). Counts add up over documents.
//
// Word alignment, Pharaoh format ("i-j" per link, a sentence per line),
// against gold with sure links "i-j" and possible links "i?j" (or "ipj"):
// AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|) with P ⊇ S (Och & Ney, 2003),
// precision |A∩P| / |A|, recall |A∩S| / |S|.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace corpus::eval {

using SentAlignment = std::pair<std::vector<int>, std::vector<int>>;

// Parses one Vecalign line; throws corpus::Error (without location) if bad.
SentAlignment parse_vecalign_line(std::string_view line);

struct StrictLax {
  uint64_t tp_strict = 0, fp_strict = 0, tp_lax = 0, fp_lax = 0;
};

struct SentAlignScores {
  StrictLax pcounts, rcounts;
  double precision_strict = 0, precision_lax = 0, recall_strict = 0, recall_lax = 0, f1_strict = 0, f1_lax = 0;
};

// Vecalign's _precision for one document.
StrictLax vecalign_precision(const std::vector<SentAlignment>& gold, const std::vector<SentAlignment>& test);
// Vecalign's score_multiple over documents (gold[i] scores test[i]).
SentAlignScores score_sentence_alignment(const std::vector<std::vector<SentAlignment>>& gold,
                                         const std::vector<std::vector<SentAlignment>>& test);
// Reads Vecalign files (errors name file and line) and scores them in pairs.
// In every file reader here a line longer than max_line bytes is an Error at
// its line, read past without being held whole.
SentAlignScores score_sentence_alignment_files(const std::vector<std::string>& gold,
                                               const std::vector<std::string>& test,
                                               size_t max_line = size_t{32} << 20);

struct WordAlignScores {
  uint64_t links = 0, sure = 0, possible = 0;  // |A|, |S|, |P| (P includes S)
  uint64_t a_and_s = 0, a_and_p = 0;
  double precision = 0, recall = 0, aer = 0;
};

// One sentence: test links, gold sure and possible links (gold possible
// includes sure). Adds to `acc`; call finish() at the end.
void add_word_alignment(WordAlignScores& acc, std::string_view test_line, std::string_view gold_line);
void finish(WordAlignScores& acc);
// Reads Pharaoh files in lockstep (different line counts: ConfigError).
WordAlignScores score_word_alignment_files(const std::string& gold, const std::string& test,
                                           size_t max_line = size_t{32} << 20);

// "vecalign" when the first non-empty line of `path` starts with '[', else "pharaoh".
std::string detect_alignment_format(const std::string& path, size_t max_line = size_t{32} << 20);

}  // namespace corpus::eval
