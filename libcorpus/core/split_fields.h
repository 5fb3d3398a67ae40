// Splitting a field list at a separator, empty fields kept: "a::b" at ':'
// is {"a", "", "b"}, so a caller can refuse an empty field by its position
// (corpus::cli::split_list, for option lists, drops them instead).
#pragma once

#include <string_view>
#include <vector>

namespace corpus {

// The fields of `s` between the `sep` characters; views into `s`. An empty
// `s` is one empty field.
inline std::vector<std::string_view> split_fields(std::string_view s, char sep) {
  std::vector<std::string_view> fields;
  for (size_t p = 0;;) {
    const size_t at = s.find(sep, p);
    fields.push_back(s.substr(p, at == std::string_view::npos ? std::string_view::npos : at - p));
    if (at == std::string_view::npos) return fields;
    p = at + 1;
  }
}

}  // namespace corpus
