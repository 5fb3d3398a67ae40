// Scores mined sentence pairs against a BUCC gold standard (Zweigenbaum et
// al., 2017): precision, recall and F1 of the extracted id pairs, and the
// best F1 over a score threshold with the threshold that gives it, as the
// BUCC evaluation of LASER (tasks/bucc/bucc.py) does.
//
// Files (all UTF-8, tab-separated):
//   gold          SRC_ID <TAB> TRG_ID
//   sentences     ID <TAB> SENTENCE           (BUCC's *.de, *.en files)
//   candidates    SRC_ID <TAB> TRG_ID [<TAB> SCORE]            (ids), or
//                 bitext TSV: src_text, trg_text [, score]      (sentences;
//                 needs both sentence files to map texts to ids)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace corpus::eval {

struct MiningCandidate {
  std::string src_id, trg_id;
  double score = 0;
};

struct MiningCounts {
  double threshold = 0;  // pairs with score >= threshold (when thresholded)
  uint64_t extracted = 0, correct = 0, gold = 0;
  double precision = 0, recall = 0, f1 = 0;
};

struct MiningReport {
  uint64_t candidates = 0;      // distinct candidate pairs
  bool scored = false;          // the candidates had scores
  bool thresholded = false;     // `selected` applies a given threshold
  MiningCounts selected;        // all candidates, or those >= the threshold
  std::optional<MiningCounts> best;  // best F1 over thresholds (scored only)
  uint64_t ambiguous = 0;       // sentence candidates dropped: text under several ids
  uint64_t skipped = 0;         // bad candidates skipped (skip_bad)
};

// Pure scoring. Duplicate candidate pairs keep their highest score. The best
// F1 is searched over the distinct scores (ties are taken together); its
// threshold is the midpoint between that score and the next lower one, so
// that `score >= threshold` selects exactly that set.
MiningReport score_mining(std::vector<MiningCandidate> candidates,
                          const std::vector<std::pair<std::string, std::string>>& gold, bool scored,
                          std::optional<double> threshold);

struct MiningFiles {
  std::string gold;
  std::string candidates = "-";
  std::string src_sents, trg_sents;   // optional (required for sentence candidates)
  std::string score_column = "score"; // for bitext TSV with a header
  std::optional<double> threshold;
  bool skip_bad = false;
  // A longer line is an Error at its line, read past without being held
  // whole; in the candidates, with skip_bad, a skipped bad candidate.
  size_t max_line = size_t{32} << 20;
};

// Reads the files and scores. Errors (corpus::Error, exit 1) name the file
// and line: malformed lines, unknown ids, sentences not in the sentence
// files, bad scores; an empty gold file is an error too.
MiningReport score_mining_files(const MiningFiles& f);

}  // namespace corpus::eval
