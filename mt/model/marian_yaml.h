// The two YAML files of a Marian model, read as far as Marian writes them:
// the config (special:model.yml inside the .npz: top-level "key: value" lines
// and "  - item" lists) and the vocabulary (vocab.yml: one "PIECE: ID" line
// per entry, the piece plain, 'single' or "double" quoted with YAML's escapes).
// Not a YAML parser: anything else is a corpus::Error at the file and line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mt::marian {

// Scalars by key, quotes removed; a list is its items joined by ",", an empty
// list ("[]" or no items) "".
std::map<std::string, std::string> parse_config(std::string_view text, const std::string& file);

// (piece, id) in file order; duplicate pieces or ids and negative ids are refused.
std::vector<std::pair<std::string, int64_t>> parse_vocab(std::string_view text, const std::string& file);

}  // namespace mt::marian
