// The decoding dependency graph of parallel decoding (Santilli et al. 2023,
// DDGviz) as one self-contained SVG: for each traced sentence a grid of
// decoder passes (rows, top to bottom) by target positions (columns), each
// cell the token the model chose there in that pass, filled by what became
// of it:
//   accepted   the pass settled it (greedy's token from then on)
//   right      not accepted yet, but the token greedy ends up with there
//   wrong      not accepted, and not greedy's final token there
// with the token's probability as the fill's strength and in its tooltip.
// The staircase of accepted cells is the dependency chain: the fewer rows,
// the fewer passes the sentence needed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mt/decode/parallel.h"

namespace mt {

struct DdgSentence {
  uint64_t number = 0;        // the input line, counted from 0
  std::string source;         // the source text
  DecodeTrace passes;         // every pass, in order
};

// `piece` names a target token id (SentencePiece's piece, "▁" marking a
// word start); `caption` is printed above the graphs (the decoding settings).
std::string ddg_svg(const std::vector<DdgSentence>& sentences, const std::function<std::string(int32_t)>& piece,
                    const std::string& caption);

}  // namespace mt
