// Content similarity of documents that URLs did not pair (DESIGN.md §6):
//   - tfidf: each source document translated word by word with an IBM1
//     model (its best target word per source word; unknown words and numbers
//     copied), its own words kept beside the translations (names, commands
//     and English inside Japanese text match as they are: on the sample
//     site this gave the wider margins, docs/align.md), both sides as TF-IDF bags of target words (tf 1 + log c, idf
//     log((N+1)/df) over the N documents compared, so words in every document
//     weigh little but not nothing: the last two documents URL matching left
//     must still pair; tokens without a letter or digit left out),
//     cosine similarity. Without a model the
//     source words are used as they are (what the languages share: names,
//     numbers, commands).
//   - embed: a document's vector is the mean of its sentence vectors from a
//     sentence encoder, centred on its side's mean document vector (documents
//     of one site share boilerplate and the encoder's common direction, which
//     would make every pair look alike) and L2-normalised; cosine similarity.
// Both give, for every source document, its `k` most similar target
// documents. Rows are computed independently (in parallel) in a fixed order,
// so the candidates do not depend on the thread count.
// Memory: the bags (or vectors) of both sides; time: for tfidf the shared
// terms' postings per source document, for embed n_src x n_trg x dim.
#pragma once

#include <cstdint>
#include <vector>

#include "align/docalign/doc_sides.h"
#include "align/encoder.h"
#include "align/ibm1_model.h"

namespace align {

struct DocCandidate {
  double score = 0;
  uint32_t src = 0, trg = 0;  // indices into the documents given
};

// `src`, `trg`: the documents to compare (pointers into the sides).
// `model` may be null (no translation).
std::vector<DocCandidate> tfidf_candidates(const std::vector<const DocRecord*>& src,
                                           const std::vector<const DocRecord*>& trg, const Ibm1Model* model,
                                           size_t k);

std::vector<DocCandidate> embed_candidates(const std::vector<const DocRecord*>& src,
                                           const std::vector<const DocRecord*>& trg, const SentenceEncoder& enc,
                                           size_t k);

}  // namespace align
