// The text pc-eval prints: the mining and alignment tables, the corpus score
// lines and the paired bootstrap table. Each function returns whole lines
// (each ending in '\n'); ratios (precision, recall, F1, AER) have four
// decimals, metric scores `width` decimals.
#pragma once

#include <string>
#include <vector>

#include "libcorpus/eval/align_score.h"
#include "libcorpus/eval/bootstrap.h"
#include "libcorpus/eval/corpus_eval.h"
#include "libcorpus/eval/metric.h"
#include "libcorpus/eval/mining.h"

namespace corpus::eval {

// Header and one row for the selected candidates ("all", or "threshold"
// with its value), then a "best" row when the candidates were scored.
std::string format_mining_table(const MiningReport& r);

// Vecalign's strict and lax precision, recall and F1.
std::string format_sentence_alignment_table(const SentAlignScores& s);

// Link counts, precision, recall and AER.
std::string format_word_alignment_table(const WordAlignScores& w);

// One line per metric for system 0's totals: sacreBLEU's text line, or its
// JSON object with sf.json (sf.signatures: one per metric).
std::string format_corpus_scores(const std::vector<const Metric*>& metrics, const CorpusStats& st,
                                 const SentenceFormat& sf);

// The --paired-bs table: results[m][s] is metric m's result for system s
// (system 0 the baseline, whose p-value is "-"); signatures: one per metric.
std::string format_bootstrap_table(const std::vector<std::string>& systems, const std::vector<const Metric*>& metrics,
                                   const std::vector<std::vector<BootstrapResult>>& results,
                                   const std::vector<std::string>& signatures, int width);

}  // namespace corpus::eval
