// The overlap vectors of one side of a document (vecalign.h): every run of
// 1 .. layers consecutive sentences joined by a space and encoded, as
// Vecalign's overlap.py makes them.
#pragma once

#include <string>
#include <vector>

#include "align/encoder.h"
#include "align/sentalign/vecalign.h"

namespace align::sentalign {

// Throws what the encoder throws (corpus::Error on text it cannot encode).
OverlapVectors encode_overlaps(const SentenceEncoder& e, const std::vector<std::string>& sentences,
                               SentenceEncoder::Side side, int layers);

}  // namespace align::sentalign
