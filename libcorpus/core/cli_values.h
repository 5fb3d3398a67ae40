// Parsing option values that several tools share: comma lists and sizes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace corpus::cli {

// "a,b,,c" -> {"a", "b", "c"} (empty items dropped).
std::vector<std::string> split_list(const std::string& s, char sep = ',');

// "20M", "512k", "1G", "1000" -> bytes (k, M, G are powers of 1024).
// Throws UsageError naming `option` for anything else, and for 0 unless
// `allow_zero`.
uint64_t parse_size(const std::string& s, const char* option, bool allow_zero = false);

// Bytes -> the shortest exact form parse_size reads back: "20M", "512k", "1000".
std::string human_size(uint64_t bytes);

}  // namespace corpus::cli
