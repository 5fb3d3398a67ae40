// Pharaoh word alignments (Moses, fast_align, GIZA++ tools): one sentence
// pair per line, links "i-j" separated by white space, i the 0-based source
// position and j the 0-based target position. Gold files for AER also mark
// possible links "i?j" (or "ipj", as in the Hansards set); "i-j" is sure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corpus {

using AlignLink = std::pair<uint32_t, uint32_t>;  // (source position, target position)

// Appends "i-j i-j ..." in the given order (no newline).
void append_pharaoh(std::string& out, const std::vector<AlignLink>& links);

// The links of one line, in line order (repeats kept), into `sure`; with
// `possible`, "i?j" and "ipj" links go there, without it only "i-j" is a
// link. Both are cleared first. A position has at most 9 digits. Throws
// corpus::Error (with no location: the caller knows the file and line) on a
// malformed link.
void parse_pharaoh(std::string_view line, std::vector<AlignLink>& sure, std::vector<AlignLink>* possible = nullptr);

}  // namespace corpus
